"""The summary shown before a game is finished (``occasions.confirm``): what finishing does, and
what the game leaves unsettled, each with where it is put right: its winners not paid their
whole share, its prizes with no winner recorded. Finishing ends the draw, not the payouts, so
these are listed, not refused; a game no longer in play offers no "Yes". Two queries."""

from __future__ import annotations

from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from beano.rules.money import usd
from games.models import Game
from games.night_left import owed_winners, prizes_not_awarded
from occasions.confirm import Confirmation, Left


def _owed(game: Game) -> list[Left]:
    lines = []
    for owed in owed_winners(game.occasion, game):
        o = owed.prize
        who = o.player_name or "A winner"
        paid = f", paid {usd(o.paid)}" if o.paid else ""
        lines.append(
            Left(
                f"{who} won {usd(o.share)} (prize {o.part_order}){paid}: "
                f"{usd(o.share - (o.paid or 0))} is not paid yet; the close waits for it.",
                (owed.where,),
            )
        )
    return lines


def finish_summary(game: Game) -> Confirmation:
    occasion = game.occasion
    kwargs = {"org_id": occasion.organization_id, "pk": occasion.pk, "game_pk": game.pk}
    refused = ()
    if game.status != Game.Status.IN_PLAY:
        refused = (
            f"Game {game.number} is {game.get_status_display().lower()}: only a game in play "
            "finishes.",
        )
    now = date_format(timezone.localtime(timezone.now()), "g:i A")
    return Confirmation(
        title=f"Finish game {game.number}?",
        button=f"Yes, finish game {game.number}",
        action=reverse("game_finish", kwargs=kwargs),
        back=reverse(
            "game_program", kwargs={"org_id": occasion.organization_id, "pk": occasion.pk}
        ),
        target="#program-panel",
        does=(
            f"Finish game {game.number} at {now}: no more balls are called in it and no new "
            "claim is taken; its balls may go back in the receptacle.",
        ),
        unfinished=tuple(_owed(game)) + prizes_not_awarded(occasion, game),
        refused=refused,
        corrections=(
            "A finished game cannot be put back in play. The winners of claims already made are "
            f"still recorded and paid on game {game.number}'s Claims page.",
        ),
    )
