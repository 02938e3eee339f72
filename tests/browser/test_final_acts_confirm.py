"""The final acts that confirm with a summary, in the browser at 1366×768 on the demo data
(issue 19): Post 171's member in charge records two winners who split $75; its bookkeeper files
the late report of a day not played, then opens an amendment, sees what filing it would do, and
withdraws it instead; and the caller's console draws every way "any single line" wins, in turn.
Each act saves nothing until its summary's button; each page shown has no serious or critical
axe-core violation. Screenshots go to BEANO_SCREENSHOTS when it is set (else the test's folder),
for a person to look at."""

import datetime as dt
import os
import re
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

import django.utils.timezone
import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import expect

from beano.rules.claims import Witness
from games import claims_services, draw_services
from games.models import Arrangement, Game, PrizePart, Winner
from occasions.models import Occasion
from reports.models import CloseOut, Expense, FinancialReport
from tests.browser.conftest import second_factor
from tests.browser.night_steps import log_in
from tests.browser.test_accessibility import AXE_RUN, WCAG_AA
from tests.browser.test_games_night import ANN, JOE, set_up_the_night
from tests.demo_snapshot import seed_demo

NIGHT = dt.datetime(2026, 12, 4, 19, 0, tzinfo=ZoneInfo("America/New_York"))
POST = "American Legion Post 171"


def _shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("BEANO_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _axe(page, url: str) -> list:
    """axe-core's serious and critical WCAG 2.1 AA violations of the page as it stands."""
    page.add_script_tag(url=url + "/static/vendor/axe-core/axe.min.js")
    return page.evaluate(AXE_RUN, WCAG_AA)


def _tonight() -> Occasion:
    return Occasion.objects.get(organization__name=POST, date=NIGHT.date())


def _game_in_play(occasion: Occasion, arrangement: str = "four_corners") -> Game:
    """Game 1 of tonight in play, its prize announced."""
    set_up_the_night(occasion)
    game = Game.objects.get(occasion=occasion, number=1)
    PrizePart.objects.filter(game=game).update(
        arrangement=Arrangement.objects.get(code=arrangement), announced_at=NIGHT
    )
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.IN_PLAY, started_at=NIGHT, balls_confirmed_at=NIGHT
    )
    return Game.objects.get(pk=game.pk)


@pytest.mark.browser
@pytest.mark.motion
def test_recording_two_winners_confirms_with_the_split(live_server, page, monkeypatch, tmp_path):
    monkeypatch.setattr(django.utils.timezone, "now", lambda: NIGHT)
    seed_demo()
    game = _game_in_play(_tonight())
    mic = get_user_model().objects.get(username="post171-mic")
    for number in (4, 63, 12, 70):
        draw_services.record_ball_call(game=game, number=number, by=mic)
    part = game.parts.get()
    for player, table, card in (("Ann Pires", "3", ANN), ("Joe Dias", "7", JOE)):
        claim = claims_services.record_claim(
            game=game,
            part=part,
            ball_in_hand=None,
            calling_begun=False,
            player_name=player,
            table=table,
            by=mic,
        )
        claims_services.verify_card(
            claim=claim, numbers=card, witnesses=[Witness("Rose Medeiros", "12")], by=mic
        )
    shots = _shots(tmp_path)
    kwargs = {"org_id": game.occasion.organization_id, "pk": game.occasion_id, "game_pk": game.pk}
    log_in(page, live_server.url + reverse("game_claims", kwargs=kwargs), "post171-mic")

    winners = page.locator(f"#winners_{part.pk}")
    winners.get_by_label("Ann Pires won (table 3)").check()
    winners.get_by_label("Joe Dias won (table 7)").check()
    winners.get_by_role("button", name="Record the winners").click()
    summary = page.locator("#confirm-summary")
    title = summary.get_by_role("heading", name="Record the winners of game 1, prize 1?")
    expect(title).to_be_in_viewport()
    header = page.locator("[data-sticky-header]").bounding_box()
    assert header is not None and title.bounding_box()["y"] >= header["y"] + header["height"]
    expect(summary).to_contain_text("Ann Pires $38.00 and Joe Dias $37.00")
    expect(summary).to_contain_text("Nothing is paid yet")
    expect(summary).to_contain_text("no Form W-2G and no Form 5754 is needed")
    expect(summary).to_contain_text("cannot be changed or taken back")
    expect(summary.get_by_role("button", name="Yes, record the winners")).to_be_focused()
    expect(summary).to_be_in_viewport()
    page.screenshot(path=str(shots / "winners-summary-1366x768.png"))
    assert _axe(page, live_server.url) == []
    assert not Winner.objects.filter(claim__game=game).exists()

    page.get_by_role("button", name="Yes, record the winners").click()
    expect(page.get_by_text("Winners recorded.")).to_be_visible()
    shares = dict(Winner.objects.filter(claim__game=game).values_list("player_name", "share"))
    assert shares == {"Ann Pires": Decimal("38.00"), "Joe Dias": Decimal("37.00")}


@pytest.mark.browser
def test_filing_and_withdrawing_confirm_with_what_they_do(live_server, page, monkeypatch, tmp_path):
    monkeypatch.setattr(django.utils.timezone, "now", lambda: NIGHT)
    seed_demo()
    shots = _shots(tmp_path)
    not_played = (
        Occasion.objects.filter(
            organization__name=POST, status=Occasion.Status.NOT_PLAYED, reports__isnull=True
        )
        .order_by("-date")
        .first()
    )
    assert not_played is not None, "the demo leaves a day not played with its report late"
    args = {"org_id": not_played.organization_id, "pk": not_played.pk}
    log_in(page, live_server.url + reverse("report_closeout", kwargs=args), "post171-books")
    second_factor(page, "post171-books")

    # 1. The late report of the day not played: the summary first, then filed.
    page.get_by_role("button", name="File the report", exact=True).click()
    summary = page.locator("#confirm-summary")
    expect(summary).to_contain_text("File the report?")
    expect(summary).to_contain_text(
        f"File the financial report of {not_played.date:%A, %B %-d, %Y}"
    )
    expect(summary).to_contain_text(re.compile(r"filed today, \d+ days late"))
    expect(summary).to_contain_text("Seal the occasion")
    expect(summary).to_contain_text("corrected by an amendment")
    page.screenshot(path=str(shots / "file-summary-1366x768.png"))
    assert _axe(page, live_server.url) == []
    assert not FinancialReport.objects.filter(occasion=not_played).exists()
    page.get_by_role("button", name="Yes, file the report").click()
    expect(page.get_by_text("The report is filed and the occasion sealed")).to_be_visible()
    assert FinancialReport.objects.filter(occasion=not_played).count() == 1

    # 2. Post 171's last night, filed and amended: a second amendment, an expense added in it.
    night = Occasion.objects.filter(organization__name=POST, reports__version=2).distinct().get()
    args = {"org_id": night.organization_id, "pk": night.pk}
    page.goto(live_server.url + reverse("report_closeout", kwargs=args))
    page.get_by_label("Why the filed report is corrected").fill(
        "Checking whether the hall's coffee was an expense of the night."
    )
    page.get_by_role("button", name="Open an amendment").click()
    expect(page.get_by_text("The amendment is open")).to_be_visible()
    expense = page.locator("form[action$='/closeout/expenses/']")
    expense.locator("select[name=kind]").select_option(label="Other expense")
    expense.locator("input[name=amount]").fill("12.50")
    expense.locator("input[name=payee]").fill("Dunkin'")
    expense.locator("input[name=description]").fill("Coffee for the workers")
    page.get_by_role("button", name="Add the expense").click()
    expect(page.get_by_text("The expense is recorded.")).to_be_visible()

    page.get_by_role("button", name="File amendment 2", exact=True).click()
    expect(summary).to_contain_text("File amendment 2?")
    expect(summary).to_contain_text("as version 3, for the reason")
    expect(summary).to_contain_text("the amendment keeps that filing date")
    page.screenshot(path=str(shots / "file-amendment-summary-1366x768.png"))
    page.get_by_role("link", name="Go back").click()

    page.get_by_role("button", name="Withdraw the amendment").click()
    expect(summary).to_contain_text("Withdraw the amendment?")
    expect(summary).to_contain_text(
        "The expense added in the amendment, Other expense to Dunkin' $12.50, is taken away."
    )
    expect(summary).to_contain_text("Version 2, filed")
    page.screenshot(path=str(shots / "withdraw-summary-1366x768.png"))
    assert _axe(page, live_server.url) == []
    assert CloseOut.objects.get(occasion=night).amendment_open
    page.get_by_role("button", name="Yes, withdraw the amendment").click()
    expect(page.get_by_text("The amendment is withdrawn")).to_be_visible()
    assert not CloseOut.objects.get(occasion=night).amendment_open
    assert not Expense.objects.filter(occasion=night, payee="Dunkin'").exists()
    assert FinancialReport.objects.filter(occasion=night).count() == 2


def _shown(pictures) -> int:
    """Which of the pictures is the one shown."""
    return pictures.evaluate_all("(ps) => ps.findIndex((p) => p.classList.contains('is-shown'))")


@pytest.mark.browser
def test_the_console_draws_every_single_line_in_turn(live_server, page, monkeypatch, tmp_path):
    monkeypatch.setattr(django.utils.timezone, "now", lambda: NIGHT)
    seed_demo()
    game = _game_in_play(_tonight(), "single_line")
    kwargs = {"org_id": game.occasion.organization_id, "pk": game.occasion_id, "game_pk": game.pk}
    page.clock.install()  # the page's timers, moved on below by run_for instead of waited for
    log_in(page, live_server.url + reverse("draw_console", kwargs=kwargs), "post171-mic")

    cycle = page.locator(".arr-cycle")
    expect(cycle).to_have_count(1)
    pictures = cycle.locator(".arr-pic")
    expect(pictures).to_have_count(12)
    expect(page.get_by_text("12 ways to win, shown in turn")).to_be_visible()
    box = cycle.bounding_box()
    assert box is not None and box["width"] >= 80  # legible at 1366×768: about 5.5rem
    expect(cycle.locator(".arr-pic.is-shown")).to_have_count(1)
    # Each way drawn in turn: the picture shown changes every 1.5 seconds.
    seen = {_shown(pictures)}
    for _ in range(4):
        page.clock.run_for(1600)
        seen.add(_shown(pictures))
    assert len(seen) >= 3, seen
    page.screenshot(path=str(_shots(tmp_path) / "console-pictures-1366x768.png"))
    assert _axe(page, live_server.url) == []
    # A pointer resting on the picture holds it.
    cycle.hover()
    held = _shown(pictures)
    page.clock.run_for(3200)
    assert _shown(pictures) == held
    # So does the keyboard: focus holds it, and Enter holds it after the focus has left.
    page.mouse.move(0, 0)
    cycle.focus()
    held = _shown(pictures)
    page.clock.run_for(3200)
    assert _shown(pictures) == held
    page.keyboard.press("Enter")
    expect(cycle).to_have_attribute("aria-pressed", "true")
    page.locator("body").focus()
    cycle.evaluate("(c) => c.blur()")
    held = _shown(pictures)
    page.clock.run_for(3200)
    assert _shown(pictures) == held
    cycle.press(" ")
    expect(cycle).to_have_attribute("aria-pressed", "false")
    cycle.evaluate("(c) => c.blur()")
    page.clock.run_for(1700)
    assert _shown(pictures) != held


@pytest.mark.browser
def test_a_fifth_organizations_list_is_refused_naming_the_four(
    live_server, page, monkeypatch, tmp_path
):
    """3.04(1)(c) on the worker list page: the refusal names the four organizations whose 2026
    lists came first, with the day each was made, and the Director's authorization."""
    from organizations import services
    from organizations.models import Organization, WorkerListEntry
    from organizations.worker_services import add_to_worker_list
    from tests.conftest import make_organization

    monkeypatch.setattr(django.utils.timezone, "now", lambda: NIGHT)
    seed_demo()
    post = Organization.objects.get(name=POST)
    born, since = dt.date(1958, 6, 2), dt.date(2015, 1, 1)
    person = services.add_member(
        organization=post,
        by=None,
        legal_name="Theresa Oliveira",
        date_of_birth=born,
        kind="member",
        since=since,
    ).person
    earlier = (
        ("Knights of Columbus Council 17", dt.date(2026, 1, 8)),
        ("VFW Post 3220", dt.date(2026, 2, 12)),
        ("Our Lady of Fatima Parish", dt.date(2026, 4, 3)),
        ("Sons of Italy Lodge 9", dt.date(2026, 6, 20)),
    )
    for name, day in earlier:
        org = make_organization(name)
        services.add_member(
            organization=org,
            by=None,
            legal_name="Theresa Oliveira",
            date_of_birth=born,
            kind="member",
            since=since,
        )
        add_to_worker_list(
            organization=org,
            year=2026,
            person=person,
            roles=["seller"],
            identification="X-1",
            compensated=False,
            compensation_note="",
            good_moral_character_attested=False,
            attested_by="",
            on=day,
            by=None,
        )
    url = live_server.url + reverse("worker_add", args=[post.pk]) + "?year=2026"
    log_in(page, url, "post171-mic")
    form = page.locator("form").filter(has=page.locator("select[name=person]"))
    form.locator("select[name=person]").select_option(value=str(person.pk))
    form.locator("input[name=roles][value=seller]").check()
    form.locator("input[name=identification]").fill("P-31")
    form.get_by_role("button", name="Add to the worker list").click()
    refusal = page.get_by_text(re.compile("Theresa Oliveira is already on the 2026 worker lists"))
    expect(refusal).to_be_visible()
    expect(refusal).to_contain_text(
        "Knights of Columbus Council 17 (listed January 8), VFW Post 3220 (listed February 12), "
        "Our Lady of Fatima Parish (listed April 3) and Sons of Italy Lodge 9 (listed June 20)"
    )
    expect(refusal).to_contain_text("only a Director's written authorization can allow a 5th.")
    expect(page.get_by_text("3.04(1)(c)").first).to_be_visible()
    # Plain words first, the citation after them in its quieter style.
    expect(refusal.locator(".citation")).to_have_text("961 CMR 3.04(1)(c)")
    text = refusal.text_content() or ""
    assert text.index("Theresa Oliveira") < text.index("961 CMR 3.04(1)(c)"), text
    expect(form.locator("input[name=identification]")).to_have_value("P-31")
    page.screenshot(path=str(_shots(tmp_path) / "refusal-1c-1366x768.png"))
    assert _axe(page, live_server.url) == []
    assert not WorkerListEntry.objects.filter(worker_list__organization=post, person=person)
