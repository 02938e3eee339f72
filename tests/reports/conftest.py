"""A known closed occasion, recorded row by row so every figure of its report can be worked out
by hand (see ``KNOWN``), and helpers to move the clock."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.utils import timezone

from games.models import Arrangement, Claim, Game, Payout, PrizePart, Winner
from occasions.models import (
    CharityRedemption,
    CharityTicketSale,
    DoorPrize,
    Occasion,
    PoliceDetail,
    PriceListItem,
    Refund,
    Sale,
    SaleLine,
)
from tests.conftest import PASSWORD
from tests.fixtures.floor import on_floor
from tests.fixtures.night import open_for_tests
from tests.occasions.conftest import clock, ready  # noqa: F401  (nights closed late)
from tests.pdf_once import rendered_once

NIGHT = dt.date(2026, 12, 4)

#: The known occasion's figures, worked out by hand:
#: door 100×$2 + 50×$1 + 40×$1 + 60×$2 + 30×$1 = $440 (a voided sale of 5 admissions left out);
#: charity tickets 20 × $1 = $20; refunds $4 → gross receipts $456.00; tax 5 % = $22.80.
#: Prizes: cash $50, merchandise at cost $30, donated $80 (not an expense) → expensed $80.
#: Door prizes $25 bought + $40 donated → $25 expensed. Charity prizes redeemed $10.
#: Expenses: police 4 h × $50 = $200 (+ any entered in a test).
#: Net before entered expenses = 456 − 80 − 25 − 10 − 200 − 22.80 = $118.20.
#: Cash expected with a $200 bank = 200 + 440 + 20 − 4 − 50 (cash paid) − 10 = $596.00.
KNOWN = {
    "door_total": Decimal("440.00"),
    "gross": Decimal("456.00"),
    "tax": Decimal("22.80"),
    "prizes_total": Decimal("160.00"),
    "prizes_expensed": Decimal("80.00"),
    "net_before_entered_expenses": Decimal("118.20"),
    "cash_expected_with_200_bank": Decimal("596.00"),
}
COUNTS = {
    "admission": 100,
    "extra_regular": 50,
    "bonus": 40,
    "special": 60,
    "winner_take_all": 30,
    "charity_tickets": 20,
}


def at(hour: int, minute: int = 0, day: dt.date = NIGHT) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour, minute)))


@pytest.fixture
def report_clock(monkeypatch: Any) -> Any:
    """Set the time the services and pages see: ``clock(dt.datetime)``."""

    def set_to(moment: dt.datetime) -> dt.datetime:
        monkeypatch.setattr(timezone, "now", lambda: moment)
        return moment

    set_to(at(23, 30))
    return set_to


def _sell(
    occasion: Occasion, by: Any, number: int, lines: list[tuple[str, int]], voided: Any = None
):
    sale = Sale.objects.create(
        occasion=occasion,
        sold_by=by,
        voided_by=by if voided else None,
        void_witness=voided,
        number=number,
        sold_at=at(18, 30),
        voided_at=at(18, 40) if voided else None,
        void_reason="Rung twice" if voided else "",
    )
    for category, quantity in lines:
        item = PriceListItem.objects.get(occasion=occasion, category=category)
        SaleLine.objects.create(
            sale=sale,
            price_item=item,
            category=category,
            quantity=quantity,
            unit_price=item.price,
            amount=item.price * quantity,
        )
    return sale


def _win(game: Game, part: PrizePart, name: str, share: str, kind: str, paid: bool, by: Any):
    claim = Claim.objects.create(
        game=game, part=part, player_name=name, table="4", claimed_at=at(19, 30)
    )
    winner = Winner.objects.create(
        claim=claim, player_name=name, share=Decimal(share), kind=kind, recorded_at=at(19, 31)
    )
    if paid:
        Payout.objects.create(
            winner=winner,
            amount=Decimal(share),
            paid_by=by,
            verified_by=game.occasion.organization.user_roles.exclude(user=by).first().user,
            paid_at=at(19, 35),
        )
    return winner


@pytest.fixture
def known_occasion(tenant: Any, occasion: Occasion, report_clock: Any) -> Occasion:
    """The occasion of Dec 4, 2026, played and closed, with the figures of ``KNOWN``."""
    occasion = open_for_tests(occasion)
    seller = tenant.member_in_charge
    _sell(occasion, seller, 1, [("admission", 100), ("extra_regular", 50), ("bonus", 40)])
    _sell(occasion, seller, 2, [("special", 60), ("winner_take_all", 30)])
    _sell(occasion, seller, 3, [("admission", 5)], voided=tenant.head)
    charity = CharityTicketSale.objects.create(
        occasion=occasion,
        game_name="Lucky 7s",
        serial_number="CG-1",
        quantity=20,
        price=Decimal("1.00"),
        sold_at=at(19),
    )
    CharityRedemption.objects.create(
        organization=tenant.organization,
        serial_number="CG-1",
        sale=charity,
        occasion=occasion,
        prize_amount=Decimal("10.00"),
        redeemed_on=NIGHT,
    )
    Refund.objects.create(
        occasion=occasion, amount=Decimal("4.00"), player_reference="R1", refunded_at=at(19)
    )
    line = Arrangement.objects.get(code="single_line")
    mic = tenant.member_in_charge
    g1 = Game.objects.create(occasion=occasion, number=1, half=1, kind="regular", status="finished")
    p1 = PrizePart.objects.create(game=g1, order=1, arrangement=line, amount=Decimal("50.00"))
    _win(g1, p1, "Ann Cash", "50.00", Winner.Kind.CASH, True, mic)
    g2 = Game.objects.create(occasion=occasion, number=2, half=1, kind="regular", status="finished")
    p2 = PrizePart.objects.create(
        game=g2,
        order=1,
        arrangement=line,
        kind="merchandise",
        amount=Decimal("30.00"),
        description="Toaster",
    )
    _win(g2, p2, "Bob Goods", "30.00", Winner.Kind.MERCHANDISE, False, mic)
    g3 = Game.objects.create(occasion=occasion, number=3, half=2, kind="special", status="finished")
    p3 = PrizePart.objects.create(
        game=g3,
        order=1,
        arrangement=line,
        kind="merchandise",
        amount=Decimal("80.00"),
        description="Donated quilt",
        donated=True,
    )
    _win(g3, p3, "Cy Gift", "80.00", Winner.Kind.MERCHANDISE, False, mic)
    DoorPrize.objects.create(
        occasion=occasion, description="Fruit basket", value=Decimal("25.00"), awarded_at=at(20)
    )
    DoorPrize.objects.create(
        occasion=occasion,
        description="Quilt",
        value=Decimal("40.00"),
        donated=True,
        awarded_at=at(20),
    )
    PoliceDetail.objects.create(
        occasion=occasion,
        officer_name="Officer Dana",
        department_town="Fairhaven",
        hours=Decimal("4.00"),
        hourly_rate=Decimal("50.00"),
        amount=Decimal("200.00"),
    )
    Occasion.objects.filter(pk=occasion.pk).update(
        status=Occasion.Status.CLOSED, closed_at=at(22, 30)
    )
    occasion.refresh_from_db()
    return occasion


@pytest.fixture
def counted(known_occasion: Occasion, tenant: Any) -> Occasion:
    """The known occasion with its close-out: every count as recorded, the cash right."""
    from reports import services

    services.save_closeout(
        occasion=known_occasion,
        opening_bank=Decimal("200.00"),
        cash_counted=KNOWN["cash_expected_with_200_bank"],
        counts=COUNTS,
        explanation="",
        cash_verified_by=on_floor(tenant.head, known_occasion),  # counted by two
        cash_verifier_secret=PASSWORD,
        by=tenant.bookkeeper,
    )
    return known_occasion


@pytest.fixture
def filed_report(counted: Occasion, tenant: Any) -> Any:
    from reports import services

    return services.file_report(occasion=counted, by=tenant.bookkeeper)


@pytest.fixture
def report_kwargs(filed_report: Any) -> dict[str, int]:
    return {"report_id": filed_report.pk}


@pytest.fixture
def closed_occasion(known_occasion: Occasion) -> Occasion:
    return known_occasion


@pytest.fixture
def expense(counted: Occasion, tenant: Any) -> Any:
    from reports import services
    from reports.models import ExpenseKind

    return services.record_expense(
        occasion=counted,
        kind=ExpenseKind.objects.get(code="hall_rent"),
        payee="Knights Hall Corp.",
        amount=Decimal("100.00"),
        by=tenant.bookkeeper,
    )


@pytest.fixture
def expense_kwargs(expense: Any) -> dict[str, int]:
    return {"pk": expense.occasion_id, "expense_id": expense.pk}


@pytest.fixture
def rendered_report_kwargs(filed_report: Any, media_root: Any) -> dict[str, int]:
    """``filed_report`` made by the worker's task, its PDF saved and recorded. The tests that
    take it need a PDF in place (its download, its check, the Commission's zip, the view
    matrix), not what it shows: WeasyPrint runs for the first of them in a process, and the
    others are given that PDF (tests/pdf_once.py)."""
    from reports import pdf
    from reports.tasks import render

    with rendered_once(pdf, "render_pdf"):
        render("financial", filed_report.pk)
    return {"report_id": filed_report.pk}


@pytest.fixture
def year_kwargs(tenant: Any) -> dict[str, int]:
    return {"year": 2025}


@pytest.fixture
def disbursement(tenant: Any) -> Any:
    from reports import services

    return services.record_disbursement(
        organization=tenant.organization,
        paid_on=dt.date(2025, 6, 1),
        payee="Fairhaven Food Pantry",
        purpose="Food for families in need",
        amount=Decimal("1500.00"),
        reference="Check 1041",
        by=tenant.bookkeeper,
    )


@pytest.fixture
def disbursement_kwargs(disbursement: Any) -> dict[str, int]:
    return {"disbursement_id": disbursement.pk}


@pytest.fixture
def annual_report(tenant: Any, disbursement: Any) -> Any:
    from reports import services

    return services.file_annual_report(organization=tenant.organization, year=2025, by=tenant.head)


@pytest.fixture
def annual_kwargs(annual_report: Any) -> dict[str, int]:
    return {"report_id": annual_report.pk}


@pytest.fixture
def rendered_annual_kwargs(annual_report: Any, media_root: Any) -> dict[str, int]:
    from reports.tasks import render

    render("annual", annual_report.pk)
    return {"report_id": annual_report.pk}
