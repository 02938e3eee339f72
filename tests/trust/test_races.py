"""Races: the same act from several places at the same moment, on real threads with their own
database connections, released together by a barrier. Each holds on SQLite (whose write lock
makes writers take turns) and on PostgreSQL (where they really run at once and only the
services' row locks and unique constraints keep them apart)."""

from __future__ import annotations

import datetime as dt
import threading
from collections import Counter
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from beano.rules import RuleViolation
from beano.rules.draw import CALL
from beano.rules.models import RefusedAction
from games import draw_services, payout_services
from games.models import BallCall, Payout
from occasions import sales_services
from occasions.models import FloorSubmission, Occasion, Sale
from occasions.sales_selectors import door_counts
from organizations.audit import verify_chain
from organizations.models import AuditChain, AuditEvent
from reports import services as report_services
from reports.models import FinancialReport
from tests.conftest import PASSWORD, login
from tests.fixtures.floor import on_floor
from tests.trust.conftest import errors, together

pytestmark = pytest.mark.django_db(transaction=True)

DRAW_CITATION = "961 CMR 3.04(6)(a)"

#: Sellers at the door at once, and how many sales each rings up back to back.
SELLERS = 6
SALES_EACH = 20
#: Consoles entering the same balls at the same moment, and the balls they enter.
CONSOLES = 3
BALLS = (42, 7, 68, 19, 33, 51, 2, 75, 60, 24, 38, 11, 46, 70, 29, 57, 3, 64, 16, 49)
#: Submissions of one payout, and of one filing, at the same moment.
SUBMISSIONS = 4


def events(action: str) -> int:
    return AuditEvent.objects.filter(action=action).count()


def chain_intact(organization: Any) -> None:
    """Every event of the organization follows the one before it, none missing or forked."""
    check = verify_chain(organization)
    assert check.ok, str(check)
    assert check.intact_through == AuditChain.objects.get(organization=organization).length


# (a) Two (or six) sellers at the door


def order(seller: int, n: int) -> dict[str, int]:
    """What seller ``seller`` rings up on their ``n``-th sale: known, so the sum is known."""
    wanted = {"admission": 1, "extra_regular": (seller + n) % 3 + 1}
    if n % 4 == 0:
        wanted["bonus"] = 2
    return wanted


def test_sellers_at_the_same_moment_lose_no_count(open_occasion, tenant):
    items = {i.category: i for i in open_occasion.price_items.all()}
    users = [tenant.worker, tenant.member_in_charge, tenant.head, tenant.bookkeeper]
    for user in users:
        on_floor(user, open_occasion)  # every seller is a worker of the night (3.04(1)(b))

    def sell(seller: int) -> list[int]:
        numbers = []
        for n in range(SALES_EACH):
            sale = sales_services.record_sale(
                occasion=open_occasion,
                lines=[(items[c], q) for c, q in order(seller, n).items()],
                admission_receipt=None,
                by=users[seller % len(users)],
            )
            numbers.append(sale.number)
        return numbers

    outcomes = together(*(lambda s=s: sell(s) for s in range(SELLERS)))

    assert errors(outcomes) == []
    total_sales = SELLERS * SALES_EACH
    numbers = [n for o in outcomes for n in o.value]
    assert sorted(numbers) == list(range(1, total_sales + 1))  # unique, none skipped
    stored = sorted(Sale.objects.filter(occasion=open_occasion).values_list("number", flat=True))
    assert stored == list(range(1, total_sales + 1))
    expected: Counter[str] = Counter()
    for seller in range(SELLERS):
        for n in range(SALES_EACH):
            expected.update(order(seller, n))
    counts = door_counts(open_occasion)
    for category, quantity in expected.items():
        assert counts.quantity(category) == quantity, category
    assert counts.receipts == total_sales and counts.voided == 0
    assert counts.total == sum((items[c].price * q for c, q in expected.items()), Decimal("0.00"))
    assert events("occasions.sale.recorded") == total_sales
    chain_intact(tenant.organization)


def test_one_sale_voided_from_two_places_at_once_is_voided_once(sale, tenant):
    on_floor(tenant.head, sale.occasion)
    on_floor(tenant.member_in_charge, sale.occasion)

    def void(by: Any, witness: Any) -> Sale:
        return sales_services.void_sale(
            sale=sale, reason="Rung twice", witness=witness, witness_secret=PASSWORD, by=by
        )

    outcomes = together(
        lambda: void(tenant.member_in_charge, tenant.head),
        lambda: void(tenant.head, tenant.member_in_charge),
    )

    assert sorted(o.ok for o in outcomes) == [False, True]
    refused = next(o.error for o in outcomes if not o.ok)
    assert isinstance(refused, RuleViolation), refused
    assert "already voided" in str(refused)
    assert events("occasions.sale.voided") == 1
    assert door_counts(sale.occasion).voided == 1
    chain_intact(tenant.organization)


# (b) The same ball from several consoles


def test_the_same_ball_from_several_consoles_at_once_is_recorded_once(draw_game, tenant):
    consoles = [tenant.worker, tenant.member_in_charge, tenant.head][:CONSOLES]
    for user in consoles:
        on_floor(user, draw_game.occasion)  # every caller is a worker of the night
    each_ball = threading.Barrier(CONSOLES)  # every console enters ball k at the same moment

    def console(user: Any) -> list[str]:
        seen = []
        for number in BALLS:
            each_ball.wait(timeout=30)
            try:
                draw_services.record_ball_call(game=draw_game, number=number, by=user)
                seen.append("recorded")
            except RuleViolation as refused:
                seen.append(refused.citations[0])
        return seen

    outcomes = together(*(lambda u=u: console(u) for u in consoles))

    assert errors(outcomes) == []
    for index, number in enumerate(BALLS):
        got = sorted(o.value[index] for o in outcomes)
        assert got == [DRAW_CITATION] * (CONSOLES - 1) + ["recorded"], (number, got)
    calls = BallCall.objects.filter(game=draw_game).order_by("sequence")
    assert [c.number for c in calls] == list(BALLS)  # one row each, in the order called
    assert [c.sequence for c in calls] == list(range(1, len(BALLS) + 1))
    assert events("games.ball.called") == len(BALLS)
    assert RefusedAction.objects.filter(action=CALL).count() == len(BALLS) * (CONSOLES - 1)
    chain_intact(tenant.organization)


# (c) A payout submitted twice


def test_a_payout_submitted_several_times_at_once_is_paid_once(winner, tenant):
    on_floor(tenant.head, winner.claim.game.occasion)

    def pay() -> Payout:
        return payout_services.record_payout(
            winner=winner,
            by=tenant.member_in_charge,
            verified_by=tenant.head,
            verifier_secret=PASSWORD,
        )

    outcomes = together(*(pay for _ in range(SUBMISSIONS)))

    assert errors(outcomes) == []
    assert {o.value.pk for o in outcomes} == {Payout.objects.get().pk}  # the same payout
    assert Payout.objects.get().amount == Decimal("75.00")
    assert events("games.payout.recorded") == 1
    chain_intact(tenant.organization)


def logged_in(user: Any) -> Client:
    client = Client()
    login(client, user)
    return client


def test_a_double_click_on_pay_pays_once(winner, tenant):
    game = winner.claim.game
    url = reverse(
        "payout_record",
        kwargs={
            "org_id": tenant.organization.pk,
            "pk": game.occasion_id,
            "game_pk": game.pk,
            "winner_pk": winner.pk,
        },
    )
    on_floor(tenant.head, game.occasion)
    data = {
        f"payout{winner.pk}-verified_by": tenant.head.pk,
        f"payout{winner.pk}-verifier_secret": PASSWORD,
        f"payout{winner.pk}-amount": "75.00",
    }
    clients = [logged_in(tenant.member_in_charge) for _ in range(2)]

    outcomes = together(*(lambda c=c: c.post(url, data) for c in clients))

    assert errors(outcomes) == []
    assert [o.value.status_code for o in outcomes] == [302, 302]  # both see "is paid"
    assert Payout.objects.count() == 1
    assert events("games.payout.recorded") == 1


# (d) Two bookkeepers filing the same report


@pytest.fixture
def enqueued(monkeypatch: Any) -> list[int]:
    """The report versions sent to the worker, in place of the broker."""
    sent: list[int] = []
    lock = threading.Lock()

    def enqueue(document: Any) -> bool:
        with lock:
            sent.append(document.pk)
        return True

    monkeypatch.setattr("reports.tasks.enqueue_render", enqueue)
    return sent


def test_two_bookkeepers_filing_at_once_yield_one_filing(counted, tenant, enqueued):
    filers = [tenant.bookkeeper, tenant.head] * (SUBMISSIONS // 2)

    outcomes = together(
        *(lambda u=u: report_services.file_report(occasion=counted, by=u) for u in filers)
    )

    assert errors(outcomes) == []
    report = FinancialReport.objects.get()  # one filing
    assert report.version == 1
    assert {o.value.pk for o in outcomes} == {report.pk}
    assert events("reports.report.filed") == 1 and events("reports.report.amended") == 0
    occasion = Occasion.objects.get(pk=counted.pk)
    assert occasion.sealed_at == report.filed_at  # sealed once, by the filing that won
    assert enqueued == [report.pk]  # one PDF asked for
    # The chain head printed on the report is the filing's own event.
    filed = AuditEvent.objects.get(action="reports.report.filed")
    assert (report.chain_length, report.chain_head_hash) == (filed.sequence, filed.hash)
    chain_intact(tenant.organization)


def test_a_double_click_on_file_files_once(counted, tenant, enqueued):
    url = reverse("report_file", args=[tenant.organization.pk, counted.pk])
    clients = [logged_in(tenant.bookkeeper), logged_in(tenant.head)]

    outcomes = together(*(lambda c=c: c.post(url, {"confirmed": "yes"}) for c in clients))

    assert errors(outcomes) == []
    assert [o.value.status_code for o in outcomes] == [302, 302]
    assert FinancialReport.objects.count() == 1
    assert events("reports.report.filed") == 1
    assert len(enqueued) == 1


# A busy hall: different acts at once, all on one organization's audit chain


def test_a_busy_hall_keeps_one_unbroken_audit_chain(winner, draw_game, tenant):
    occasion = draw_game.occasion
    items = {i.category: i for i in occasion.price_items.all()}
    on_floor(tenant.head, winner.claim.game.occasion)  # the payout's verifier, and a seller
    on_floor(tenant.bookkeeper, occasion)  # a seller too
    before = AuditChain.objects.get(organization=tenant.organization).length

    def sell(by: Any) -> int:
        for _ in range(10):
            sales_services.record_sale(
                occasion=occasion,
                lines=[(items["admission"], 1), (items["special"], 2)],
                admission_receipt=None,
                by=by,
            )
        return 10

    def call() -> int:
        for number in BALLS[:12]:
            draw_services.record_ball_call(game=draw_game, number=number, by=tenant.worker)
        return 12

    def pay() -> int:
        payout_services.record_payout(
            winner=winner,
            by=tenant.member_in_charge,
            verified_by=tenant.head,
            verifier_secret=PASSWORD,
        )
        return 1

    outcomes = together(
        lambda: sell(tenant.worker),
        lambda: sell(tenant.head),
        lambda: sell(tenant.bookkeeper),
        call,
        pay,
        pay,
    )

    assert errors(outcomes) == []
    assert Sale.objects.filter(occasion=occasion).count() == 30
    assert BallCall.objects.filter(game=draw_game).count() == 12
    assert Payout.objects.count() == 1
    after = AuditChain.objects.get(organization=tenant.organization).length
    assert after - before == 30 + 12 + 1  # one event per act, no more, none lost
    chain_intact(tenant.organization)


# Check-then-create: two submissions of a new record at the same moment


def test_opening_the_same_day_twice_at_once_makes_one_occasion(tenant):
    from occasions import services as occasion_services

    day = dt.date(2026, 12, 11)  # a Friday the license authorizes, with no occasion yet

    def open_day(by: Any) -> Occasion:
        return occasion_services.occasion_for_day(organization=tenant.organization, day=day, by=by)

    outcomes = together(lambda: open_day(tenant.member_in_charge), lambda: open_day(tenant.head))

    assert errors(outcomes) == []
    occasion = Occasion.objects.get(organization=tenant.organization, date=day)
    assert {o.value.pk for o in outcomes} == {occasion.pk}
    assert events("occasions.occasion.scheduled") == 1
    chain_intact(tenant.organization)


def test_one_person_added_by_two_organizations_at_once_is_one_person(tenant, other_tenant):
    from organizations import services as organization_services
    from organizations.models import Membership, Person

    def add(t: Any) -> Any:
        return organization_services.add_member(
            organization=t.organization,
            by=t.head,
            legal_name="Joseph Rebello",
            date_of_birth=dt.date(1955, 6, 30),
            kind="member",
            since=dt.date(2015, 1, 1),
        )

    outcomes = together(lambda: add(tenant), lambda: add(other_tenant))

    assert errors(outcomes) == []
    person = Person.objects.get(legal_name="Joseph Rebello")  # one person, counted once
    assert Membership.objects.filter(person=person).count() == 2


def test_one_raffle_permit_recorded_twice_at_once_is_recorded_once(tenant):
    from occasions.models import RafflePermit
    from occasions.raffle_services import record_raffle_permit

    def record() -> Any:
        return record_raffle_permit(
            organization=tenant.organization,
            permit_number="FH-R-2026-0042",
            issued_by="Town Clerk",
            town="Fairhaven",
            valid_from=dt.date(2026, 1, 1),
            valid_to=dt.date(2026, 12, 31),
            by=tenant.head,
        )

    outcomes = together(record, record)

    assert sorted(o.ok for o in outcomes) == [False, True], errors(outcomes)
    refused = next(o.error for o in outcomes if not o.ok)
    assert isinstance(refused, ValidationError), refused  # "already recorded", not a crash
    assert RafflePermit.objects.count() == 1


def test_one_member_added_twice_at_once_is_one_membership(tenant):
    from organizations import services as organization_services
    from organizations.models import Membership

    def add() -> Any:
        return organization_services.add_member(
            organization=tenant.organization,
            by=tenant.head,
            legal_name="Joseph Rebello",
            date_of_birth=dt.date(1955, 6, 30),
            kind="member",
            since=dt.date(2015, 1, 1),
        )

    outcomes = together(add, add)

    assert sorted(o.ok for o in outcomes) == [False, True], errors(outcomes)
    refused = next(o.error for o in outcomes if not o.ok)
    assert isinstance(refused, ValidationError) and "already on" in str(refused), refused
    assert Membership.objects.count() == 1
    assert events("organizations.membership.added") == 1


# (i) One entry from the floor sent several times with its key (a retry racing the first)


ENTRY_KEY = "9a6f0d3e-1c2b-4e5f-8a7d-6b5c4d3e2f1a"


def test_one_sale_sent_several_times_with_its_key_at_once_is_sold_once(open_occasion, tenant):
    items = {i.category: i for i in open_occasion.price_items.all()}

    def sell() -> Sale:
        return sales_services.record_sale(
            occasion=open_occasion,
            lines=[(items["admission"], 1), (items["bonus"], 3)],
            admission_receipt=None,
            by=tenant.worker,
            request_key=ENTRY_KEY,
        )

    outcomes = together(*(sell for _ in range(SUBMISSIONS)))

    assert errors(outcomes) == []
    assert {o.value.pk for o in outcomes} == {Sale.objects.get().pk}  # the same receipt
    assert events("occasions.sale.recorded") == 1
    assert FloorSubmission.objects.get().target_id == Sale.objects.get().pk
    chain_intact(tenant.organization)


def test_one_ball_sent_several_times_with_its_key_at_once_is_called_once(draw_game, tenant):
    """Without a lock on the key, the second would be judged as a second call of the ball and
    refused (PostgreSQL): its answer must be the first one's."""

    def call() -> BallCall:
        return draw_services.record_ball_call(
            game=draw_game, number=42, by=tenant.worker, request_key=ENTRY_KEY
        )

    outcomes = together(*(call for _ in range(SUBMISSIONS)))

    assert errors(outcomes) == []
    assert {o.value.pk for o in outcomes} == {BallCall.objects.get().pk}
    assert events("games.ball.called") == 1 and not RefusedAction.objects.exists()
    chain_intact(tenant.organization)


def test_a_doubled_door_request_with_one_key_sells_once_and_answers_alike(open_occasion, tenant):
    url = reverse("sale_record", args=[tenant.organization.pk, open_occasion.pk])
    items = {i.category: i for i in open_occasion.price_items.all()}
    data = {f"qty_{items['admission'].pk}": "1", "request_key": ENTRY_KEY}
    clients = [logged_in(tenant.worker) for _ in range(2)]

    outcomes = together(*(lambda c=c: c.post(url, data, HTTP_HX_REQUEST="true") for c in clients))

    assert errors(outcomes) == []
    answers = [o.value.content.decode() for o in outcomes]
    assert all("Receipt 1 recorded — $2.00: 1 × Admission." in a for a in answers), answers
    assert Sale.objects.count() == 1
