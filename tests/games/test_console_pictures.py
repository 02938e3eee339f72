"""The caller's console draws every way the game's arrangement wins, as the flashboard does and
with the same tag (``pictures`` in games/templatetags/draw_tags.py) and script
(static/js/pictures.js): "any single line" is its five rows, five columns and two diagonals, not
the top row alone."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from beano.rules.cards import COLUMNS, ROWS
from games.models import Arrangement, PrizePart
from tests.conftest import login

PICTURE = re.compile(r'<div class="arr-pic arr-pic-console[^"]*" aria-hidden="true">(.*?)</div>')
SQUARE = re.compile(r'<span class="arr-(on|off|free)"></span>')


def _console(game) -> str:
    return reverse(
        "draw_console",
        kwargs={
            "org_id": game.occasion.organization_id,
            "pk": game.occasion_id,
            "game_pk": game.pk,
        },
    )


def _drawn(page: str) -> list[frozenset[str]]:
    """Each picture on the page as the squares it lights (the free centre counts as lit)."""
    pictures = []
    for body in PICTURE.findall(page):
        squares = SQUARE.findall(body)
        assert len(squares) == 25, body
        names = [f"{c}{r}" for r in ROWS for c in COLUMNS]
        pictures.append(frozenset(n for n, s in zip(names, squares, strict=True) if s != "off"))
    return pictures


def _ways(arrangement: Arrangement) -> set[frozenset[str]]:
    return {frozenset(v) | {"N3"} for v in arrangement.variants}


@pytest.fixture
def caller(client, tenant):
    login(client, tenant.worker)
    return client


def test_the_console_draws_each_of_the_twelve_single_lines(caller, draw_game):
    arrangement = draw_game.parts.get().arrangement
    assert len(arrangement.variants) == 12
    page = caller.get(_console(draw_game)).content.decode()
    drawn = _drawn(page)
    assert len(drawn) == 12 and set(drawn) == _ways(arrangement)
    assert page.count('class="arr-pic arr-pic-console is-shown"') == 1  # one shown at a time
    assert "12 ways to win, shown in turn" in page
    label = f"{arrangement.name}: 12 ways, shown in turn; press to hold the picture shown"
    assert f'role="button" tabindex="0" aria-pressed="false" aria-label="{label}"' in page
    assert "js/pictures.js" in page and "css/pictures.css" in page


def test_the_flashboard_draws_the_same_pictures_from_the_same_template(
    caller, client, tenant, draw_game
):
    from games.draw_services import issue_flashboard_link

    flash = issue_flashboard_link(occasion=draw_game.occasion, by=tenant.member_in_charge)
    console = _drawn(caller.get(_console(draw_game)).content.decode())
    board = client.get(reverse("flashboard", args=[flash.token])).content.decode()
    flash_pictures = [
        frozenset(
            f"{c}{r}"
            for (c, r), s in zip(
                [(c, r) for r in ROWS for c in COLUMNS], SQUARE.findall(body), strict=True
            )
            if s != "off"
        )
        for body in re.findall(
            r'<div class="arr-pic arr-pic-flash[^"]*" aria-hidden="true">(.*?)</div>', board
        )
    ]
    assert flash_pictures == console
    assert "js/pictures.js" in board


def test_an_arrangement_of_one_way_is_one_picture_with_no_cycle_caption(caller, draw_game, tenant):
    cover_all, _ = Arrangement.objects.get_or_create(
        code="test_cover_all",
        defaults={
            "name": "Cover all",
            "variants": [sorted(f"{c}{r}" for c in COLUMNS for r in ROWS if f"{c}{r}" != "N3")],
        },
    )
    PrizePart.objects.filter(game=draw_game).update(arrangement=cover_all)
    page = caller.get(_console(draw_game)).content.decode()
    drawn = _drawn(page)
    assert drawn == [frozenset(f"{c}{r}" for c in COLUMNS for r in ROWS)]
    assert "ways to win" not in page


def test_a_two_line_game_draws_twelve_of_its_ways_evenly_spread(caller, draw_game):
    """ "Any two lines" wins 66 ways; a dozen of them, evenly spread, as the flashboard shows."""
    from beano.rules.cards import COMMON_ARRANGEMENTS
    from games.templatetags.draw_tags import MOST_PICTURES

    name, variants = COMMON_ARRANGEMENTS["two_lines"]
    two_lines, _ = Arrangement.objects.get_or_create(
        code="two_lines", defaults={"name": name, "variants": [sorted(v) for v in variants]}
    )
    PrizePart.objects.filter(game=draw_game).update(arrangement=two_lines)
    page = caller.get(_console(draw_game)).content.decode()
    drawn = _drawn(page)
    assert len(drawn) == MOST_PICTURES and len(set(drawn)) == MOST_PICTURES
    assert set(drawn) <= _ways(two_lines)
    assert f"{len(two_lines.variants)} ways to win, shown in turn" in page


def test_pictures_kept_between_answers_follow_the_arrangement_and_escape_its_name(
    caller, draw_game
):
    """The pictures are drawn once per process for an arrangement as it stands: a changed name or
    way is drawn again at the next answer, and the name is escaped."""
    arrangement = draw_game.parts.get().arrangement
    assert len(_drawn(caller.get(_console(draw_game)).content.decode())) == 12
    Arrangement.objects.filter(pk=arrangement.pk).update(
        name="Top <line>", variants=[["B1", "I1", "N1", "G1", "O1"]]
    )
    page = caller.get(_console(draw_game)).content.decode()
    assert _drawn(page) == [frozenset({"B1", "I1", "N1", "G1", "O1", "N3"})]
    assert 'role="img" aria-label="Top &lt;line&gt;"' in page and "<line>" not in page
