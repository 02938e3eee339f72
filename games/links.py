"""What the games add to the pages below them (``beano.links``)."""

from __future__ import annotations

from collections.abc import Callable

from django.urls import reverse

from beano.links import Link, occasion_page, org_page
from occasions.models import Occasion

LINKS = (
    Link("organization_tabs", "jackpots", "Jackpots", org_page("jackpot_list"), 50),
    Link("open_occasion_actions", "console", "Caller's console", occasion_page("draw_home"), 10),
    Link("open_occasion_actions", "program", "Program", occasion_page("game_program"), 20),
)


def _night(name: str, of_a_game: bool = False, start: str = "") -> Callable[..., str]:
    """The floor bar's link to the page ``name`` of the night (of its game, where the page is
    one game's; ``start`` without a game)."""

    def url(occasion: Occasion, game_pk: int | None = None) -> str:
        kwargs = {"org_id": occasion.organization_id, "pk": occasion.pk}
        if not of_a_game:
            return reverse(name, kwargs=kwargs)
        if game_pk is None:
            return reverse(start, kwargs=kwargs) if start else ""
        return reverse(name, kwargs=kwargs | {"game_pk": game_pk})

    return url


#: The games' pages on the floor bar of every page of the night (``occasions.floor_bar``).
FLOOR_PAGES = {
    "program": _night("game_program"),
    "console": _night("draw_console", of_a_game=True, start="draw_home"),
    "claims": _night("game_claims", of_a_game=True),
}
