"""The steps of the whole night in the browser (tests/browser/test_whole_night.py): the night's
figures, and what the member in charge, the bookkeeper and the inspector do on its pages."""

import datetime as dt
import re
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

from playwright.sync_api import expect

from beano.demo import DEMO_PASSWORD
from beano.rules.cards import letter
from games.models import Game, JackpotLedgerEntry, Payout, ProgressiveSeries, Winner
from occasions.models import Occasion, Sale
from occasions.sales_forms import REPEAT_MOMENT_MS
from reports.models import FinancialReport, RenderStatus

ZONE = ZoneInfo("America/New_York")
NIGHT = dt.date(2026, 12, 4)  # a Friday: Post 171's authorized day
BOOKS_DAY = NIGHT + dt.timedelta(days=1)
#: The door, by keyboard, one player after another (each with an admission): the keys pressed
#: from the first extra box, "Extra regular card", then Tab to "Bonus card", "Special game card".
DOOR_SALES = [("2", "Tab", "1"), (), ("Tab", "Tab", "1")]
DOOR_COUNTS = {"Admissions": 3, "Extra regular cards": 2, "Bonus cards": 1, "Special game cards": 1}
DOOR_TOTAL = Decimal("11.00")  # 3 × $2 + 2 × $1 + 1 × $1 + 1 × $2

#: Game 1, any single line for $50: the N column (with the free centre), completed by N44.
GAME1_CARD = {"N1": 31, "N2": 35, "N4": 40, "N5": 44}
GAME1_BALLS = [7, 31, 66, 35, 22, 40, 58, 44]
#: Game 2, four corners for $75: two cards completed by O70, the ball being called.
GAME2_BALLS = [4, 63, 12, 38, 70]
ANN = {"B1": 4, "O1": 63, "B5": 12, "O5": 70}
JOE = {"B1": 12, "O1": 70, "B5": 4, "O5": 63}
#: Game 3, the progressive jackpot: a coverall completed by O74, the 30th ball (within 52).
COVERALL = {
    **{f"B{r}": n for r, n in enumerate((3, 7, 9, 12, 14), start=1)},
    **{f"I{r}": n for r, n in enumerate((17, 21, 24, 26, 29), start=1)},
    **{"N1": 32, "N2": 36, "N4": 41, "N5": 45},
    **{f"G{r}": n for r, n in enumerate((47, 50, 53, 57, 60), start=1)},
    **{f"O{r}": n for r, n in enumerate((62, 66, 69, 71, 74), start=1)},
}
GAME3_BALLS = [
    61, 3, 17, 47, 33, 7, 21, 50, 1, 62, 9, 24, 36, 53, 66, 12, 26, 57, 16, 69,
    14, 29, 41, 60, 48, 71, 32, 45, 75, 74,
]  # fmt: skip
JACKPOT = Decimal("1600.00")  # $1,500 carried from last week, + $100


def at(day: dt.date, hour: int, minute: int) -> dt.datetime:
    return dt.datetime(day.year, day.month, day.day, hour, minute, tzinfo=ZONE)


def usd(amount: Decimal) -> str:
    return f"${amount:,.2f}"


def money(text: str) -> Decimal:
    """A dollar amount as a page shows it: "$1,600.00", "−$3.00", or "($1,714.55)" (a loss)."""
    value = Decimal(re.sub(r"[^\d.]", "", text))
    return -value if re.match(r"\s*[−(-]", text) else value


def amount_in(table, label: str):
    """The amount cell of the row of ``table`` whose label is ``label``."""
    return table.locator("tr").filter(has_text=label).locator("td").last


def door_keys(page, keys) -> None:
    """A door sale's keys ("Tab" pressed, the rest typed). An admission alone (no keys) once the
    player has paid: Enter at once would be the last sale's Enter again, which sells nothing."""
    for key in keys:
        page.keyboard.press(key) if key == "Tab" else page.keyboard.type(key)
    if not keys:
        page.wait_for_timeout(REPEAT_MOMENT_MS)


def settled(page) -> None:
    """Wait for htmx to make the content it swapped in its own: it processes the new forms as
    the swap settles, when the ``htmx-added`` class goes. A key or a click before that would
    post a form the plain way, a page load instead of a swap."""
    expect(page.locator(".htmx-added, .htmx-request")).to_have_count(0)


def log_in(page, url: str, username: str) -> None:
    page.goto(url)
    assert "/accounts/login/" in page.url
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()


# --- The program page -------------------------------------------------------------------------


def game_card(page, number: int):
    return page.locator(".game-card").filter(
        has=page.locator(f".game-no[aria-label='Game {number}']")
    )


def plan_game(page, number: int, half: str, kind: str, prize: tuple[str, str] | None) -> None:
    """Add game ``number`` to the program and, unless a series sets it, its prize."""
    done = page.locator("#program-panel").get_by_role("status")
    form = page.locator("#add-game")
    form.get_by_label("No.").fill(str(number))
    form.get_by_label("Half").select_option(label=half)
    form.get_by_label("Kind").select_option(label=kind)
    form.get_by_role("button", name="Add game").click()
    expect(done).to_have_text(f"Game {number} is in the program.")
    settled(page)
    if prize is None:
        return
    arrangement, amount = prize
    adding = game_card(page, number).locator("details.add-part")
    adding.get_by_text(f"Add a prize to game {number}").click()
    adding.get_by_label("Arrangement").select_option(label=arrangement)
    adding.get_by_label("Amount $").fill(amount)
    adding.get_by_role("button", name="Add the prize").click()
    expect(done).to_have_text(f"Game {number}'s prize is added.")
    settled(page)


def start_game(page, number: int) -> None:
    """On the program page: the prize announced, the 75 balls confirmed, the game begun."""
    done = page.locator("#program-panel").get_by_role("status")
    card = game_card(page, number)
    expect(card.get_by_text("Next", exact=True)).to_be_visible()
    card.get_by_role("button", name="Announce", exact=True).click()
    expect(done).to_have_text(f"Game {number}'s prize 1 is announced.")
    settled(page)
    card.get_by_role("button", name="75 balls present").click()
    expect(done).to_have_text(f"All 75 balls are in the receptacle for game {number}.")
    settled(page)
    card.get_by_role("button", name=f"Start game {number}").click()
    expect(done).to_have_text(f"Game {number} has begun.")
    expect(
        page.locator("#program-panel").get_by_text(f"Game {number} in play", exact=True)
    ).to_be_visible()
    expect(page.locator("#floor-bar")).to_contain_text(f"Game {number} in play")


def to_the_occasion(page) -> None:
    """The date in the occasion header, on every page of the night."""
    page.get_by_role("link", name="Friday, December 4, 2026").click()
    expect(page.get_by_role("heading", name=re.compile("^Door sales"))).to_be_visible()


def finish_game(page, number: int) -> None:
    to_the_occasion(page)
    page.get_by_role("link", name="Run the games").click()
    game_card(page, number).get_by_role("button", name=f"Finish game {number}").click()
    page.get_by_role("button", name=f"Yes, finish game {number}").click()
    expect(page.locator("#program-panel").get_by_role("status")).to_have_text(
        f"Game {number} is finished."
    )


# --- The caller's console and the claims page --------------------------------------------------


def call_balls(page, number: int, balls: list[int]) -> None:
    """From the occasion page to game ``number``'s console; each ball typed, then Enter."""
    to_the_occasion(page)
    page.get_by_role("link", name="Caller's console").click()
    page.get_by_role("link", name=re.compile(rf"Game {number}\s+in play")).click()
    page.wait_for_url(re.compile(r"/games/\d+/draw/$"))  # typing must reach the new page
    page.wait_for_load_state("load")
    ball = page.get_by_label("Ball called")
    message = page.locator(".draw-msg")
    for sequence, n in enumerate(balls, start=1):
        expect(ball).to_be_focused()
        page.keyboard.type(str(n))
        page.keyboard.press("Enter")
        expect(message).to_have_text(f"{letter(n)}{n} called (#{sequence}).")
        settled(page)  # the caller is quick: the next Enter must reach the new form
    expect(page.locator(".draw-last")).to_contain_text(f"{len(balls)} called")
    page.get_by_role("link", name="Claims and winners").click()
    expect(page.get_by_role("heading", name=f"Game {number} · claims and winners")).to_be_visible()


def record_claim(page, ball: int, player: str, table: str) -> None:
    claims = page.locator("[id^=claim-]")
    before = claims.count()
    form = page.locator("#claim")
    form.get_by_label("Ball the caller had drawn").fill(str(ball))
    form.get_by_text("Yes — calling had begun").click()
    form.get_by_label("Player").fill(player)
    form.get_by_label("Table").fill(table)
    form.get_by_role("button", name="Record the claim").click()
    expect(page.get_by_text("The claim is recorded.")).to_be_visible()
    expect(claims).to_have_count(before + 1)


def claim_of(page, player: str):
    return page.locator("[id^=claim-]").filter(has_text=player)


def verify_card(page, player: str, numbers: dict[str, int], witness: tuple[str, str]) -> None:
    claim = claim_of(page, player)
    claim.get_by_text("Verify the card").click()
    grid = claim.get_by_role("table", name="The winning card")
    for square, number in numbers.items():
        grid.get_by_label(square, exact=True).fill(str(number))
    claim.get_by_label("Witness 1", exact=True).fill(witness[0])
    claim.get_by_label("Witness 1 table").fill(witness[1])
    claim.get_by_role("button", name="Check the card").click()
    expect(page.get_by_text("The card verification is recorded.")).to_be_visible()
    expect(claim_of(page, player)).to_contain_text("Card valid")


def record_winners(page, won: list[str], split: str) -> None:
    winners = page.locator("[id^=winners_]")
    for label in won:
        winners.get_by_label(label).check()
    expect(winners.locator("[id^=split-]")).to_contain_text(split)
    winners.get_by_role("button", name="Record the winners").click()
    expect(page.locator("#confirm-summary")).to_contain_text("Nothing is paid yet")
    page.get_by_role("button", name="Yes, record the winners").click()
    expect(page.get_by_text("Winners recorded.")).to_be_visible()


def pay(page, player: str, share: Decimal, w2g: dict[str, str] | None = None) -> None:
    """Paid by the member in charge, verified by the head of the organization."""
    card = page.locator("[id^=payout_]").filter(has_text=player)
    expect(card.get_by_label("Amount paid")).to_have_value(f"{share:.2f}")
    card.get_by_label("Verified by").select_option(label="Robert Medeiros (post171-head)")
    card.get_by_label("The verifier types their own password or PIN").fill(DEMO_PASSWORD)
    for label, value in (w2g or {}).items():
        card.get_by_label(label, exact=True).fill(value)
    card.get_by_role("button", name="Record the payout").click()
    expect(page.get_by_text(f"{player} is paid.")).to_be_visible()
    expect(page.locator("[id^=payout_]").filter(has_text=player)).to_contain_text(
        re.compile(rf"Paid \{usd(share)} at .* by Linda Souza, verified by Robert Medeiros")
    )


# --- What a reader may do ---------------------------------------------------------------------

#: Forms and htmx posts on a page, but the logout button every page has.
WRITES = (
    "form[method=post]:not([action='/accounts/logout/']):not([action='/accounts/stay-signed-in/']),"
    " [hx-post], [hx-put], [hx-delete]"
)


def expect_read_only(page) -> None:
    expect(page.locator(WRITES)).to_have_count(0)


def section(page, heading: str):
    """The card of the occasion page (or of any page) under ``heading``."""
    return page.locator(".card").filter(
        has=page.get_by_role("heading", name=re.compile("^" + re.escape(heading)))
    )


def record_sales(page) -> tuple[dict[str, int], Decimal]:
    """The full record's sales by category: the quantity of each, and the total."""
    counts, total = {}, None
    for row in page.locator("#sales table tbody tr").all():
        label, quantity, amount = (c.strip() for c in row.locator("td").all_inner_texts())
        if label.startswith("Total"):
            total = money(amount)
        else:
            counts[label] = int(quantity)
    return counts, total


def record_payouts(page) -> dict[str, tuple[Decimal, Decimal]]:
    """The full record's winners: each one's share and the amount paid."""
    out = {}
    for line in page.locator(".record-claim div").filter(has_text="Winner").all_inner_texts():
        found = re.search(r"Winner (.+?): (\$[\d,.]+) cash · paid (\$[\d,.]+) at", line)
        assert found, line
        out[found[1]] = (money(found[2]), money(found[3]))
    return out


def door_counts_on(page) -> tuple[dict[str, int], Decimal]:
    """The occasion page's door card: the quantity sold of each category, and the total."""
    card = section(page, "Door sales")
    counts = {}
    for row in card.locator("li").all():
        label, value = row.locator("span").first.inner_text(), row.locator("strong").inner_text()
        if label == "Total":
            total = money(value)
        else:
            counts[label] = int(value)
    return counts, total


def what_the_pages_recorded(
    occasion: Occasion, series: ProgressiveSeries, paid: dict, pdf: Path, gross: Decimal
) -> None:
    """The rows the night's pages wrote: the sales, the games and their calls, the payouts, the
    jackpot's ledger line, the series won, and the report with the PDF the pages served."""
    occasion.refresh_from_db()
    assert occasion.status == Occasion.Status.CLOSED and occasion.sealed_at is not None
    sales = Sale.objects.filter(occasion=occasion, voided_at__isnull=True)
    assert sum(s.total for s in sales) == DOOR_TOTAL
    games = {g.number: g for g in Game.objects.filter(occasion=occasion)}
    assert {n: g.status for n, g in games.items()} == dict.fromkeys((1, 2, 3), "finished")
    assert [g.calls.filter(voided_at__isnull=True).count() for g in games.values()] == [
        len(GAME1_BALLS),
        len(GAME2_BALLS),
        len(GAME3_BALLS),
    ]
    winners = Winner.objects.filter(claim__game__occasion=occasion)
    payouts = {p.winner.player_name: p.amount for p in Payout.objects.filter(winner__in=winners)}
    assert payouts == paid
    entry = JackpotLedgerEntry.objects.get(occasion=occasion)
    assert (entry.paid, entry.carried_out, entry.paid_kind) == (JACKPOT, 0, "jackpot")
    series.refresh_from_db()
    assert series.status == ProgressiveSeries.Status.WON and series.won_on == NIGHT
    report = FinancialReport.objects.get(occasion=occasion)
    assert report.render_status == RenderStatus.READY
    assert Path(report.pdf.path).read_bytes() == pdf.read_bytes()
    assert report.figures["receipts"]["gross_receipts"] == f"{gross:.2f}"
