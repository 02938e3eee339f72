"""The year-end W-2G register of an organization, for its bookkeeper: every Form W-2G its
winners' payouts call for in a calendar year (one per winner, or one per person of a group's
Form 5754), and the totals of Form 1096 that transmits them (26 U.S.C. § 6041; IRS Instructions
for Forms W-2G and 5754). TINs stay sealed: the register shows their last four digits only."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from beano.csv_files import csv_response
from games.models import Payout
from organizations.access import org_view
from organizations.models import Organization
from reports.annual_views import _year
from reports.pages import access_of

ZERO = Decimal("0.00")


@dataclass(frozen=True)
class W2GLine:
    """One Form W-2G to be made out."""

    won_on: dt.date
    game: int
    payee: str
    address: str
    tin: str  # masked: the last four digits
    amount: Decimal
    backup_withholding: bool
    shared_from: str  # the winner whose Form 5754 lists this person, or ""


@dataclass(frozen=True)
class Register:
    year: int
    lines: list[W2GLine]

    @property
    def forms(self) -> int:
        """Form 1096, box 3: the number of forms transmitted."""
        return len(self.lines)

    @property
    def total(self) -> Decimal:
        """Form 1096, box 5: the total of the winnings reported (W-2G box 1)."""
        return sum((line.amount for line in self.lines), ZERO)

    @property
    def backup_withholding(self) -> int:
        return sum(1 for line in self.lines if line.backup_withholding)


def register(organization: Organization, year: int) -> Register:
    """Every W-2G of the year, by date won (two queries, whatever the number of payouts)."""
    payouts = (
        Payout.objects.filter(
            w2g_required=True,
            winner__claim__game__occasion__organization=organization,
            winner__claim__game__occasion__date__year=year,
        )
        .select_related("winner__claim__game__occasion")
        .prefetch_related("form5754_shares")
        .order_by("winner__claim__game__occasion__date", "paid_at", "pk")
    )
    lines: list[W2GLine] = []
    for p in payouts:
        game = p.winner.claim.game
        shares = list(p.form5754_shares.all())
        if not shares:
            lines.append(
                W2GLine(
                    game.occasion.date,
                    game.number,
                    p.w2g_legal_name,
                    p.w2g_address,
                    p.masked_tin,
                    p.amount,
                    p.backup_withholding,
                    "",
                )
            )
        for s in shares:
            lines.append(
                W2GLine(
                    game.occasion.date,
                    game.number,
                    s.legal_name,
                    s.address,
                    s.masked_tin,
                    s.amount,
                    False,
                    p.w2g_legal_name,
                )
            )
    return Register(year, lines)


@org_view()
def w2g_register(request: HttpRequest, year: int) -> HttpResponse:
    access = access_of(request)
    return render(
        request,
        "reports/w2g_register.html",
        {
            "org": access.organization,
            "access": access,
            "tab": "reports",
            "r": register(access.organization, _year(year)),
            "years": range(timezone.localdate().year, 2024, -1),
        },
    )


CSV_HEADER = [
    "Date won",
    "Game",
    "Type of wager",
    "Payee",
    "Address",
    "TIN (last four)",
    "Gross winnings",
    "Backup withholding",
    "Form 5754 of",
]


@org_view()
def w2g_register_csv(request: HttpRequest, year: int) -> HttpResponse:
    access = access_of(request)
    r = register(access.organization, _year(year))
    rows: list[list[object]] = [
        [
            line.won_on,
            line.game,
            "Bingo",
            line.payee,
            line.address,
            line.tin,
            line.amount,
            line.backup_withholding,
            line.shared_from,
        ]
        for line in r.lines
    ]
    rows += [[], ["Form 1096", "Forms W-2G", r.forms, "Total winnings", r.total]]
    return csv_response(f"w2g-register-{r.year}.csv", CSV_HEADER, rows)
