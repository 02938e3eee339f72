"""961 CMR 3.04(1)(c) through the services and the page: the refusal names the organizations
whose lists came first, with the day the person was put on each, and that a Director's written
authorization can allow it; the authorization then waives it, when the list is made, at a live
sign-in and at a sign-in entered afterwards from the night's sheets."""

from __future__ import annotations

import datetime as dt
import html
from typing import Any

import pytest
from django.urls import reverse

from beano.rules import RuleViolation
from beano.rules.models import RefusedAction
from nightfile import acts, floor_acts
from nightfile import format as fmt
from occasions import floor_services as floor
from occasions import paper
from occasions.models import WorkerPresence
from organizations import services
from organizations.models import AuditEvent, DirectorAuthorization, Person, WorkerListEntry
from organizations.worker_services import add_to_worker_list
from tests.conftest import login, make_organization
from tests.fixtures.floor import on_floor
from tests.occasions.conftest import at

NAME = "Mary Gallagher"
EARLIER = (
    ("American Legion Post 9", dt.date(2026, 1, 5)),
    ("Saint Anne Parish", dt.date(2026, 2, 9)),
    ("Knights of Columbus 4", dt.date(2026, 3, 2)),
    ("VFW Post 1", dt.date(2026, 3, 10)),
)
NAMED = (
    "American Legion Post 9 (listed January 5), Saint Anne Parish (listed February 9), "
    "Knights of Columbus 4 (listed March 2) and VFW Post 1 (listed March 10)"
)
WAY_OUT = "only a Director's written authorization can allow a 5th."


def _join(org: Any) -> Person:
    return services.add_member(
        organization=org,
        by=None,
        legal_name=NAME,
        date_of_birth=dt.date(1960, 4, 17),
        kind="member",
        since=dt.date(2015, 1, 1),
    ).person


def _add(org: Any, person: Person, on: dt.date) -> WorkerListEntry:
    return add_to_worker_list(
        organization=org,
        year=on.year,
        person=person,
        on=on,
        by=None,
        roles=["seller"],
        identification="B-7",
        compensated=False,
        compensation_note="",
        good_moral_character_attested=False,
        attested_by="",
    )


def _authorize(org: Any, person: Person, reference: str, start: dt.date, end: dt.date) -> Any:
    return DirectorAuthorization.objects.create(
        organization=org,
        person=person,
        kind="1c_four_orgs",
        reference_number=reference,
        subject=f"{NAME} may assist a fifth organization in 2026",
        valid_from=start,
        valid_to=end,
    )


@pytest.fixture
def on_four_lists(tenant: Any) -> Person:
    """Mary on four other organizations' 2026 lists, and a member of ``tenant``'s."""
    person = None
    for name, day in EARLIER:
        org = make_organization(name)
        person = _join(org)
        _add(org, person, day)
    assert person is not None and _join(tenant.organization) == person
    return person


def _assert_named(error: RuleViolation) -> None:
    assert error.citations == ["961 CMR 3.04(1)(c)"]
    (message,) = [v.message for v in error.violations]
    assert message == (
        f"{NAME} is already on the 2026 worker lists of {NAMED}; a person may assist at most 4 "
        f"licensed organizations in a calendar year, and {WAY_OUT}"
    )


# The list


def test_a_fifth_list_is_refused_naming_the_four_and_saves_nothing(tenant, on_four_lists):
    with pytest.raises(RuleViolation) as refused:
        _add(tenant.organization, on_four_lists, dt.date(2026, 3, 13))
    _assert_named(refused.value)
    assert not WorkerListEntry.objects.filter(worker_list__organization=tenant.organization)
    assert RefusedAction.objects.filter(action="worker_list.add").count() == 1


def test_the_directors_authorization_waives_the_fifth_list(tenant, on_four_lists):
    granted = _authorize(
        tenant.organization,
        on_four_lists,
        "DIR-2026-014",
        dt.date(2026, 1, 1),
        dt.date(2026, 12, 31),
    )
    entry = _add(tenant.organization, on_four_lists, dt.date(2026, 3, 13))
    assert list(entry.authorizations.all()) == [granted]


def test_the_list_page_shows_the_sentence_and_keeps_what_was_typed(client, tenant, on_four_lists):
    login(client, tenant.member_in_charge)
    response = client.post(
        reverse("worker_add", args=[tenant.organization.pk]),
        {
            "person": on_four_lists.pk,
            "roles": ["seller"],
            "identification": "B-7",
            "added_on": "2026-03-13",
            "compensation_note": "",
            "attested_by": "",
        },
    )
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    assert NAMED in page and WAY_OUT in page and "3.04(1)(c)" in page
    assert 'value="B-7"' in page
    assert not WorkerListEntry.objects.filter(worker_list__organization=tenant.organization)


# The sign-in, live and from paper


@pytest.fixture
def fifth_list_lapsed(tenant, on_four_lists) -> WorkerListEntry:
    """Mary put on ``tenant``'s list in March under an authorization that ran to June 30: on the
    night of December 4 nothing allows the fifth organization any longer."""
    _authorize(
        tenant.organization,
        on_four_lists,
        "DIR-2026-014",
        dt.date(2026, 1, 1),
        dt.date(2026, 6, 30),
    )
    return _add(tenant.organization, on_four_lists, dt.date(2026, 3, 13))


def _sign_in(occasion: Any, entry: WorkerListEntry, by: Any) -> WorkerPresence:
    return floor.sign_in_worker(
        occasion=occasion, entry=entry, role="seller", identification="B-7", by=by
    )


def test_a_live_sign_in_is_refused_naming_the_four(tenant, occasion, fifth_list_lapsed, clock):
    clock["now"] = at(18, 30)
    with pytest.raises(RuleViolation) as refused:
        _sign_in(occasion, fifth_list_lapsed, tenant.member_in_charge)
    _assert_named(refused.value)
    assert not WorkerPresence.objects.exists()
    assert RefusedAction.objects.filter(action="occasion.sign_in_worker").count() == 1


def test_a_live_sign_in_is_allowed_under_an_authorization_for_the_night(
    tenant, occasion, fifth_list_lapsed, clock
):
    clock["now"] = at(18, 30)
    _authorize(
        tenant.organization,
        fifth_list_lapsed.person,
        "DIR-2026-031",
        dt.date(2026, 7, 1),
        dt.date(2026, 12, 31),
    )
    on_floor(tenant.member_in_charge, occasion, at=at(18, 0))  # who signs others in is on
    presence = _sign_in(occasion, fifth_list_lapsed, tenant.member_in_charge)
    assert presence.is_present
    event = AuditEvent.objects.get(action="occasions.worker.signed_in")
    assert event.new_values["waived_by"] == ["DIR-2026-031"]


def _paper_sign_in(tenant: Any, occasion: Any) -> acts.Night:
    record = paper.begin(
        occasion=occasion,
        sheets="Sign-in sheet",
        reason="The laptop was not brought that night",
        by=tenant.bookkeeper,
    )
    night = acts.Night(occasion=occasion, by=tenant.bookkeeper, record=record)
    night.refresh()
    row = fmt.WorkerRow(name=NAME, role="seller", identification="B-7", signed_in=at(18, 30))
    acts.run(night, floor_acts.worker_acts((row,), sign_outs=False))
    return night


def test_a_sign_in_from_paper_is_refused_naming_the_four(
    tenant, occasion, fifth_list_lapsed, clock
):
    with pytest.raises(acts.NightRefused) as refused:
        _paper_sign_in(tenant, occasion)
    assert isinstance(refused.value.error, RuleViolation)
    _assert_named(refused.value.error)
    assert not WorkerPresence.objects.exists()


def test_a_sign_in_from_paper_is_allowed_under_an_authorization_for_the_night(
    tenant, occasion, fifth_list_lapsed, clock
):
    _authorize(
        tenant.organization,
        fifth_list_lapsed.person,
        "DIR-2026-031",
        dt.date(2026, 7, 1),
        dt.date(2026, 12, 31),
    )
    _paper_sign_in(tenant, occasion)
    presence = WorkerPresence.objects.get()
    assert presence.signed_in_at == at(18, 30)
    event = AuditEvent.objects.get(action="occasions.worker.signed_in")
    assert event.new_values["waived_by"] == ["DIR-2026-031"]
    assert event.provenance["entered"] == "after the fact"
