"""The floor bar: one navigation on every page of a night (Workers · Door · Games · Console ·
Claims · Flashboard · Close) with where the night stands and the next step; the console and the
claims one click apart both ways; never "Next: game 2" after the close; one query however long
the program."""

from __future__ import annotations

import re

import django.utils.timezone
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Game
from occasions.floor_bar import floor_bar
from occasions.models import Occasion
from tests.conftest import login
from tests.fixtures.games import at_night

LABELS = ("Workers", "Door", "Games", "Console", "Claims", "Flashboard", "Close")
NIGHT_PAGES = (
    "occasion_detail",
    "workers_present",
    "opening_checklist",
    "door_sales",
    "game_program",
    "occasion_close",
)


def _url(name: str, occasion: Occasion, **extra: int) -> str:
    return reverse(name, kwargs={"org_id": occasion.organization_id, "pk": occasion.pk} | extra)


def _bar(page: str) -> str:
    found = re.findall(r"<nav id=\"floor-bar\".*?</nav>", page, flags=re.S)
    assert len(found) == 1, "one floor bar, no second navigation of the night"
    assert "floor-nav" not in page
    return found[0]


def _labels(bar: str) -> list[str]:
    return re.findall(r'data-floor="[a-z]+"[^>]*>([^<]+)<', bar)


@pytest.fixture
def mic(client, tenant):
    login(client, tenant.member_in_charge)
    return client


def test_every_page_of_the_night_has_the_bar_with_the_game_in_play(mic, game_in_play):
    occasion = game_in_play.occasion
    console = _url("draw_console", occasion, game_pk=game_in_play.pk)
    claims = _url("game_claims", occasion, game_pk=game_in_play.pk)
    pages = [_url(name, occasion) for name in NIGHT_PAGES] + [console, claims]
    for url in pages:
        bar = _bar(mic.get(url).content.decode())
        assert _labels(bar) == list(LABELS), url
        assert "Game 3 in play" in bar and f'href="{claims}"' in bar, url
        go = f'href="{console}">Go to the console</a>'
        assert (go in bar) is (url != console), url  # not on the console itself


def test_the_next_step_is_not_offered_on_its_own_page(mic, game_in_play):
    """On the close page with every game played, "Next: close the occasion" would lead to itself."""
    Game.objects.filter(pk=game_in_play.pk).update(status=Game.Status.FINISHED)
    occasion = game_in_play.occasion
    close = _url("occasion_close", occasion)
    assert "Next: close the occasion" in _bar(
        mic.get(_url("door_sales", occasion)).content.decode()
    )
    assert "Next: close the occasion" not in _bar(mic.get(close).content.decode())


def test_the_console_and_the_claims_are_one_click_apart_both_ways(mic, game_in_play):
    occasion = game_in_play.occasion
    console = _url("draw_console", occasion, game_pk=game_in_play.pk)
    claims = _url("game_claims", occasion, game_pk=game_in_play.pk)
    bar = _bar(mic.get(console).content.decode())
    assert re.search(rf'href="{re.escape(claims)}" data-floor="claims"', bar)
    assert 'data-floor="console" aria-current="page"' in bar
    bar = _bar(mic.get(claims).content.decode())
    assert re.search(rf'href="{re.escape(console)}" data-floor="console"', bar)
    assert 'data-floor="claims" aria-current="page"' in bar


def test_a_finished_games_claims_page_leads_back_to_that_games_console(mic, game_in_play):
    occasion = game_in_play.occasion
    later = Game.objects.create(occasion=occasion, number=4, half=1, kind="regular")
    Game.objects.filter(pk=game_in_play.pk).update(status=Game.Status.FINISHED)
    claims = _url("game_claims", occasion, game_pk=game_in_play.pk)
    bar = _bar(mic.get(claims).content.decode())
    assert _url("draw_console", occasion, game_pk=game_in_play.pk) in bar
    assert "Next: game 4" in bar and later.pk != game_in_play.pk


def test_before_the_opening_the_next_step_is_to_open(mic, occasion, monkeypatch):
    # On the occasion's evening, before it opens (after its day it is "not opened on its night").
    evening = at_night(occasion, 18, 0)
    monkeypatch.setattr(django.utils.timezone, "now", lambda: evening)
    bar = _bar(mic.get(_url("workers_present", occasion)).content.decode())
    assert "Not open yet" in bar
    assert f'href="{_url("opening_checklist", occasion)}">Next: open the occasion' in bar
    assert 'data-floor="claims"' in bar and "disabled" in bar  # no game to claim in yet
    assert f'href="{_url("draw_home", occasion)}" data-floor="console"' in bar
    # The draw's picker, a page of the night with no game in play, has the bar too.
    bar = _bar(mic.get(_url("draw_home", occasion)).content.decode())
    assert _labels(bar) == list(LABELS) and "Not open yet" in bar


def test_with_every_game_played_the_next_step_is_the_close(mic, game_in_play):
    occasion = game_in_play.occasion
    Game.objects.filter(pk=game_in_play.pk).update(status=Game.Status.FINISHED)
    bar = _bar(mic.get(_url("door_sales", occasion)).content.decode())
    assert "All games played" in bar
    assert f'href="{_url("occasion_close", occasion)}">Next: close the occasion' in bar


def test_once_the_report_is_filed_nothing_is_next(mic, game_in_play):
    occasion = game_in_play.occasion
    Game.objects.filter(pk=game_in_play.pk).update(status=Game.Status.FINISHED)
    Occasion.objects.filter(pk=occasion.pk).update(
        status=Occasion.Status.CLOSED, closed_at=occasion.opened_at
    )
    bar = _bar(mic.get(_url("door_sales", occasion)).content.decode())
    assert "Next: close-out and report" in bar and "report filed" not in bar
    Occasion.objects.filter(pk=occasion.pk).update(sealed_at=occasion.opened_at)
    bar = _bar(mic.get(_url("door_sales", occasion)).content.decode())
    assert "report filed" in bar and "Next:" not in bar


def test_after_the_close_it_never_says_next_game(mic, game_in_play):
    occasion = game_in_play.occasion
    Game.objects.create(occasion=occasion, number=4, half=1, kind="regular")  # never played
    Game.objects.filter(pk=game_in_play.pk).update(status=Game.Status.FINISHED)
    Occasion.objects.filter(pk=occasion.pk).update(
        status=Occasion.Status.CLOSED, closed_at=occasion.opened_at
    )
    for name in ("occasion_detail", "occasion_close", "game_program"):
        bar = _bar(mic.get(_url(name, occasion)).content.decode())
        assert "Next: game" not in bar
        assert "Closed at 5:00 PM" in bar
        assert f'href="{_url("report_closeout", occasion)}">Next: close-out and report' in bar
        assert ">Close-out</a>" in bar


def test_an_inspector_sees_the_bar_and_no_write(client, inspector, game_in_play):
    occasion = game_in_play.occasion
    login(client, inspector)
    bar = _bar(client.get(_url("game_program", occasion)).content.decode())
    assert "Game 3 in play" in bar and "<form" not in bar and "<button" not in bar


def test_the_bar_reads_in_two_queries_however_long_the_program(game_in_play):
    """The games, and whether the whole night was entered from paper."""
    occasion = game_in_play.occasion

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            floor_bar(occasion, "games")
        return len(queries)

    small = count()
    Game.objects.bulk_create(
        Game(occasion=occasion, number=n, half=2, kind="regular") for n in range(4, 40)
    )
    assert count() == small == 2


# The summary before the close names the games left: in play, and never played with their prizes


def test_the_close_summary_names_the_game_in_play_and_the_special_never_played(mic, game_in_play):
    from decimal import Decimal

    from games.models import Arrangement, PrizePart
    from organizations.models import AuditEvent

    occasion = game_in_play.occasion
    special = Game.objects.create(occasion=occasion, number=5, half=2, kind="special")
    PrizePart.objects.create(
        game=special,
        order=1,
        arrangement=Arrangement.objects.get(code="four_corners"),
        amount=Decimal("150.00"),
    )
    events = AuditEvent.objects.count()
    page = mic.post(_url("occasion_close", occasion)).content.decode()
    assert "Close the occasion?" in page
    assert "It would be refused now" in page and "Finish game 3 before closing" in page
    assert "Game 5 (Special, $150.00 in prizes) was never played." in page
    occasion.refresh_from_db()
    assert occasion.status == Occasion.Status.OPEN and AuditEvent.objects.count() == events


def test_the_close_summary_reads_the_same_queries_at_two_program_sizes(game_in_play):
    from occasions.final_acts import close_summary

    occasion = game_in_play.occasion
    close_summary(occasion)  # the limits in force, kept in the cache by the first reader

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            close_summary(occasion)
        return len(queries)

    small = count()
    Game.objects.bulk_create(
        Game(occasion=occasion, number=n, half=2, kind="regular") for n in range(4, 40)
    )
    assert count() == small


def test_finishing_a_game_by_htmx_sends_the_bar_again_with_the_next_step(mic, game_in_play):
    occasion = game_in_play.occasion
    finish = _url("game_finish", occasion, game_pk=game_in_play.pk)
    page = mic.post(finish, {"confirmed": "yes"}, HTTP_HX_REQUEST="true").content.decode()
    bar = _bar(page)
    assert 'hx-swap-oob="true"' in bar and "All games played" in bar
    assert "Next: close the occasion" in bar


def test_the_bar_links_the_pages_above_occasions_only_as_they_offer_them(game_in_play, monkeypatch):
    """Occasions names no page of games or reports: they give their pages to the bar
    (``occasions.extensions.FLOOR_PAGES``); without them the bar shows the steps, no link."""
    from occasions import extensions

    occasion = game_in_play.occasion
    bar = floor_bar(occasion, "games")
    links = {link.key: link.url for link in bar.links}
    assert links["games"] == _url("game_program", occasion)
    assert links["console"] == _url("draw_console", occasion, game_pk=game_in_play.pk)
    assert links["claims"] == _url("game_claims", occasion, game_pk=game_in_play.pk)
    assert bar.next_url == links["console"]

    monkeypatch.setattr(extensions, "FLOOR_PAGES", {})
    bar = floor_bar(occasion, "games")
    links = {link.key: link.url for link in bar.links}
    assert links["games"] == links["console"] == links["claims"] == ""
    assert links["door"] == _url("door_sales", occasion)  # occasions' own pages stay
    assert (bar.now, bar.next_url) == ("Game 3 in play", "")
    with pytest.raises(ValueError, match="not a page of the floor bar"):
        extensions.add_floor_pages({"flashboard": lambda occasion, game_pk: "/"})
    with pytest.raises(ValueError, match="not a page of the floor bar"):
        extensions.floor_page("close", occasion)
