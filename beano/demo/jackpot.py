"""Demo data for progressive jackpots (game 13 of the sample night): a coverall series,
$1,500 now, +$100 each week it is not won, up to $3,000, within 52 numbers, with a $100
consolation to the first coverall after the limit. Each closed night carries it over (no
coverall within 52 numbers, consolation paid); an open or coming night carries the jackpot
into its game, its outcome left to the member in charge. Idempotent."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal

from django.db.models import Max
from django.utils import timezone

from beano.rules.jackpots import JackpotMode
from games import jackpot_selectors, jackpot_services, jackpot_settlement
from games.models import Arrangement, Game, ProgressiveGame, ProgressiveSeries
from occasions.models import Occasion
from organizations.models import Organization

SERIES_NAME = "Coverall jackpot"
RULES_TEXT = (
    "Game 13, coverall within 52 numbers: $1,500 now, +$100 each week it is not won, up to "
    "$3,000. If no coverall within 52 numbers, $100 consolation to the first coverall after the "
    "limit, and the jackpot carries to next week. These rules stand until the jackpot is won."
)
GAME_NUMBER = 13


def _series(organization: Organization, started_on: dt.date) -> ProgressiveSeries:
    existing = ProgressiveSeries.objects.filter(organization=organization, name=SERIES_NAME).first()
    if existing is not None:
        return existing
    return jackpot_services.start_series(
        organization=organization,
        name=SERIES_NAME,
        mode=JackpotMode.GROWING_JACKPOT,
        starting_amount=Decimal("1500.00"),
        increment=Decimal("100.00"),
        cap=Decimal("3000.00"),
        arrangement=Arrangement.objects.get(code="coverall"),
        calls_allowed=52,
        calls_increment=0,
        consolation_amount=Decimal("100.00"),
        rules_text=RULES_TEXT,
        started_on=started_on,
        by=None,
    )


def _progressive_game(occasion: Occasion) -> Game:
    """The occasion's progressive game, or game 13 of the second half as in the sample night."""
    game = (
        Game.objects.filter(occasion=occasion, kind=Game.Kind.PROGRESSIVE)
        .order_by("number")
        .first()
    )
    if game is not None:
        return game
    number = GAME_NUMBER
    if Game.objects.filter(occasion=occasion, number=number).exists():
        number = (Game.objects.filter(occasion=occasion).aggregate(n=Max("number"))["n"] or 0) + 1
    return Game.objects.create(occasion=occasion, number=number, half=2, kind=Game.Kind.PROGRESSIVE)


def seed_jackpot(
    organization: Organization, occasions_in_order: Sequence[Occasion]
) -> ProgressiveSeries | None:
    """The sample series over the given occasions, oldest first."""
    played = [o for o in occasions_in_order if o.status != Occasion.Status.NOT_PLAYED]
    if not played:
        return None
    series = _series(organization, min(played[0].date, timezone.localdate()))
    for occasion in played:
        game = _progressive_game(occasion)
        pg = ProgressiveGame.objects.filter(game=game).first()
        if pg is None:
            if not series.is_active or series.started_on > occasion.date:
                continue
            if jackpot_selectors.pending_game(series) is not None:
                break  # an earlier night's outcome is still to be recorded
            pg = jackpot_services.attach_game(game=game, series=series, by=None)
        if occasion.status == Occasion.Status.CLOSED and not pg.is_settled:
            jackpot_settlement.settle_game(
                progressive_game=pg, won_within_calls=False, consolation_paid=True, by=None
            )
        series.refresh_from_db()
    return series
