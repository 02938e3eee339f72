"""The occasion page's progressive jackpot card reads the occasion's progressive games through
this tag, so the occasion page's view does not need to know about them."""

from __future__ import annotations

from django import template

from games.jackpot_selectors import progressive_games
from games.models import Game
from occasions.models import Occasion

register = template.Library()


@register.simple_tag(name="occasion_progressive_games")
def occasion_progressive_games(occasion: Occasion) -> list[Game]:
    return list(progressive_games(occasion))
