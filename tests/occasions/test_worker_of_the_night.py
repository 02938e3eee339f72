"""Every act of a night's floor is done by a worker of that night (961 CMR 3.04(1)(b)): the
person of the login acting is signed in on that night's floor at the act's moment, or the act is
refused by the rules service, nothing saved, the refusal logged. The ``open_occasion`` fixture
puts the member in charge and the worker on the floor; the head and the bookkeeper are not."""

from __future__ import annotations

import datetime as dt

import pytest

from beano import rules
from beano.rules.models import RefusedAction
from occasions import sales_services
from occasions.models import Sale, WorkerPresence
from tests.fixtures.floor import on_floor

REFUSAL = {"W-1B-WORKER-OF-THE-NIGHT": "961 CMR 3.04(1)(b)"}


def sell(occasion, by, **kwargs):
    admission = occasion.price_items.get(category="admission")
    return sales_services.record_sale(
        occasion=occasion, lines=[(admission, 1)], admission_receipt=None, by=by, **kwargs
    )


def codes(error):
    return {v.code: v.citation for v in error.value.violations}


def test_a_login_not_signed_in_on_the_floor_sells_nothing(tenant, open_occasion):
    """The hole: logins on no list of the hall and not signed in sold admissions there, and the
    door's recent sales named them as sellers."""
    with pytest.raises(rules.RuleViolation) as refused:
        sell(open_occasion, tenant.head)
    assert codes(refused) == REFUSAL
    assert refused.value.messages == [
        "961 CMR 3.04(1)(b): The login post-one-head is not signed in on this night's floor at "
        "11:00 PM; selling is only for a worker on the night's list who is signed in."
    ]
    assert not Sale.objects.exists()
    logged = RefusedAction.objects.get()
    assert (logged.action, logged.citations, logged.user) == (
        "occasion.floor_act",
        "961 CMR 3.04(1)(b)",
        tenant.head,
    )
    assert logged.facts["facts"]["doing"] == "selling"


def test_once_signed_in_on_the_floor_the_same_login_sells(tenant, open_occasion):
    on_floor(tenant.head, open_occasion)
    sale = sell(open_occasion, tenant.head)
    assert sale.sold_by == tenant.head


def test_the_refusal_names_the_person_of_the_login(tenant, open_occasion):
    """A login that names a person of the list who is not signed in that night: the refusal
    says who, by name and login."""
    on_floor(tenant.head, open_occasion)
    WorkerPresence.objects.filter(entry__person__legal_name="Post One Head Floor").delete()
    with pytest.raises(rules.RuleViolation) as refused:
        sell(open_occasion, tenant.head)
    assert "Post One Head Floor (post-one-head) is not signed in" in refused.value.messages[0]


def test_a_worker_who_signed_out_acts_no_more(tenant, open_occasion):
    sell(open_occasion, tenant.worker)
    WorkerPresence.objects.filter(
        occasion=open_occasion, entry__person__legal_name="Post One Worker Floor"
    ).update(signed_out_at=open_occasion.opened_at + dt.timedelta(hours=1))
    with pytest.raises(rules.RuleViolation) as refused:
        sell(open_occasion, tenant.worker)
    assert codes(refused) == REFUSAL
    assert Sale.objects.count() == 1


def test_a_worker_of_another_night_is_not_a_worker_of_this_one(tenant, open_occasion):
    from occasions import services as occasion_services
    from tests.fixtures.night import open_for_tests

    earlier = occasion_services.occasion_for_day(
        organization=tenant.organization, day=dt.date(2026, 11, 27), by=None
    )
    on_floor(tenant.head, open_for_tests(earlier))
    with pytest.raises(rules.RuleViolation) as refused:
        sell(open_occasion, tenant.head)
    assert codes(refused) == REFUSAL


def test_a_commission_user_never_acts_on_the_floor(open_occasion, inspector):
    with pytest.raises(rules.RuleViolation) as refused:
        sell(open_occasion, inspector)
    assert codes(refused) == REFUSAL


def test_the_system_records_a_past_night_only_while_a_worker_was_on_the_floor(open_occasion):
    """``by=None`` records a night for the demo or an import: no person is named, so a worker of
    the night must have been on the floor at the moment stated."""
    at_six = open_occasion.opened_at + dt.timedelta(hours=1)
    sale = sell(open_occasion, None, at=at_six)  # the fixture's workers are on since 5 PM
    assert sale.sold_by is None
    WorkerPresence.objects.filter(occasion=open_occasion).update(
        signed_out_at=open_occasion.opened_at + dt.timedelta(minutes=30)
    )
    with pytest.raises(rules.RuleViolation) as refused:
        sell(open_occasion, None, at=at_six)
    assert codes(refused) == REFUSAL
    assert (
        "No worker of the night was signed in on the floor at 6:00 PM"
        in (refused.value.messages[0])
    )


# Every act of the floor, by a login not signed in: refused by the same rule, nothing saved


def _void(tenant, sale):
    from tests.conftest import PASSWORD

    sales_services.void_sale(
        sale=sale,
        reason="rang up wrong",
        witness=tenant.member_in_charge,  # on the floor, confirming with their password
        witness_secret=PASSWORD,
        by=tenant.head,
    )


def _ready_for_the_second_half(tenant, occasion):
    mic = tenant.member_in_charge
    sales_services.start_play(occasion=occasion, by=mic)
    sales_services.announce_attendance(occasion=occasion, players=1, by=mic)


def _door_prize(tenant, occasion):
    from decimal import Decimal

    from occasions import extras_services

    extras_services.award_door_prize(
        occasion=occasion,
        description="Fruit basket",
        value=Decimal("20.00"),
        donated=False,
        winner_name="Mary Costa",
        by=tenant.head,
    )


def _varying_prizes(tenant, occasion):
    from occasions import extras_services

    extras_services.announce_varying_prizes(
        occasion=occasion,
        persons_entitled_to_play=64,
        prizes_announced="Regular games $50 with 64 players or more",
        applies_to_all_games=True,
        refunds_offered=True,
        by=tenant.head,
    )


def _sign_out(tenant, occasion):
    from occasions import floor_services

    worker = WorkerPresence.objects.get(entry__person__legal_name="Post One Worker Floor")
    floor_services.sign_out_worker(presence=worker, by=tenant.head)


def _close(tenant, occasion):
    from occasions import floor_services

    floor_services.close_occasion(occasion=occasion, by=tenant.head)


OPEN_NIGHT_ACTS = {
    "voiding a sale": lambda t, o, s: _void(t, s),
    "announcing the attendance": lambda t, o, s: sales_services.announce_attendance(
        occasion=o, players=1, by=t.head
    ),
    "starting play": lambda t, o, s: sales_services.start_play(occasion=o, by=t.head),
    "starting the second half": lambda t, o, s: sales_services.start_second_half(
        occasion=o, by=t.head
    ),
    "awarding a door prize": lambda t, o, s: _door_prize(t, o),
    "announcing varying prizes": lambda t, o, s: _varying_prizes(t, o),
    "signing a worker out": lambda t, o, s: _sign_out(t, o),
    "closing the occasion": lambda t, o, s: _close(t, o),
}


@pytest.mark.parametrize("doing", list(OPEN_NIGHT_ACTS))
def test_every_act_of_the_open_night_is_refused_to_a_login_not_on_its_floor(
    tenant, open_occasion, sale, doing
):
    from organizations.models import AuditEvent

    if doing == "starting the second half":
        _ready_for_the_second_half(tenant, open_occasion)
    before = AuditEvent.objects.count()
    with pytest.raises(rules.RuleViolation) as refused:
        OPEN_NIGHT_ACTS[doing](tenant, open_occasion, sale)
    assert codes(refused) == REFUSAL
    assert (
        f"is not signed in on this night's floor at 11:00 PM; {doing} is only"
        in (refused.value.messages[0])
    )
    assert RefusedAction.objects.get().facts["facts"]["doing"] == doing
    assert AuditEvent.objects.count() == before  # nothing of the act is saved


def test_before_the_opening_the_member_in_charge_signs_in_first(tenant, occasion, crew):
    """The checklist and the sign-in of others are the floor's too: the member in charge (the
    login naming Linda Souza) signs themselves in, then confirms and signs the others in."""
    from occasions import floor_services

    mic = tenant.member_in_charge

    def sign_in(key, by):
        entry = crew[key]
        return floor_services.sign_in_worker(
            occasion=occasion,
            entry=entry,
            role=entry.roles[0],
            identification=entry.identification,
            by=by,
            at=occasion_at(18, 30),
        )

    def occasion_at(hour, minute):
        from django.utils import timezone

        return timezone.make_aware(dt.datetime.combine(occasion.date, dt.time(hour, minute)))

    with pytest.raises(rules.RuleViolation) as refused:
        floor_services.confirm_check(
            occasion=occasion, item="notices", by=mic, at=occasion_at(18, 20)
        )
    assert codes(refused) == REFUSAL
    with pytest.raises(rules.RuleViolation) as refused:
        sign_in("mary", mic)
    assert "signing a worker in is only" in refused.value.messages[0]
    sign_in("linda", mic)  # herself
    sign_in("mary", mic)
    floor_services.confirm_check(occasion=occasion, item="notices", by=mic, at=occasion_at(18, 40))
    with pytest.raises(rules.RuleViolation):
        floor_services.confirm_check(
            occasion=occasion, item="no_minors", by=tenant.head, at=occasion_at(18, 40)
        )
    assert not WorkerPresence.objects.filter(entry__person__legal_name="Post One Head Floor")


def test_the_opening_page_says_first_to_sign_in_on_the_floor(client, tenant, occasion):
    """Before refusing, the checklist and the opening's summary say what is missing: the login
    at the laptop is not signed in on the floor yet; once signed in, that is gone."""
    from django.urls import reverse

    from tests.conftest import login

    login(client, tenant.member_in_charge)
    url = reverse("opening_checklist", args=[occasion.organization_id, occasion.pk])
    says = "is not signed in on this night&#x27;s floor"
    assert says in client.get(url).content.decode()
    summary = client.post(reverse("occasion_open", args=[occasion.organization_id, occasion.pk]))
    assert says in summary.content.decode()
    on_floor(tenant.member_in_charge, occasion)
    assert says not in client.get(url).content.decode()


def test_the_close_summary_says_first_to_sign_in_and_offers_no_yes(client, tenant, open_occasion):
    """The close is an act of the floor too: a login not signed in on it is told so on the
    summary, with the Workers page, and is offered no "Yes" (the close would be refused)."""
    from django.urls import reverse

    from tests.conftest import login

    login(client, tenant.head)
    url = reverse("occasion_close", args=[open_occasion.organization_id, open_occasion.pk])
    page = client.post(url).content.decode()
    assert "is not signed in on this night&#x27;s floor" in page
    assert "Yes, close the occasion" not in page
    on_floor(tenant.head, open_occasion)
    page = client.post(url).content.decode()
    assert "is not signed in on this night&#x27;s floor" not in page
