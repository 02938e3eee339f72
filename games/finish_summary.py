"""The summary shown before a game is finished (``occasions.confirm``): what finishing does,
the prizes with no winner recorded yet, in one query."""

from __future__ import annotations

from django.db.models import Count
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from beano.rules.money import usd
from games.models import Game, PrizePart
from occasions.confirm import Confirmation


def finish_summary(game: Game) -> Confirmation:
    occasion = game.occasion
    kwargs = {"org_id": occasion.organization_id, "pk": occasion.pk, "game_pk": game.pk}
    parts = (
        PrizePart.objects.filter(game=game)
        .select_related("arrangement")
        .annotate(winners=Count("claims__winner"))
        .order_by("order")
    )
    unfinished = [
        f"No winner is recorded for {p.arrangement.name} ({usd(p.amount)})."
        for p in parts
        if not p.winners
    ]
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
        unfinished=tuple(unfinished),
        corrections=(
            "A finished game cannot be put back in play. The winners of claims already made are "
            f"still recorded and paid on game {game.number}'s Claims page.",
        ),
    )
