"""What the games leave unsettled at an occasion (registered from ``GamesConfig.ready()`` through
``occasions.extensions.NIGHT_LEFT``): the winners not paid their whole share, whom the rules
judge at the close (961 CMR 3.04(6)(f)); the prizes of finished games with no winner recorded;
the games never played. Each with where it is put right, in three queries however many games
and winners the night has."""

from __future__ import annotations

from decimal import Decimal

from django.db.models import Count, F, Q
from django.urls import reverse

from beano.rules.close import OwedPrize
from beano.rules.money import usd
from games.models import Game, PrizePart, ProgressiveGame, Winner
from games.occasion_sections import floor_games
from occasions.confirm import Left
from occasions.extensions import FloorGames, NightLeft, Owed
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


def _numbers(numbers: list[int]) -> str:
    """Game numbers as a person writes them: 5–14, or 5, 6, 8 and 10–12."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    parts: list[str] = []
    for r in runs:
        parts += [f"{r[0]}–{r[-1]}"] if len(r) > 2 else [str(n) for n in r]
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def _never_played(games: FloorGames, program: str) -> tuple[Left, ...]:
    """The games never played, in one line: a night cut short leaves many."""
    never = games.never_played
    if not never:
        return ()
    if len(never) == 1:
        g = never[0]
        prizes = f", {usd(g.prizes)} in prizes" if g.prizes else ""
        text = f"Game {g.number} ({g.name}{prizes}) was never played."
    else:
        total = sum((g.prizes for g in never), Decimal("0"))
        text = (
            f"Games {_numbers([g.number for g in never])} were never played "
            f"({usd(total)} in prizes)."
        )
    return (Left(text, (("Games", program),)),)


def night_left(occasion: Occasion) -> NightLeft:
    """The winners owed, the prizes not awarded and the games never played (three queries)."""
    games = floor_games(occasion)
    program = _program_url(occasion)
    in_play = games.in_play
    return NightLeft(
        owed=owed_winners(occasion),
        lines=prizes_not_awarded(occasion) + _never_played(games, program),
        finish=(f"Finish game {in_play.number} on the Games page", f"{program}#game-{in_play.pk}")
        if in_play is not None
        else None,
    )
