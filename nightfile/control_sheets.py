"""The night's blank control sheets: what a hall fills in by hand when the laptop or the network
fails, printed before the night from its program and price list, and typed into the application
later by a bookkeeper (``nightfile``).

The sheets come in the order the night happens and the order they are entered, each under the
name the entry pages and the audit trail give it (``PaperRecord.sheets``, the provenance of each
act), so a typed act can be traced back to the sheet it was read from. Every page carries the
organization, its license, the occasion's date, the sheet's name and the paragraph of
961 CMR 3.04 the sheet serves, because pages get separated on a busy night (the door table keeps
one, the caller another) and an inspector may ask for any one of them."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone

from beano.rules.cards import COLUMNS, column_range
from beano.rules.limits import LimitName, limits_in_force
from beano.rules.money import usd
from beano.rules.opening import CHECKLIST
from games.models import Game, PrizePart, ProgressiveGame
from games.program_selectors import program
from occasions.floor_selectors import list_entries
from occasions.models import Occasion, PriceListItem


@dataclass(frozen=True)
class Sheet:
    """A sheet's name, as the entry pages and the audit trail name it, and the paragraph of
    961 CMR 3.04 it keeps the record of."""

    name: str
    citation: str


#: The sheets in the order they are filled in on the night and typed in afterwards: the price
#: list is posted before the opening; the attendance comes at the intermission, between the
#: halves' game sheets.
SIGN_IN = Sheet("Sign-in sheet", "961 CMR 3.04(1)(a)–(d)")
OPENING = Sheet("Opening checklist", "961 CMR 3.04(1), (3), (4), (7), (9)")
PRICE_LIST = Sheet("Price list", "961 CMR 3.04(4)(c), (5)(a)")
DOOR_TALLY = Sheet("Door tally", "961 CMR 3.04(4)(d)2")
ATTENDANCE = Sheet("Attendance", "961 CMR 3.04(5)(c)")
PAYOUTS = Sheet("Payouts", "961 CMR 3.04(6)(f), (8)(b); Form W-2G")
EXTRAS = Sheet("Extras", "961 CMR 3.04(3)(e), (8)(d)–(f), (9)(a), (9)(e)")
CLOSE = Sheet("Close", "961 CMR 3.04(1)(a), (4)(d)2, (7)")
GAME_CITATION = "961 CMR 3.04(4)(b), (6)(a)–(f)"


def game_sheet(number: int | None) -> Sheet:
    """A game's sheet: "Game 4 sheet"; with no program yet, one blank game sheet to copy."""
    return Sheet(f"Game {number} sheet" if number else "Game sheet", GAME_CITATION)


#: Rows to write in by hand. The sign-in sheet fills its page when the worker list is short
#: and keeps a few blank rows below a long one (someone added to the list after printing, a
#: name misspelt); the close keeps a few below the names too.
SIGN_IN_ROWS = 18
SIGN_IN_BLANK = 5
CLOSE_BLANK = 4
#: With no price list posted yet: rows to write the posted prices in.
PRICE_BLANK = 8
#: A game with no prize on its program yet: rows to write its prizes in.
BLANK_PRIZES = 2
CLAIM_ROWS = 4
#: The door is counted at least at the intermission and at the close.
DOOR_COUNTS = 2
VOID_ROWS = 4
#: Winners on one call share a prize: rows for the shares below the program's prizes.
PAYOUT_BLANK = 5
#: Blank rows of the extras, by part, and of the attendance's count of players by table (pairs
#: of columns, table and players).
ROWS = {
    "door_prizes": 4,
    "refunds": 3,
    "charity_sales": 3,
    "redemptions": 3,
    "other_sales": 3,
    "police": 2,
    "raffles": 2,
    "raffle_sales": 4,
    "table_columns": 6,
    "table_rows": 8,
}
#: The categories of the door when no price list is posted yet (packages need the Director's
#: permission, 3.04(5)(a), and are written in if there are any).
DOOR_CATEGORIES = [c for c in PriceListItem.Category if c != PriceListItem.Category.PACKAGE]


@dataclass(frozen=True)
class WorkerRow:
    name: str
    roles: str  # the roles the worker list gives the person, so the night's role is one of them


@dataclass(frozen=True)
class PriceRow:
    label: str
    category: str
    price: Decimal | None


@dataclass(frozen=True)
class PrizeRow:
    order: int
    arrangement: str
    amount: str  # as announced: "$75.00", "+$75.00 with a bonus card", a merchandise prize…
    short: str  # the same where room is short (the payouts)
    note: str = ""  # what the program says of a cash prize (a jackpot's consolation)


@dataclass(frozen=True)
class GameRow:
    sheet: Sheet
    number: int | None
    half: str
    kind: str
    prizes: list[PrizeRow]
    blank_prizes: range  # rows to write the prizes in, when the program has none yet
    jackpot: str  # the progressive series' rules in brief, or ""
    second_half: bool = False  # printed after the attendance sheet, as it is typed in


def _prize(game: Game, part: PrizePart) -> PrizeRow:
    name = part.arrangement.name
    if game.kind == Game.Kind.WINNER_TAKE_ALL:
        # The prize is the game's receipts less 10 %, known only once its cards are sold.
        return PrizeRow(
            part.order, name, "That game's receipts less 10 % (3.04(8)(a)3): $", "receipts − 10 %"
        )
    amount = f"{usd(part.amount)}"
    if part.kind == PrizePart.Kind.MERCHANDISE:
        how = "donated, fair market value" if part.donated else "at cost"
        what = part.description or "Merchandise"
        return PrizeRow(part.order, name, f"{what} ({how} {amount})", f"{what} ({amount})")
    if part.is_bonus:
        amount = f"+{amount} with a bonus card"
    return PrizeRow(part.order, name, amount, amount, part.description)


def _jackpot(progressive: ProgressiveGame | None) -> str:
    if progressive is None:
        return ""
    series = progressive.series
    return (
        f"Progressive jackpot “{series.name}”: {series.arrangement.name.lower()} within "
        f"{progressive.calls_allowed} numbers (3.04(6)(h))."
    )


def _games(occasion: Occasion) -> list[GameRow]:
    progressive = {
        p.game_id: p
        for p in ProgressiveGame.objects.filter(occasion=occasion).select_related(
            "series__arrangement"
        )
    }
    rows = []
    for game in program(occasion):
        prizes = [_prize(game, part) for part in game.parts.all()]
        rows.append(
            GameRow(
                sheet=game_sheet(game.number),
                number=game.number,
                half=game.get_half_display(),
                kind=game.get_kind_display(),
                prizes=prizes,
                blank_prizes=range(0 if prizes else BLANK_PRIZES),
                jackpot=_jackpot(progressive.get(game.pk)),
                second_half=game.half == 2,
            )
        )
    if not rows:
        rows.append(GameRow(game_sheet(None), None, "", "", [], range(BLANK_PRIZES), ""))
    return rows


def _prices(occasion: Occasion) -> list[PriceRow]:
    return [
        PriceRow(item.label, item.get_category_display(), item.price)
        for item in occasion.price_items.order_by("pk")
    ]


def _door_rows(prices: list[PriceRow]) -> list[PriceRow]:
    """One row per posted price; with none posted, one per category, its price written in."""
    return prices or [PriceRow("", c.label, None) for c in DOOR_CATEGORIES]


def _payout_rows(games: list[GameRow]) -> list[tuple[str, str]]:
    """(game, prize) for each prize of the program, in the order the games are played."""
    return [
        (str(g.number), f"{p.arrangement}: {p.short}")
        for g in games
        if g.number is not None
        for p in g.prizes
    ]


def context(occasion: Occasion) -> dict[str, Any]:
    """Everything the sheets print: the night's facts and the rows to write in."""
    org = occasion.organization
    workers = [
        WorkerRow(e.person.legal_name, ", ".join(e.role_labels)) for e in list_entries(occasion)
    ]
    prices = _prices(occasion)
    games = _games(occasion)
    limits = limits_in_force(occasion.date)
    return {
        "occasion": occasion,
        "org": org,
        "license_number": occasion.license.number,
        "printed_on": timezone.localdate(),
        "sheets": {
            "sign_in": SIGN_IN,
            "opening": OPENING,
            "prices": PRICE_LIST,
            "door": DOOR_TALLY,
            "attendance": ATTENDANCE,
            "payouts": PAYOUTS,
            "extras": EXTRAS,
            "close": CLOSE,
        },
        "workers": workers,
        "sign_in_blank": range(max(SIGN_IN_BLANK, SIGN_IN_ROWS - len(workers))),
        "close_blank": range(CLOSE_BLANK),
        "checklist": CHECKLIST,
        "prices": prices,
        "price_blank": range(0 if prices else PRICE_BLANK),
        "door_rows": _door_rows(prices),
        "door_counts": range(1, DOOR_COUNTS + 1),
        "void_rows": range(VOID_ROWS),
        "games": games,
        "first_half": [g for g in games if not g.second_half],
        "second_half": [g for g in games if g.second_half],
        "claim_rows": range(CLAIM_ROWS),
        "balls": [(column, column_range(column)) for column in COLUMNS],
        "calls": [range(row * 15 + 1, row * 15 + 16) for row in range(5)],
        "payout_rows": _payout_rows(games),
        "payout_blank": range(PAYOUT_BLANK),
        "rows": {part: range(count) for part, count in ROWS.items()},
        "w2g_threshold": limits.get(LimitName.W2G_THRESHOLD),
        "door_prize_limit": limits.get(LimitName.MAX_DOOR_PRIZES_OCCASION),
    }


def render_html(occasion: Occasion) -> str:
    """The sheets as HTML for WeasyPrint; the same HTML makes the same PDF (see ``_pdf``)."""
    return render_to_string("nightfile/sheets/control_sheets.html", context(occasion))


def render_pdf(occasion: Occasion) -> bytes:
    """The sheets as a PDF for US Letter."""
    return _pdf(render_html(occasion))


@lru_cache(maxsize=8)
def _pdf(html: str) -> bytes:
    """A plain PDF, not PDF/A: a blank form to print, not a record to keep (the record is what
    is typed in from it). Tagged as the filed report is (``reports.pdf``): a screen reader reads
    its headings and the columns of each sheet in order. The same sheets make the same PDF, and
    a night's sheets are printed again and again (at the door, for the caller, after a paper
    jam) while WeasyPrint takes seconds of the server's time for each: the last few are kept,
    by their HTML, in memory."""
    from weasyprint import HTML

    from reports.static_fetcher import StaticFilesOnly, static_base_url

    return HTML(string=html, base_url=static_base_url(), url_fetcher=StaticFilesOnly()).write_pdf(
        pdf_tags=True
    )
