"""What the games leave unsettled at an occasion (registered from ``GamesConfig.ready()`` through
``occasions.extensions.NIGHT_LEFT``): the winners not paid their whole share, whom the rules
judge at the close (961 CMR 3.04(6)(f)); the prizes of finished games with no winner recorded;
the games never played. Each with where it is put right, in three queries however many games
and winners the night has."""

from __future__ import annotations

from django.db.models import Count, F, Q
from django.urls import reverse

from beano.rules.claims import OwedPrize
from beano.rules.money import usd
from games.models import Game, PrizePart, ProgressiveGame, Winner
from games.occasion_sections import floor_games
from occasions.confirm import Left
from occasions.extensions import NightLeft, Owed
from occasions.models import Occasion

#: A progressive game whose outcome is recorded says why its jackpot went to no one.
_SETTLED = (
    ProgressiveGame.Outcome.WON,
    ProgressiveGame.Outcome.CONSOLATION,
    ProgressiveGame.Outcome.NOT_WON,
)


def _claims_url(occasion: Occasion, game_pk: int) -> str:
    kwargs = {"org_id": occasion.organization_id, "pk": occasion.pk, "game_pk": game_pk}
    return reverse("game_claims", kwargs=kwargs)


def _program_url(occasion: Occasion) -> str:
    return reverse("game_program", kwargs={"org_id": occasion.organization_id, "pk": occasion.pk})


def owed_winners(occasion: Occasion, game: Game | None = None) -> tuple[Owed, ...]:
    """The winners of the night (or of ``game``) with no payout, or paid less than their share,
    each with the payout form on its game's claims page (one query)."""
    winners = Winner.objects.filter(claim__game__occasion=occasion).filter(
        Q(payout__isnull=True) | Q(payout__amount__lt=F("share"))
    )
    if game is not None:
        winners = winners.filter(claim__game=game)
    rows = winners.order_by(
        "claim__game__number", "claim__part__order", "claim__claimed_at", "pk"
    ).values(
        "pk",
        "player_name",
        "share",
        "kind",
        "payout__amount",
        "claim__game_id",
        "claim__game__number",
        "claim__part__order",
    )
    return tuple(
        Owed(
            prize=OwedPrize(
                game_number=r["claim__game__number"],
                part_order=r["claim__part__order"],
                player_name=r["player_name"],
                share=r["share"],
                paid=r["payout__amount"],
                merchandise=r["kind"] == Winner.Kind.MERCHANDISE,
            ),
            where=(
                f"Pay on game {r['claim__game__number']}'s claims",
                f"{_claims_url(occasion, r['claim__game_id'])}#payout_{r['pk']}",
            ),
        )
        for r in rows
    )


def prizes_not_awarded(occasion: Occasion, game: Game | None = None) -> tuple[Left, ...]:
    """The prizes of the finished games (or of ``game``, whatever its status) with no winner
    recorded, a progressive game whose outcome is recorded aside: that outcome says why (one
    query)."""
    parts = PrizePart.objects.filter(game__occasion=occasion)
    if game is not None:
        parts = parts.filter(game=game)
    else:
        parts = parts.filter(game__status=Game.Status.FINISHED)
    rows = (
        parts.exclude(game__progressive__outcome__in=_SETTLED)
        .annotate(winners=Count("claims__winner"))
        .filter(winners=0)
        .order_by("game__number", "order")
        .values("game_id", "game__number", "order", "arrangement__name", "amount")
    )
    return tuple(
        Left(
            f"No winner is recorded for {r['arrangement__name']} ({usd(r['amount'])})."
            if game is not None
            else f"Prize {r['order']} of game {r['game__number']} ({r['arrangement__name']}, "
            f"{usd(r['amount'])}) has no winner recorded.",
            ((f"Game {r['game__number']}'s claims", _claims_url(occasion, r["game_id"])),),
        )
        for r in rows
    )


def night_left(occasion: Occasion) -> NightLeft:
    """The winners owed, the prizes not awarded and the games never played (three queries)."""
    games = floor_games(occasion)
    program = _program_url(occasion)
    never_played = tuple(
        Left(
            f"Game {g.number} ({g.name}"
            + (f", {usd(g.prizes)} in prizes" if g.prizes else "")
            + ") was never played.",
            (("Games", program),),
        )
        for g in games.never_played
    )
    in_play = games.in_play
    return NightLeft(
        owed=owed_winners(occasion),
        lines=prizes_not_awarded(occasion) + never_played,
        finish=(f"Finish game {in_play.number} on the Games page", f"{program}#game-{in_play.pk}")
        if in_play is not None
        else None,
    )
