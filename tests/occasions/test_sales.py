"""The door's services: sales at the posted prices, witnessed voids, counts by category, the
attendance and the halves (961 CMR 3.04(4)(c), (4)(d), (5)(b), (5)(c)). The pages are in
test_sales_views.py."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from beano import rules
from beano.demo.sales import seed_sales
from beano.rules.models import RefusedAction
from occasions import sales_selectors as selectors
from occasions import sales_services as services
from occasions import services as occasion_services
from occasions.models import AttendanceAnnouncement, Occasion, Sale, SaleLine
from organizations.models import AuditEvent
from tests.conftest import PASSWORD, make_user
from tests.fixtures.floor import on_floor
from tests.fixtures.night import open_for_tests


def _items(occasion):
    return {i.category: i for i in occasion.price_items.all()}


def _sell(occasion, by, *lines, receipt=None):
    items = _items(occasion)
    return services.record_sale(
        occasion=occasion,
        lines=[(items[category], quantity) for category, quantity in lines],
        admission_receipt=receipt,
        by=by,
    )


def _nothing_saved_since(before):
    return (Sale.objects.count(), SaleLine.objects.count(), AuditEvent.objects.count()) == before


def _state():
    return Sale.objects.count(), SaleLine.objects.count(), AuditEvent.objects.count()


def test_a_new_admission_with_extras_is_sold_at_the_posted_prices_and_audited(
    tenant, open_occasion
):
    sale = _sell(open_occasion, tenant.worker, ("admission", 1), ("extra_regular", 2), ("bonus", 1))
    assert sale.number == 1 and sale.sold_by == tenant.worker and sale.admission_sale is None
    lines = {line.category: line for line in sale.lines.all()}
    assert lines["admission"].unit_price == Decimal("2.00")
    assert lines["extra_regular"].amount == Decimal("2.00")
    assert sale.total == Decimal("5.00")
    event = AuditEvent.objects.filter(action="occasions.sale.recorded").get()
    assert event.new_values["number"] == 1 and event.new_values["total"] == "5.00"


def test_extras_are_sold_against_an_admission_receipt_and_numbers_follow_on(
    tenant, open_occasion, sale
):
    extras = _sell(open_occasion, tenant.worker, ("special", 2), receipt=sale.number)
    assert extras.number == 2 and extras.admission_sale == sale


def test_receipt_numbers_are_per_occasion(tenant, open_occasion, sale, monkeypatch):
    other = occasion_services.occasion_for_day(
        organization=tenant.organization, day=dt.date(2026, 12, 11), by=tenant.head
    )
    other = open_for_tests(other)
    night = timezone.make_aware(dt.datetime(2026, 12, 11, 19, 0))
    monkeypatch.setattr(timezone, "now", lambda: night)
    assert _sell(other, tenant.worker, ("admission", 1)).number == 1


def test_a_refused_sale_saves_nothing_and_the_refusal_is_logged(tenant, open_occasion):
    before = _state()
    with pytest.raises(rules.RuleViolation) as refused:
        _sell(open_occasion, tenant.worker, ("extra_regular", 3))
    assert refused.value.citations == ["961 CMR 3.04(5)(b)"]
    assert str(refused.value.messages[0]).startswith("961 CMR 3.04(5)(b): Extras are sold only")
    assert _nothing_saved_since(before)
    logged = RefusedAction.objects.get()
    assert logged.action == "sale.record" and logged.citations == "961 CMR 3.04(5)(b)"
    assert logged.organization_id == tenant.organization.pk


@pytest.mark.parametrize("status", ["scheduled", "closed"])
def test_nothing_is_sold_unless_the_occasion_is_open(tenant, open_occasion, status):
    Occasion.objects.filter(pk=open_occasion.pk).update(status=status)
    before = _state()
    with pytest.raises(rules.RuleViolation) as refused:
        _sell(open_occasion, tenant.worker, ("admission", 1))
    assert refused.value.citations == ["961 CMR 3.04(4)(c)"]
    assert _nothing_saved_since(before)


def test_it_refuses_a_price_other_than_the_posted_one(tenant, open_occasion):
    item = _items(open_occasion)["admission"]
    item.price = Decimal("1.50")  # what a stale or tampered screen would charge
    before = _state()
    with pytest.raises(rules.RuleViolation) as refused:
        services.record_sale(
            occasion=open_occasion, lines=[(item, 1)], admission_receipt=None, by=tenant.worker
        )
    assert [v.code for v in refused.value.violations] == ["C-4C-AT-POSTED-PRICE"]
    assert _nothing_saved_since(before)


def test_it_refuses_an_item_of_another_occasion_or_organization(
    tenant, other_tenant, open_occasion
):
    theirs = open_for_tests(
        occasion_services.occasion_for_day(
            organization=other_tenant.organization, day=dt.date(2026, 12, 4), by=None
        )
    )
    foreign = _items(theirs)["admission"]
    before = _state()
    for item in (foreign, foreign.pk, 987654):
        with pytest.raises(rules.RuleViolation) as refused:
            services.record_sale(
                occasion=open_occasion, lines=[(item, 1)], admission_receipt=None, by=tenant.worker
            )
        assert "C-4C-ON-POSTED-LIST" in [v.code for v in refused.value.violations]
        assert foreign.label not in str(refused.value.messages)
    assert _nothing_saved_since(before)


def test_it_refuses_two_admissions_and_an_admission_against_a_receipt(tenant, open_occasion, sale):
    before = _state()
    for lines, receipt in (([("admission", 2)], None), ([("admission", 1)], sale.number)):
        with pytest.raises(rules.RuleViolation) as refused:
            _sell(open_occasion, tenant.worker, *lines, receipt=receipt)
        assert refused.value.citations == ["961 CMR 3.04(5)(b)"]
    assert _nothing_saved_since(before)


def test_it_refuses_extras_against_a_voided_missing_or_extras_only_receipt(
    tenant, open_occasion, sale
):
    extras = _sell(open_occasion, tenant.worker, ("bonus", 1), receipt=sale.number)
    witness = {"witness": on_floor(tenant.head, open_occasion), "witness_secret": PASSWORD}
    services.void_sale(sale=extras, reason="wrong card", by=tenant.member_in_charge, **witness)
    services.void_sale(sale=sale, reason="player left", by=tenant.member_in_charge, **witness)
    before = _state()
    for receipt, message in ((sale.number, "was voided"), (99, "not an admission"), (2, "not")):
        with pytest.raises(rules.RuleViolation) as refused:
            _sell(open_occasion, tenant.worker, ("bonus", 1), receipt=receipt)
        assert refused.value.citations == ["961 CMR 3.04(5)(b)"]
        assert message in refused.value.messages[0]
    assert _nothing_saved_since(before)


@pytest.mark.parametrize("quantity", [0, -1, 100, 10**12, "2", 1.5, True])
def test_bad_quantities_are_refused_before_anything_is_judged(tenant, open_occasion, quantity):
    item = _items(open_occasion)["admission"]
    with pytest.raises(ValidationError):
        services.record_sale(
            occasion=open_occasion,
            lines=[(item, quantity)],
            admission_receipt=None,
            by=tenant.worker,
        )
    with pytest.raises(ValidationError, match="at least one item"):
        services.record_sale(
            occasion=open_occasion, lines=[], admission_receipt=None, by=tenant.worker
        )
    assert not Sale.objects.exists() and not RefusedAction.objects.exists()


def test_a_void_needs_a_reason_and_a_second_person_as_witness(tenant, other_tenant, sale):
    mic = tenant.member_in_charge
    occasion = sale.occasion
    on_floor(tenant.head, occasion)
    on_floor(tenant.bookkeeper, occasion)
    before = _state()
    for reason, witness in (
        ("", tenant.head),
        ("rang up wrong", None),
        ("rang up wrong", mic),  # the one voiding
        ("rang up wrong", tenant.worker),  # the seller
        ("rang up wrong", other_tenant.head),  # not of this organization
        ("rang up wrong", make_user("stranger")),
    ):
        with pytest.raises(rules.RuleViolation) as refused:
            services.void_sale(
                sale=sale, reason=reason, witness=witness, witness_secret=PASSWORD, by=mic
            )
        assert refused.value.citations == ["961 CMR 3.04(4)(d)"]
    assert _nothing_saved_since(before)
    assert RefusedAction.objects.filter(action="sale.void").count() == 6

    voided = services.void_sale(
        sale=sale,
        reason="  rang up   wrong ",
        witness=tenant.bookkeeper,
        witness_secret=PASSWORD,
        by=mic,
    )
    assert voided.is_voided and voided.void_reason == "rang up wrong"
    assert (voided.voided_by, voided.void_witness) == (mic, tenant.bookkeeper)
    event = AuditEvent.objects.filter(action="occasions.sale.voided").get()
    assert event.new_values["witness"] == tenant.bookkeeper.username
    with pytest.raises(rules.RuleViolation, match="already voided"):
        services.void_sale(
            sale=sale, reason="again", witness=tenant.bookkeeper, witness_secret=PASSWORD, by=mic
        )


def test_an_admission_is_voided_only_after_the_extras_sold_against_it(tenant, open_occasion, sale):
    on_floor(tenant.bookkeeper, open_occasion)  # who voids is on the floor (3.04(1)(b))
    extras = _sell(open_occasion, tenant.worker, ("special", 1), receipt=sale.number)
    witness = {"witness": on_floor(tenant.head, open_occasion), "witness_secret": PASSWORD}
    with pytest.raises(rules.RuleViolation) as refused:
        services.void_sale(sale=sale, reason="left", by=tenant.bookkeeper, **witness)
    assert refused.value.citations == ["961 CMR 3.04(5)(b)"]
    assert "receipt 2" in refused.value.messages[0]
    services.void_sale(sale=extras, reason="left", by=tenant.bookkeeper, **witness)
    assert services.void_sale(sale=sale, reason="left", by=tenant.bookkeeper, **witness).is_voided


def test_no_void_once_the_occasion_is_closed(tenant, open_occasion, sale):
    Occasion.objects.filter(pk=open_occasion.pk).update(status="closed")
    with pytest.raises(rules.RuleViolation) as refused:
        services.void_sale(sale=sale, reason="x", witness=tenant.head, by=tenant.member_in_charge)
    assert refused.value.citations == ["961 CMR 3.04(4)(d)"]
    assert not Sale.objects.get().is_voided


def test_counts_by_category_leave_out_voided_sales_in_one_query(
    tenant, open_occasion, sale, django_assert_num_queries
):
    _sell(open_occasion, tenant.worker, ("admission", 1), ("bonus", 2), ("winner_take_all", 1))
    _sell(open_occasion, tenant.worker, ("special", 3), receipt=sale.number)
    wrong = _sell(open_occasion, tenant.worker, ("admission", 1), ("special", 1))
    services.void_sale(
        sale=wrong,
        reason="wrong",
        witness=on_floor(tenant.head, open_occasion),
        witness_secret=PASSWORD,
        by=tenant.member_in_charge,
    )
    with django_assert_num_queries(1):
        counts = selectors.door_counts(open_occasion)
    by_category = {c.category: (c.quantity, c.amount) for c in counts.categories}
    assert by_category == {
        "admission": (2, Decimal("4.00")),
        "extra_regular": (2, Decimal("2.00")),
        "bonus": (2, Decimal("2.00")),
        "special": (3, Decimal("6.00")),
        "winner_take_all": (1, Decimal("1.00")),
        "package": (0, Decimal("0.00")),
    }
    assert counts.total == Decimal("15.00")
    assert (counts.receipts, counts.voided, counts.admissions) == (3, 1, 2)


def test_the_attendance_is_announced_once_accurately_and_only_while_open(
    tenant, open_occasion, sale
):
    mic = tenant.member_in_charge
    with pytest.raises(rules.RuleViolation) as refused:
        services.announce_attendance(occasion=open_occasion, players=2, by=mic)
    assert [v.code for v in refused.value.violations] == ["C-5C-ANNOUNCED-ACCURATELY"]
    with pytest.raises(ValidationError):
        services.announce_attendance(occasion=open_occasion, players=-1, by=mic)
    assert not AttendanceAnnouncement.objects.exists()

    services.announce_attendance(occasion=open_occasion, players=1, by=mic)
    check = selectors.attendance_check(open_occasion)
    assert (check.announcement.players, check.admissions_sold, check.difference) == (1, 1, 0)
    with pytest.raises(rules.RuleViolation) as refused:
        services.announce_attendance(occasion=open_occasion, players=1, by=mic)
    assert refused.value.citations == ["961 CMR 3.04(5)(c)"]
    assert AttendanceAnnouncement.objects.count() == 1
    assert AuditEvent.objects.filter(action="occasions.attendance.announced").count() == 1


def test_no_attendance_is_announced_before_the_occasion_opens(tenant, occasion, monkeypatch):
    night = timezone.make_aware(dt.datetime.combine(occasion.date, dt.time(19, 0)))
    monkeypatch.setattr(timezone, "now", lambda: night)
    with pytest.raises(rules.RuleViolation) as refused:
        services.announce_attendance(occasion=occasion, players=0, by=tenant.member_in_charge)
    assert [v.code for v in refused.value.violations] == ["C-5C-ANNOUNCED-ONCE"]


def test_play_starts_once_and_only_while_open(tenant, occasion, monkeypatch):
    night = timezone.make_aware(dt.datetime.combine(occasion.date, dt.time(19, 0)))
    monkeypatch.setattr(timezone, "now", lambda: night)
    mic = tenant.member_in_charge
    with pytest.raises(ValidationError, match="scheduled"):
        services.start_play(occasion=occasion, by=mic)
    open_for_tests(occasion)
    started = services.start_play(occasion=occasion, by=mic)
    assert started.play_started_at is not None
    with pytest.raises(ValidationError, match="Play started at"):
        services.start_play(occasion=occasion, by=mic)
    assert AuditEvent.objects.filter(action="occasions.occasion.play_started").count() == 1


def test_the_second_half_waits_for_the_attendance(tenant, open_occasion, sale):
    mic = tenant.member_in_charge
    with pytest.raises(ValidationError, match="Play has not started"):
        services.start_second_half(occasion=open_occasion, by=mic)
    services.start_play(occasion=open_occasion, by=mic)
    with pytest.raises(rules.RuleViolation) as refused:
        services.start_second_half(occasion=open_occasion, by=mic)
    assert refused.value.citations == ["961 CMR 3.04(5)(c)"]
    open_occasion.refresh_from_db()
    assert open_occasion.second_half_started_at is None
    assert RefusedAction.objects.get().action == "occasion.start_second_half"

    services.announce_attendance(occasion=open_occasion, players=1, by=mic)
    assert services.start_second_half(occasion=open_occasion, by=mic).second_half_started_at
    with pytest.raises(ValidationError, match="second half started"):
        services.start_second_half(occasion=open_occasion, by=mic)


def test_the_demo_door_sells_a_realistic_night_once(tenant, open_occasion):
    from beano.demo import DEMO_PASSWORD

    on_floor(tenant.head, open_occasion)  # the demo's witness, with the demo's password
    tenant.head.set_password(DEMO_PASSWORD)
    tenant.head.save()
    seed_sales(open_occasion, dt.date(2026, 12, 4))
    counts = selectors.door_counts(open_occasion)
    assert counts.admissions == 118
    assert counts.voided == 1
    assert counts.quantity("extra_regular") > 0 and counts.quantity("special") > 0
    assert selectors.attendance_check(open_occasion).announcement.players == 118
    open_occasion.refresh_from_db()
    assert open_occasion.play_started_at is not None
    voided = Sale.objects.get(voided_at__isnull=False)
    assert voided.void_witness not in (voided.sold_by, voided.voided_by)
    sales = Sale.objects.count()
    seed_sales(open_occasion, dt.date(2026, 12, 4))
    assert Sale.objects.count() == sales
    assert not RefusedAction.objects.exists()


def test_the_demo_door_needs_an_open_occasion(occasion):
    with pytest.raises(ValueError, match="open"):
        seed_sales(occasion, dt.date(2026, 12, 4))
    assert not Sale.objects.exists()
