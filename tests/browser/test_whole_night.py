"""The whole night at American Legion Post 171, end to end in the browser, on the demo data.

1. The member in charge, on the hall laptop: the program planned through the program page (an
   ordinary game, a four corners game, and the progressive game carrying last week's "Coverall
   jackpot"), the workers signed in, the checklist confirmed, the occasion opened, the door sold
   by keyboard, play started; game 1 won by one player, game 2 by two on the same call (the $75
   split $38 + $37, both paid), the attendance announced and the second half started, game 3's
   jackpot ($1,600) won within its calls (no W-2G: under the 2026 threshold) and its outcome
   recorded in the series' ledger; the occasion closed.
2. The bookkeeper, the next morning: the counts as recorded, the opening bank, the cash counted as
   expected; the report filed; a real Celery worker makes the PDF while the page shows its
   progress; the PDF downloaded holds the figures the page showed and is PDF/A-3a.
3. A Commission inspector, with the second factor: the occasion, its games' claims pages and the
   report read, every figure consistent with every other, no write control offered, a write
   refused with 403.

The clock is the server's (the live server runs in this process): it moves through the night."""

import datetime as dt
import json
import re
import subprocess
from decimal import Decimal

import django.utils.timezone
import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import expect

from beano.demo import DEMO_PASSWORD
from beano.rules.opening import CHECKLIST
from games.models import ProgressiveSeries
from occasions.models import Occasion, PriceListItem
from organizations.models import AuditEvent
from tests.browser.conftest import second_factor
from tests.browser.night_steps import (
    ANN,
    BOOKS_DAY,
    COVERALL,
    DOOR_COUNTS,
    DOOR_SALES,
    DOOR_TOTAL,
    GAME1_BALLS,
    GAME1_CARD,
    GAME2_BALLS,
    GAME3_BALLS,
    JACKPOT,
    JOE,
    NIGHT,
    amount_in,
    at,
    call_balls,
    claim_of,
    door_counts_on,
    door_keys,
    expect_read_only,
    finish_game,
    game_card,
    log_in,
    money,
    pay,
    plan_game,
    record_claim,
    record_payouts,
    record_sales,
    record_winners,
    section,
    settled,
    start_game,
    to_the_occasion,
    usd,
    verify_card,
    what_the_pages_recorded,
)
from tests.conftest import totp_code, totp_device
from tests.demo_snapshot import seed_demo


@pytest.mark.browser
def test_the_whole_night_from_the_door_to_the_inspectors_review(
    live_server, new_tab, monkeypatch, tmp_path, media_root, start_worker
):
    clock = {"now": at(NIGHT, 18, 30)}
    monkeypatch.setattr(django.utils.timezone, "now", lambda: clock["now"])

    def set_clock(day: dt.date, hour: int, minute: int) -> None:
        clock["now"] = at(day, hour, minute)

    seed_demo()
    worker = start_worker()  # it starts up while the night is played
    occasion = Occasion.objects.get(organization__name="American Legion Post 171", date=NIGHT)
    org, shots = occasion.organization, iter(range(1, 100))
    args = {"org_id": org.pk, "pk": occasion.pk}
    series = ProgressiveSeries.objects.get(organization=org, name="Coverall jackpot")

    def shot(page, name: str, *, full_page: bool = True) -> None:
        page.screenshot(path=str(tmp_path / f"{next(shots):02d}-{name}.png"), full_page=full_page)

    # 1. The member in charge plans the night's program before the doors open.
    mic = new_tab()
    log_in(mic, live_server.url + reverse("game_program", kwargs=args), "post171-mic")
    expect(mic.get_by_text("Plan the program now")).to_be_visible()
    plan_game(mic, 1, "First half", "Regular", ("Any single line (row, column or diagonal)", "50"))
    plan_game(mic, 2, "First half", "Regular", ("Four corners", "75"))
    plan_game(mic, 3, "Second half", "Progressive jackpot", None)
    expect(game_card(mic, 3)).to_contain_text("No prize yet")
    # Last week's jackpot carried into game 3: $1,500 not won, + $100.
    to_the_occasion(mic)
    jackpot_card = section(mic, "Progressive jackpot")
    expect(jackpot_card).to_contain_text("no series carried yet")
    jackpot_card.get_by_role("link", name="Record", exact=True).click()
    panel = mic.locator("#jackpot-panel")
    panel.get_by_label("Game", exact=True).select_option(label="Game 3 (Progressive jackpot)")
    panel.get_by_label("Series").select_option(label="Coverall jackpot")
    panel.get_by_role("button", name="Carry the jackpot").click()
    expect(panel).to_contain_text("Game 3 carries Coverall jackpot: $1,600.00 within 52 calls.")
    expect(panel).to_contain_text("$1,500.00 carried in · Not yet recorded")
    shot(mic, "jackpot-carried")
    to_the_occasion(mic)
    mic.get_by_role("link", name="Plan the program").click()
    expect(game_card(mic, 3)).to_contain_text("Coverall · $1,600.00")
    shot(mic, "program")

    # 2. Workers signed in, the checklist confirmed, the occasion opened.
    set_clock(NIGHT, 18, 45)  # the hours in force begin
    mic.goto(live_server.url + reverse("workers_present", kwargs=args))
    workers = mic.locator("#workers-panel")
    for name, role, badge in (
        ("Linda Souza", "Member in charge", "P171-02"),
        ("Robert Medeiros", "Head of organization or designee for gross receipts", "P171-01"),
        ("Karen Pacheco", "Bookkeeper", "P171-03"),
        ("Thomas Ferreira", "Caller", "P171-04"),
        ("Mary Gallagher", "Seller", "P171-06"),
    ):
        mic.get_by_label(f"Role for the night of {name}").select_option(label=role)
        mic.get_by_label(f"ID displayed by {name}").fill(badge)
        mic.get_by_role("button", name=f"Sign in {name}").click()
        expect(workers.get_by_role("status")).to_have_text(f"{name} is signed in as {role}.")
    expect(workers.get_by_text("In charge: Linda Souza")).to_be_visible()
    mic.get_by_role("link", name="Next: open the occasion").click()
    for item in CHECKLIST:
        row = mic.locator(f"#item-{item.code}")
        row.get_by_role("button", name="Confirm", exact=True).click()
        expect(row.get_by_role("button", name="✓ Confirmed")).to_be_visible()
    expect(mic.locator("#opening-checklist")).to_contain_text(
        "Everything is in order: the occasion can open now."
    )
    set_clock(NIGHT, 18, 47)
    mic.get_by_role("button", name="Open the occasion").click()
    mic.get_by_role("button", name="Yes, open the occasion").click()
    status = mic.locator(".occasion-header .badge")
    expect(status).to_have_text("Open")

    # 3. The door, by keyboard: three players, the cursor in the first extra box each time.
    set_clock(NIGHT, 18, 50)
    mic.get_by_role("link", name="Door sales screen").click()
    extra_regular = mic.get_by_label("Extra regular card")
    sold = mic.locator("#sale-panel").get_by_role("status")
    for receipt, keys in enumerate(DOOR_SALES, start=1):
        expect(extra_regular).to_be_focused()
        expect(mic.get_by_label("Admission (3-on")).to_have_value("1")
        door_keys(mic, keys)
        mic.keyboard.press("Enter")
        expect(sold).to_contain_text(f"Receipt {receipt} recorded")
        settled(mic)
    counts = mic.locator("#door-counts")
    expect(counts).to_contain_text("3 receipts · 0 voided")
    shot(mic, "door", full_page=False)
    set_clock(NIGHT, 18, 58)
    mic.get_by_role("button", name="Start play").click()
    expect(mic.get_by_text("Play has started: the first half is on.")).to_be_visible()

    # 4. Game 1: one winner on the N column.
    set_clock(NIGHT, 19, 0)
    to_the_occasion(mic)
    mic.get_by_role("link", name="Run the games").click()
    start_game(mic, 1)
    call_balls(mic, 1, GAME1_BALLS)
    set_clock(NIGHT, 19, 6)
    record_claim(mic, 44, "Dorothy Amaral", "4")
    verify_card(mic, "Dorothy Amaral", GAME1_CARD, ("Rose Medeiros", "12"))
    record_winners(mic, ["Dorothy Amaral won (table 4)"], "Dorothy Amaral $50.00")
    set_clock(NIGHT, 19, 8)
    pay(mic, "Dorothy Amaral", Decimal("50.00"))
    shot(mic, "game-1-paid")
    finish_game(mic, 1)

    # 5. Game 2: two winners on the call of O70 share the $75: $38 and $37.
    set_clock(NIGHT, 19, 15)
    start_game(mic, 2)
    call_balls(mic, 2, GAME2_BALLS)
    set_clock(NIGHT, 19, 20)
    record_claim(mic, 70, "Ann Pires", "3")
    record_claim(mic, 70, "Joe Dias", "7")
    verify_card(mic, "Ann Pires", ANN, ("Rose Medeiros", "12"))
    verify_card(mic, "Joe Dias", JOE, ("Rose Medeiros", "12"))
    record_winners(
        mic,
        ["Ann Pires won (table 3)", "Joe Dias won (table 7)"],
        "Ann Pires $38.00 · Joe Dias $37.00 — total $75.00 of the $75.00",
    )
    expect(claim_of(mic, "Ann Pires")).to_contain_text("Winner · $38.00")
    expect(claim_of(mic, "Joe Dias")).to_contain_text("Winner · $37.00")
    set_clock(NIGHT, 19, 22)
    pay(mic, "Ann Pires", Decimal("38.00"))
    pay(mic, "Joe Dias", Decimal("37.00"))
    shot(mic, "game-2-split-paid")
    finish_game(mic, 2)

    # 6. Intermission: the attendance announced, then the second half.
    set_clock(NIGHT, 20, 30)
    to_the_occasion(mic)
    mic.get_by_role("link", name="Door sales screen").click()
    mic.get_by_label("Players in attendance").fill("3")
    mic.get_by_role("button", name="Announce").click()
    expect(mic.get_by_text("3 players in attendance, announced.")).to_be_visible()
    set_clock(NIGHT, 20, 45)
    mic.get_by_role("button", name="Start the second half").click()
    expect(mic.locator("#door-halves")).to_contain_text(re.compile(r"Second half\s+started"))

    # 7. Game 3, the progressive jackpot: a coverall on the 30th ball, within the 52.
    to_the_occasion(mic)
    mic.get_by_role("link", name="Run the games").click()
    start_game(mic, 3)
    call_balls(mic, 3, GAME3_BALLS)
    set_clock(NIGHT, 21, 10)
    record_claim(mic, 74, "Margaret Pires", "9")
    winner_claim = claim_of(mic, "Margaret Pires")
    expect(winner_claim).to_contain_text("on O74 (ball 30)")
    winner_claim.get_by_text("Verify the draw").click()
    expect(winner_claim.get_by_label("Member in charge present")).to_have_value("Linda Souza")
    winner_claim.get_by_label("Players present, other than the winner").fill("Albert Furtado")
    winner_claim.get_by_role("button", name="Record the verification").click()
    expect(mic.get_by_text("The verification of the draw is recorded.")).to_be_visible()
    verify_card(mic, "Margaret Pires", COVERALL, ("Albert Furtado", "6"))
    record_winners(mic, ["Margaret Pires won (table 9)"], "Margaret Pires $1,600.00")
    set_clock(NIGHT, 21, 15)
    # $1,600 in December 2026: under the $2,000 W-2G threshold in force from January 1, 2026.
    card = mic.locator("[id^=payout_]").filter(has_text="Margaret Pires")
    expect(card.get_by_text("Form W-2G")).to_have_count(0)
    pay(mic, "Margaret Pires", JACKPOT)
    expect(mic.locator("[id^=payout_]").filter(has_text="Margaret Pires")).not_to_contain_text(
        "TIN"
    )
    shot(mic, "game-3-jackpot-paid")
    # The outcome in the series' ledger: a jackpot won within the calls is not carried over
    # (it would be paid twice): it is won, and paid.
    to_the_occasion(mic)
    section(mic, "Progressive jackpot").get_by_role("link", name="Record").click()
    panel = mic.locator("#jackpot-panel")
    panel.get_by_text("Not won: nothing paid").click()
    panel.get_by_role("button", name="Record the outcome").click()
    refusal = panel.get_by_role("alert")  # the plain words first, the citation after them
    words = "Game 3: Margaret Pires won the jackpot within its 52 calls: it is not carried over."
    expect(refusal).to_have_text(f"Refused.{words} Record it as won. 961 CMR 3.04(8)(a)")
    settled(mic)
    shot(mic, "jackpot-carry-over-refused")
    panel.get_by_text("Won within the calls: jackpot paid").click()
    panel.get_by_role("button", name="Record the outcome").click()
    expect(panel).to_contain_text(
        "Game 3 is recorded: the jackpot of $1,600.00 is paid and the series is won."
    )
    shot(mic, "jackpot-won")
    finish_game(mic, 3)

    # 8. The close.
    set_clock(NIGHT, 21, 30)
    to_the_occasion(mic)
    mic.get_by_role("link", name="Close the occasion", exact=True).click()
    mic.get_by_role("button", name="Close the occasion").click()
    mic.get_by_role("button", name="Yes, close the occasion").click()
    expect(status).to_have_text("Closed")
    shot(mic, "closed")

    # 9. The bookkeeper, the next morning: the close-out, the filing, the PDF.
    set_clock(BOOKS_DAY, 9, 30)
    books = new_tab()
    log_in(books, live_server.url + reverse("occasion_close", kwargs=args), "post171-books")
    second_factor(books, "post171-books")
    books.get_by_role("link", name="Next: close-out and report").click()
    expect(books.get_by_role("heading", name="Close-out and financial report")).to_be_visible()
    recorded = books.locator("table").filter(has_text="Recorded sold")
    for label, quantity in DOOR_COUNTS.items():
        expect(recorded.locator("tr").filter(has_text=label).locator("td").nth(1)).to_have_text(
            str(quantity)
        )
        books.get_by_label(label, exact=True).fill(str(quantity))
    books.get_by_label("Opening bank").fill("2000.00")
    books.get_by_role("button", name="Save the close-out").click()
    expect(books.get_by_text("The close-out is saved.")).to_be_visible()
    cash = books.locator("table").filter(has_text="Cash expected")
    expected_cash = money(amount_in(cash, "Cash expected").inner_text())
    prizes_paid = Decimal("50") + Decimal("75") + JACKPOT
    assert expected_cash == Decimal("2000.00") + DOOR_TOTAL - prizes_paid
    books.get_by_label("Cash counted").fill(f"{expected_cash:.2f}")
    # Counted by the bookkeeper, verified by the member in charge typing her own password.
    books.get_by_label("Count verified by").select_option(label="Linda Souza (post171-mic)")
    books.get_by_label("The verifier types their own password or PIN").fill(DEMO_PASSWORD)
    books.get_by_role("button", name="Save the close-out").click()
    expect(books.get_by_text("The close-out is saved.")).to_be_visible()
    expect(amount_in(cash, "Over (+) / short (−)")).to_have_text("$0.00")
    for label, quantity in DOOR_COUNTS.items():
        row = recorded.locator("tr").filter(has_text=label).locator("td")
        expect(row.nth(2)).to_have_text(str(quantity))  # counted
    figures = books.locator(".card").filter(has=books.get_by_role("heading", name="The figures"))
    gross_shown = amount_in(figures, "Gross receipts").inner_text()
    net_shown = amount_in(figures, "Net proceeds").inner_text()
    gross, net = money(gross_shown), money(net_shown)
    assert gross == DOOR_TOTAL
    assert net < 0, "a jackpot night: the prizes are more than the receipts"
    expect(figures).to_contain_text(
        "Jackpot “Coverall jackpot”: carried in $1,500.00, added $100.00, paid $1,600.00, "
        "carried out $0.00."
    )
    shot(books, "closeout")
    set_clock(BOOKS_DAY, 9, 40)
    books.get_by_role("button", name="File the report").click()
    expect(books.locator("#confirm-summary")).to_contain_text("Seal the occasion")
    books.get_by_role("button", name="Yes, file the report").click()
    expect(
        books.get_by_text("The report is filed and the occasion sealed; the PDF is being made.")
    ).to_be_visible()
    version = books.locator("section.card").filter(has_text="Original report")
    expect(version).to_contain_text(f"Gross receipts {gross_shown}")
    expect(version).to_contain_text(f"Net proceeds {net_shown}")
    expect(version.get_by_label("PDF progress")).to_be_visible()  # the worker has not finished
    shot(books, "filed-pdf-in-progress")
    download = version.get_by_role("link", name="Download the PDF")
    # The page polls the PDF's progress every two seconds; the worker makes it meanwhile.
    try:
        expect(download).to_be_visible(timeout=120_000)
    except AssertionError:
        pytest.fail(f"no PDF within two minutes; the worker says:\n{worker.log()}")
    shot(books, "pdf-ready")
    with books.expect_download() as downloading:
        download.click()
    pdf = tmp_path / downloading.value.suggested_filename
    downloading.value.save_as(pdf)
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert re.search(rf"Gross receipts\s+{re.escape(gross_shown)}\n", text), text
    assert re.search(rf"Net proceeds \(loss\)\s+{re.escape(net_shown)}\n", text), text
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    assert "PDF subtype:    PDF/A-3a" in info.stdout

    # 10. The inspector: two factors, then a read of everything, nothing writable.
    set_clock(BOOKS_DAY, 14, 0)
    events_before = AuditEvent.objects.filter(organization=org).count()
    inspector = new_tab()
    log_in(inspector, live_server.url + "/", "inspector")
    device = totp_device(get_user_model().objects.get(username="inspector"))
    inspector.get_by_label("Code from your authenticator app").fill(totp_code(device))
    inspector.get_by_role("button", name="Verify").click()
    # The inspection dashboard lists the night with its figures; its full record opens from it.
    expect(inspector.get_by_role("heading", name="Inspection", exact=True)).to_be_visible()
    listed_night = (
        inspector.get_by_role("row")
        .filter(has_text="American Legion Post 171")
        .filter(has=inspector.get_by_role("link", name="Fri Dec 4, 2026"))
        .last  # the occasions' table, after the organizations'
    )
    cells = [c.strip() for c in listed_night.locator("td").all_inner_texts()]
    assert cells[2:8] == ["Closed", "3", "3", usd(gross), "3", usd(prizes_paid)], cells
    listed_night.get_by_role("link", name="Fri Dec 4, 2026").click()
    expect(inspector.get_by_role("heading", level=1)).to_have_text(
        "American Legion Post 171 — Friday, December 4, 2026"
    )
    shot(inspector, "inspector-record")
    expect_read_only(inspector)
    record_door, record_total = record_sales(inspector)
    record_paid = record_payouts(inspector)
    expect(inspector.locator("#game-3")).to_contain_text("Ball calls (30)")
    expect(inspector.locator("#game-3 .record-jackpot")).to_have_text(
        re.compile(
            r"Coverall jackpot .*: \$1,600\.00 within 52 calls, \$1,500\.00 carried in · won "
            r"within the calls; ledger: paid \$1,600\.00 \(jackpot\), \$0\.00 carried out\."
        )
    )
    record_report = inspector.locator("section").filter(
        has=inspector.get_by_role("heading", name=re.compile("^Financial report"))
    )
    expect(amount_in(record_report, "Gross receipts")).to_have_text(gross_shown)
    expect(amount_in(record_report, "Net proceeds")).to_have_text(net_shown)
    # "Counts: Admissions 3 · Extra regular cards 2 · …. Cash over/short $0.00."
    counts_line = record_report.get_by_text(re.compile("^Counts: ")).inner_text()
    items = counts_line.removeprefix("Counts: ").split(".")[0].split(" · ")
    record_counts = {label: int(n) for label, n in (i.rsplit(" ", 1) for i in items)}
    inspector.get_by_role("link", name="Occasion page").click()
    expect(inspector.locator(".occasion-header .badge")).to_have_text("Closed")
    shot(inspector, "inspector-occasion")
    expect_read_only(inspector)
    door, door_total = door_counts_on(inspector)
    assert door_total == DOOR_TOTAL
    # Winners and payouts, as the occasion page lists them.
    winners_card = section(inspector, "Winners and payouts")
    listed = [re.sub(r"\s+", " ", t).strip() for t in winners_card.locator("li").all_inner_texts()]
    assert listed == [
        "Game 1 · Dorothy Amaral $50.00 paid",
        "Game 2 · Ann Pires $38.00 paid",
        "Game 2 · Joe Dias $37.00 paid",
        "Game 3 · Margaret Pires $1,600.00 paid",
    ]
    expect(winners_card).to_contain_text(re.compile(r"Paid\s*\$1,725\.00 of \$1,725\.00"))
    jackpot_card = section(inspector, "Progressive jackpot")
    expect(jackpot_card).to_contain_text("$1,600.00 within 52 calls · won")
    # Each game's claims page: every winner paid their share, nothing to record.
    paid: dict[str, Decimal] = {}
    for number in (1, 2, 3):
        winners_card.get_by_role("link", name=f"Game {number}", exact=True).click()
        expect(inspector.get_by_text("Read-only review.")).to_be_visible()
        expect_read_only(inspector)
        for card in inspector.locator("[id^=payout_]").all():
            name = card.locator("strong").first.inner_text()
            share = money(card.locator("strong").nth(1).inner_text())
            expect(card).to_contain_text(f"Paid {usd(share)} at ")
            paid[name] = share
        if number == 3:
            expect(inspector.locator("[id^=claim-]")).to_contain_text("on O74 (ball 30)")
            shot(inspector, "inspector-game-3")
        inspector.go_back()
    assert paid == {
        "Dorothy Amaral": Decimal("50.00"),
        "Ann Pires": Decimal("38.00"),
        "Joe Dias": Decimal("37.00"),
        "Margaret Pires": JACKPOT,
    }
    # The report: its versions page and the PDF the inspector downloads.
    inspector.get_by_role("link", name="Versions and PDFs").click()
    expect(inspector.get_by_role("heading", name="Financial report: every version")).to_be_visible()
    expect_read_only(inspector)
    current = inspector.locator("section.card").filter(has_text="Original report")
    expect(current).to_contain_text(f"Gross receipts {gross_shown}")
    expect(current).to_contain_text(f"Net proceeds {net_shown}")
    shot(inspector, "inspector-report")
    with inspector.expect_download() as downloading:
        current.get_by_role("link", name="Download the PDF").click()
    copy = tmp_path / "inspector-copy.pdf"
    downloading.value.save_as(copy)
    assert copy.read_bytes() == pdf.read_bytes(), "one filed PDF, whoever downloads it"
    subprocess.run(
        ["pdfdetach", "-save", "1", "-o", str(tmp_path / "figures.json"), str(copy)], check=True
    )
    filed = json.loads((tmp_path / "figures.json").read_text())["figures"]
    # The report counts by category as the door sells them ("Admissions" for "Admission").
    sold_here = {label: n for label, n in door.items() if n}
    as_sold = dict(PriceListItem.Category.choices)
    assert {as_sold[c["category"]]: c["recorded"] for c in filed["counts"]} == sold_here
    assert {as_sold[c["category"]]: c["counted"] for c in filed["counts"]} == sold_here
    assert {c["label"]: c["counted"] for c in filed["counts"]} == DOOR_COUNTS
    assert Decimal(filed["receipts"]["gross_receipts"]) == door_total == gross
    assert sum(Decimal(line["amount"]) for line in filed["receipts"]["lines"]) == door_total
    assert Decimal(filed["net"]["net_proceeds"]) == net
    reported = {
        w["name"]: Decimal(w["share"])
        for g in filed["games"]
        for p in g["parts"]
        for w in p["winners"]
        if w["paid"]
    }
    assert reported == paid
    # The full record says the same as the occasion page, the claims pages and the report.
    assert (record_door, record_total) == (door, door_total)
    assert record_counts == DOOR_COUNTS
    assert record_paid == {name: (share, share) for name, share in paid.items()}
    assert filed["jackpots"] == [
        {
            "series": "Coverall jackpot",
            "game": 3,
            "carried_in": "1500.00",
            "added": "100.00",
            "paid": "1600.00",
            "paid_kind": "jackpot",
            "carried_out": "0.00",
        }
    ]
    # The close-out, read: no form. A write sent anyway is refused.
    inspector.locator("#floor-bar").get_by_role("link", name="Close-out", exact=True).click()
    expect(inspector.get_by_role("heading", name="Close-out and financial report")).to_be_visible()
    expect_read_only(inspector)
    token = inspector.locator("input[name=csrfmiddlewaretoken]").first.input_value()
    for name, data in (
        ("report_open_amendment", {"reason": "The inspector tries to reopen the report."}),
        ("report_closeout", {"opening_bank": "0.00", "cash_counted": "0.00"}),
        ("occasion_close", {}),
    ):
        response = inspector.request.post(
            live_server.url + reverse(name, kwargs=args),
            form={"csrfmiddlewaretoken": token, **data},
            headers={"X-CSRFToken": token, "Referer": inspector.url},
        )
        assert response.status == 403, (name, response.status)
        assert "Not allowed" in response.text()  # the app's refusal, not the CSRF check's
    assert AuditEvent.objects.filter(organization=org).count() == events_before

    # 11. What the pages recorded.
    what_the_pages_recorded(occasion, series, paid, pdf, gross)
