"""The one way a view finds a game of an occasion: as the organization's (404 for another's,
the same answer as "does not exist"), with what the page reads of it joined in."""

from __future__ import annotations

from games.models import Game
from occasions.models import Occasion
from organizations.access import OrgAccess, get_for_org


def get_game(
    access: OrgAccess,
    occasion: Occasion | int,
    game_pk: int,
    *,
    related: tuple[str, ...] = ("occasion",),
) -> Game:
    """Game ``game_pk`` of ``occasion`` (one already read as the organization's, or its id), in
    one query."""
    of = {"occasion": occasion} if isinstance(occasion, Occasion) else {"occasion_id": occasion}
    return get_for_org(
        Game.objects.select_related(*related),
        access,
        via="occasion__organization",
        pk=game_pk,
        **of,
    )
