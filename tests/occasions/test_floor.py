"""The floor of an occasion through its services: the opening checklist, workers signing in and
out, the handover of charge, opening and closing (961 CMR 3.04(1), (3), (4), (7), (9))."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from beano import rules
from beano.rules.models import LawLimit, RefusedAction
from beano.rules.opening import CHECKLIST
from occasions import floor_services as floor
from occasions.models import Handover, Occasion, OpeningCheck, WorkerPresence
from organizations.equipment_services import update_equipment
from organizations.models import AuditEvent, Membership
from organizations.worker_services import record_conviction
from tests.fixtures.floor import on_floor
from tests.occasions.conftest import NIGHT, at, listed


def refused_codes(error: Any) -> dict[str, str]:
    return {v.code: v.citation for v in error.value.violations}


def opened(occasion: Any, by: Any, when: dt.datetime | None = None) -> Occasion:
    return floor.open_occasion(occasion=occasion, by=by, at=when or at(18, 45))


# The opening checklist


def test_the_member_in_charge_confirms_and_withdraws_items_and_each_is_audited(
    tenant, occasion, clock
):
    on_floor(tenant.member_in_charge, occasion)  # signed in first (3.04(1)(b))
    check = floor.confirm_check(occasion=occasion, item="no_minors", by=tenant.member_in_charge)
    assert check.confirmed_at == clock["now"] and check.confirmed_by == tenant.member_in_charge
    again = floor.confirm_check(occasion=occasion, item="no_minors", by=tenant.member_in_charge)
    assert again == check and OpeningCheck.objects.count() == 1
    floor.unconfirm_check(occasion=occasion, item="no_minors", by=tenant.member_in_charge)
    assert not OpeningCheck.objects.exists()
    actions = list(AuditEvent.objects.values_list("action", flat=True).order_by("sequence"))
    assert actions[-2:] == [
        "occasions.opening_check.confirmed",
        "occasions.opening_check.withdrawn",
    ]


def test_an_unknown_item_or_a_time_off_the_night_is_refused(tenant, occasion, clock):
    with pytest.raises(ValidationError, match="not an item"):
        floor.confirm_check(occasion=occasion, item="bar_closed", by=tenant.member_in_charge)
    with pytest.raises(ValidationError, match="future"):
        floor.confirm_check(
            occasion=occasion, item="notices", by=None, at=clock["now"] + dt.timedelta(minutes=1)
        )
    with pytest.raises(ValidationError, match="is not during the occasion"):
        floor.confirm_check(
            occasion=occasion, item="notices", by=None, at=at(20, 0, NIGHT.replace(day=3))
        )
    assert not OpeningCheck.objects.exists()


# Signing in


def test_a_listed_worker_signs_in_with_the_listed_id_and_it_is_audited(
    tenant, occasion, crew, clock
):
    on_floor(tenant.member_in_charge, occasion)  # Linda, signed in first (3.04(1)(b))
    presence = floor.sign_in_worker(
        occasion=occasion,
        entry=crew["mary"],
        role="floor_worker",
        identification="P-06",
        by=tenant.member_in_charge,
    )
    assert presence.is_present and presence.identification == "P-06"
    event = AuditEvent.objects.get(action="occasions.worker.signed_in")
    assert event.new_values["person_name"] == "Mary Gallagher"


def test_no_one_signs_in_twice_at_once(tenant, occasion, crew, clock):
    entry = crew["mary"]
    floor.sign_in_worker(
        occasion=occasion, entry=entry, role="seller", identification="P-06", by=None
    )
    with pytest.raises(ValidationError, match="already signed in"):
        floor.sign_in_worker(
            occasion=occasion, entry=entry, role="floor_worker", identification="P-06", by=None
        )
    assert WorkerPresence.objects.count() == 1


def _refused_sign_in(occasion, entry, by, role="seller", identification=None):
    before = WorkerPresence.objects.count()
    with pytest.raises(rules.RuleViolation) as refused:
        floor.sign_in_worker(
            occasion=occasion,
            entry=entry,
            role=role,
            identification=entry.identification if identification is None else identification,
            by=by,
        )
    assert WorkerPresence.objects.count() == before
    logged = RefusedAction.objects.get(action="occasion.sign_in_worker")
    assert logged.user == by
    return refused


def test_a_worker_without_identification_on_the_list_is_refused(tenant, occasion, clock):
    entry = listed(tenant, "Emily Souza", ["seller"], "")
    refused = _refused_sign_in(occasion, entry, tenant.member_in_charge, identification="E-9")
    assert refused_codes(refused) == {"W-1D-IDENTIFICATION": "961 CMR 3.04(1)(d)"}


def test_identification_other_than_the_listed_one_is_refused(tenant, occasion, crew, clock):
    refused = _refused_sign_in(occasion, crew["mary"], tenant.member_in_charge, identification="X")
    assert refused_codes(refused) == {"W-1D-ID-AS-LISTED": "961 CMR 3.04(1)(d)"}


def test_a_lapsed_member_is_refused(tenant, occasion, crew, clock):
    Membership.objects.filter(person=crew["mary"].person).update(
        kind="lapsed", until=dt.date(2026, 11, 30)
    )
    refused = _refused_sign_in(occasion, crew["mary"], tenant.member_in_charge)
    assert refused_codes(refused) == {"W-1B-ELIGIBLE": "961 CMR 3.04(1)(b)"}


def test_a_person_not_on_the_list_that_day_is_refused(tenant, occasion, crew, clock):
    entry = crew["mary"]
    entry.removed_on = dt.date(2026, 12, 4)
    entry.save()
    refused = _refused_sign_in(occasion, entry, tenant.member_in_charge)
    assert refused_codes(refused) == {"W-1B-ON-THE-LIST": "961 CMR 3.04(1)(b)"}


def test_a_role_the_list_does_not_give_is_refused(tenant, occasion, crew, clock):
    refused = _refused_sign_in(occasion, crew["mary"], tenant.member_in_charge, role="caller")
    assert refused_codes(refused) == {"W-1B-ON-THE-LIST": "961 CMR 3.04(1)(b)"}


def test_a_compensated_bookkeeper_signed_in_as_caller_is_refused_citing_1g(
    tenant, occasion, crew, clock
):
    """The hole: refused citing (1)(b), "on the list as bookkeeper, not as caller", as if the
    list were what keeps a paid bookkeeper to the books; (1)(g) is."""
    on_floor(tenant.member_in_charge, occasion)  # who signs others in is on the floor first
    refused = _refused_sign_in(occasion, crew["karen"], tenant.member_in_charge, role="caller")
    assert refused_codes(refused) == {"W-1G-SIGNS-IN-AS-BOOKKEEPER": "961 CMR 3.04(1)(g)"}
    assert "sign them in as bookkeeper, not as caller" in refused.value.messages[0]
    logged = RefusedAction.objects.get(action="occasion.sign_in_worker")
    assert logged.citations == "961 CMR 3.04(1)(g)"
    presence = floor.sign_in_worker(
        occasion=occasion,
        entry=crew["karen"],
        role="bookkeeper",
        identification="P-03",
        by=tenant.member_in_charge,
    )
    assert presence.role == "bookkeeper"


def test_the_directors_authorization_lets_a_compensated_bookkeeper_call(tenant, occasion, clock):
    """Given through the list: the entry names them caller too, under the authorization."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from organizations import services as org_services
    from organizations.models import DirectorAuthorization
    from organizations.worker_services import add_to_worker_list

    person = org_services.add_member(
        organization=tenant.organization,
        by=tenant.head,
        legal_name="Betty Books",
        date_of_birth=dt.date(1960, 1, 1),
        kind="member",
        since=dt.date(2015, 1, 1),
    ).person
    letter = DirectorAuthorization.objects.create(
        organization=tenant.organization,
        kind="1g_bookkeeper",
        reference_number="MSLC-1G-0031",
        subject="Betty Books may call",
        person=person,
        valid_from=dt.date(2026, 1, 1),
        valid_to=occasion.date - dt.timedelta(days=1),  # lapsed the day before the occasion
        document=SimpleUploadedFile("letter.pdf", b"%PDF-1.4 letter", "application/pdf"),
    )
    entry = add_to_worker_list(
        organization=tenant.organization,
        year=2026,
        person=person,
        roles=["bookkeeper", "caller"],
        identification="B-9",
        compensated=True,
        compensation_note="$50 an occasion",
        good_moral_character_attested=True,
        attested_by="Robert Medeiros",
        on=dt.date(2026, 1, 5),
        by=tenant.head,
    )
    on_floor(tenant.member_in_charge, occasion)  # who signs others in is on the floor first
    refused = _refused_sign_in(
        occasion, entry, tenant.member_in_charge, role="caller", identification="B-9"
    )
    assert refused_codes(refused) == {"W-1G-BOOKKEEPER-ONLY": "961 CMR 3.04(1)(g)"}
    letter.valid_to = None
    letter.save()
    presence = floor.sign_in_worker(
        occasion=occasion,
        entry=entry,
        role="caller",
        identification="B-9",
        by=tenant.member_in_charge,
    )
    assert presence.role == "caller"
    event = AuditEvent.objects.get(
        action="occasions.worker.signed_in", new_values__person_name="Betty Books"
    )
    assert event.new_values["waived_by"] == ["MSLC-1G-0031"]


def test_a_caller_convicted_within_five_years_is_refused(tenant, occasion, clock):
    entry = listed(
        tenant, "Thomas Ferreira", ["caller"], "P-04", attested=True, attested_by="Commander"
    )
    record_conviction(
        organization=tenant.organization,
        person=entry.person,
        convicted_on=dt.date(2025, 6, 1),
        traffic_only=False,
        description="Larceny",
        today=dt.date(2026, 6, 1),
        by=tenant.head,
    )
    refused = _refused_sign_in(occasion, entry, tenant.member_in_charge, role="caller")
    assert refused_codes(refused) == {"W-1I-CALLER": "961 CMR 3.04(1)(i)"}


# Opening


def test_the_occasion_opens_when_everything_is_in_order_and_it_is_audited(tenant, ready):
    occasion = opened(ready, tenant.member_in_charge)
    assert occasion.status == Occasion.Status.OPEN
    assert occasion.opened_at == at(18, 45) and occasion.opened_by == tenant.member_in_charge
    event = AuditEvent.objects.get(action="occasions.occasion.opened")
    assert event.new_values["in_charge"] == "Linda Souza"
    with pytest.raises(ValidationError, match="is open"):
        opened(occasion, tenant.member_in_charge)


def _refused_open(occasion, by, when=None):
    with pytest.raises(rules.RuleViolation) as refused:
        opened(occasion, by, when)
    occasion.refresh_from_db()
    assert occasion.status == Occasion.Status.SCHEDULED and occasion.opened_at is None
    assert RefusedAction.objects.filter(action="occasion.open").exists()
    return refused


def test_it_refuses_to_open_while_one_item_is_unconfirmed(tenant, ready):
    floor.unconfirm_check(occasion=ready, item="notices", by=tenant.member_in_charge)
    refused = _refused_open(ready, tenant.member_in_charge)
    assert refused_codes(refused) == {"O-3D-NOTICES-POSTED": "961 CMR 3.04(3)(d)"}


def test_an_item_confirmed_after_the_opening_time_does_not_count(tenant, ready):
    refused = _refused_open(ready, tenant.member_in_charge, at(18, 35))
    assert set(refused_codes(refused)) == {i.rule_code for i in CHECKLIST}


def test_it_refuses_to_open_outside_the_license_hours(tenant, ready):
    ready.license.start_time, ready.license.end_time = dt.time(18, 45), dt.time(22, 30)
    ready.license.save()
    refused = _refused_open(ready, tenant.member_in_charge, at(18, 44))
    assert refused_codes(refused) == {"H-7-LICENSE-HOURS": "961 CMR 3.04(7)"}
    assert opened(ready, tenant.member_in_charge, at(18, 45)).is_open


def test_a_law_figure_for_the_hours_in_force_applies(tenant, ready):
    LawLimit.objects.create(
        name="hours_start",
        value=Decimal("19"),
        unit="hour",
        effective_from=dt.date(2026, 11, 1),
        source="test",
        status="verified",
    )
    refused = _refused_open(ready, tenant.member_in_charge)
    assert refused_codes(refused) == {"H-7-LAW-HOURS": "961 CMR 3.04(7)"}


def test_it_refuses_to_open_without_a_price_list(tenant, ready):
    ready.price_items.all().delete()
    refused = _refused_open(ready, tenant.member_in_charge)
    assert refused_codes(refused) == {"O-4C-PRICES-POSTED": "961 CMR 3.04(4)(c)"}


def test_it_refuses_to_open_with_equipment_out_of_repair(tenant, ready, equipment_item):
    update_equipment(equipment=equipment_item, by=tenant.head, in_good_repair=False)
    refused = _refused_open(ready, tenant.member_in_charge)
    assert refused_codes(refused) == {"O-4B-EQUIPMENT-REPAIR": "961 CMR 3.04(4)(b)"}
    assert "Blower is not in good repair" in str(refused.value)


def test_it_refuses_to_open_without_the_member_in_charge_signed_in(tenant, ready):
    linda = WorkerPresence.objects.get(role="member_in_charge")
    floor.sign_out_worker(presence=linda, by=tenant.member_in_charge, at=at(18, 42))
    refused = _refused_open(ready, tenant.member_in_charge)
    assert refused_codes(refused) == {"O-1A-MIC-PRESENT": "961 CMR 3.04(1)(a)"}


def test_it_refuses_to_open_without_a_person_for_gross_receipts(tenant, ready, crew):
    crew["robert"].removed_on = dt.date(2026, 6, 1)
    crew["robert"].save()
    refused = _refused_open(ready, tenant.member_in_charge)
    assert refused_codes(refused) == {"W-1E-DESIGNATED": "961 CMR 3.04(1)(e)"}


def test_once_open_the_checklist_is_fixed(tenant, ready):
    opened(ready, tenant.member_in_charge)
    with pytest.raises(ValidationError, match="open: changing the checklist"):
        floor.unconfirm_check(occasion=ready, item="notices", by=tenant.member_in_charge)


# Signing out and the handover of charge


def _sign_in(occasion, entry, role, when):
    return floor.sign_in_worker(
        occasion=occasion,
        entry=entry,
        role=role,
        identification=entry.identification,
        by=None,
        at=when,
    )


def test_the_worker_in_charge_hands_over_before_leaving(tenant, ready, crew):
    opened(ready, tenant.member_in_charge)
    linda = WorkerPresence.objects.get(role="member_in_charge")
    with pytest.raises(rules.RuleViolation) as refused:
        floor.sign_out_worker(presence=linda, by=tenant.member_in_charge, at=at(20, 0))
    assert refused_codes(refused) == {"W-1A-CONTINUAL-PRESENCE": "961 CMR 3.04(1)(a)"}
    assert "no qualified designee" in str(refused.value)
    mary = _sign_in(ready, crew["mary"], "seller", at(19, 0))
    with pytest.raises(rules.RuleViolation) as refused:
        floor.hand_over(occasion=ready, to_presence=mary, reason="Sick", by=tenant.member_in_charge)
    assert refused_codes(refused) == {"W-1A-QUALIFIED-DESIGNEE": "961 CMR 3.04(1)(a)"}
    anne = _sign_in(ready, crew["anne"], "member_in_charge", at(19, 30))
    with pytest.raises(rules.RuleViolation, match="record the handover"):
        floor.sign_out_worker(presence=linda, by=tenant.member_in_charge, at=at(20, 0))
    handover = floor.hand_over(
        occasion=ready,
        to_presence=anne,
        reason="Called away",
        by=tenant.member_in_charge,
        at=at(20, 0),
    )
    assert (handover.from_presence, handover.to_presence) == (linda, anne)
    floor.sign_out_worker(presence=linda, by=tenant.member_in_charge, at=at(20, 5))
    linda.refresh_from_db()
    assert linda.signed_out_at == at(20, 5)
    with pytest.raises(rules.RuleViolation, match="Anne Sullivan is in charge"):
        floor.sign_out_worker(presence=anne, by=tenant.member_in_charge, at=at(20, 10))
    assert RefusedAction.objects.filter(action="occasion.sign_out_worker").count() == 3
    assert AuditEvent.objects.filter(action="occasions.handover.recorded").count() == 1


def test_a_handover_needs_a_reason_and_someone_else(tenant, ready, crew):
    opened(ready, tenant.member_in_charge)
    linda = WorkerPresence.objects.get(role="member_in_charge")
    anne = _sign_in(ready, crew["anne"], "member_in_charge", at(19, 30))
    with pytest.raises(ValidationError, match="Say why"):
        floor.hand_over(occasion=ready, to_presence=anne, reason="  ", by=None)
    with pytest.raises(ValidationError, match="already in charge"):
        floor.hand_over(occasion=ready, to_presence=linda, reason="x", by=None)
    assert not Handover.objects.exists()


def test_before_opening_the_member_in_charge_may_simply_leave(tenant, ready):
    linda = WorkerPresence.objects.get(role="member_in_charge")
    floor.sign_out_worker(presence=linda, by=None, at=at(18, 35))
    with pytest.raises(ValidationError, match="already signed out"):
        floor.sign_out_worker(presence=linda, by=None, at=at(18, 36))


# Closing


def test_close_signs_everyone_out_and_refuses_a_second_close(tenant, ready, crew):
    opened(ready, tenant.member_in_charge)
    _sign_in(ready, crew["mary"], "seller", at(19, 0))
    occasion = floor.close_occasion(occasion=ready, by=tenant.member_in_charge, at=at(22, 15))
    assert occasion.status == Occasion.Status.CLOSED and occasion.closed_at == at(22, 15)
    assert not WorkerPresence.objects.filter(signed_out_at__isnull=True).exists()
    assert set(WorkerPresence.objects.values_list("signed_out_at", flat=True)) == {at(22, 15)}
    closed = AuditEvent.objects.get(action="occasions.occasion.closed")
    assert sorted(closed.new_values["signed_out"]) == [
        "Karen Pacheco",
        "Linda Souza",
        "Mary Gallagher",
    ]
    with pytest.raises(ValidationError, match="closed: closing is not possible"):
        floor.close_occasion(occasion=ready, by=tenant.member_in_charge)
    with pytest.raises(ValidationError, match="closed"):
        _sign_in(ready, crew["anne"], "seller", at(22, 20))
    with pytest.raises(ValidationError, match="closed"):
        floor.confirm_check(occasion=ready, item="notices", by=None)


def test_a_night_past_midnight_closes_the_morning_after_but_not_later(tenant, ready, crew, clock):
    opened(ready, tenant.member_in_charge)
    clock["now"] = at(9, 0, NIGHT + dt.timedelta(days=2))
    late = {"by": tenant.member_in_charge, "late_reason": "Forgotten on the night"}
    with pytest.raises(ValidationError, match="is not during the occasion"):
        floor.close_occasion(occasion=ready, at=at(0, 30, NIGHT + dt.timedelta(days=2)), **late)
    after_midnight = at(0, 30, NIGHT + dt.timedelta(days=1))
    closed = floor.close_occasion(occasion=ready, at=after_midnight, **late)
    assert closed.status == Occasion.Status.CLOSED


def test_close_is_refused_when_a_paid_bookkeeper_was_never_present(tenant, occasion, crew, ready):
    WorkerPresence.objects.filter(role="bookkeeper").delete()
    opened(ready, tenant.member_in_charge)
    with pytest.raises(rules.RuleViolation) as refused:
        floor.close_occasion(occasion=ready, by=tenant.member_in_charge, at=at(22, 15))
    assert refused_codes(refused) == {"W-1G-PRESENT": "961 CMR 3.04(1)(g)"}
    ready.refresh_from_db()
    assert ready.status == Occasion.Status.OPEN
    assert WorkerPresence.objects.get().is_present
    assert RefusedAction.objects.get(action="occasion.close").citations == "961 CMR 3.04(1)(g)"


def test_only_an_open_occasion_closes(tenant, ready):
    with pytest.raises(ValidationError, match="scheduled: closing is not possible"):
        floor.close_occasion(occasion=ready, by=tenant.member_in_charge)
