"""Reads of an occasion's program: its games and prize parts, the arrangements the Director has
authorized for the organization on a date, the winner-take-all prize from the door's receipts,
and the facts the rules judge the program's acts by."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Max, Prefetch, Q, QuerySet, Sum

from beano.rules.limits import limits_in_force
from beano.rules.operation import (
    ArrangementFacts,
    HalfFacts,
    OccasionPlayFacts,
    ReceptacleFacts,
    StartFacts,
)
from beano.rules.prizes import WinnerTakeAllFacts, winner_take_all_figure
from games.models import (
    Arrangement,
    ArrangementAuthorization,
    BallCall,
    CardVerification,
    Claim,
    DrawVerification,
    Game,
    Payout,
    PrizePart,
    Winner,
)
from occasions.models import Occasion, PriceListItem
from occasions.sales_selectors import door_counts
from occasions.services import status_at
from organizations.models import Organization

ZERO = Decimal("0.00")


def _valid_on(day: dt.date) -> Q:
    """An authorization valid on ``day``: begun, not ended, not revoked by then."""
    return (
        Q(authorization__valid_from__lte=day)
        & (Q(authorization__valid_to__isnull=True) | Q(authorization__valid_to__gte=day))
        & (Q(authorization__revoked_on__isnull=True) | Q(authorization__revoked_on__gt=day))
    )


def authorized_arrangement_codes(organization: Organization, day: dt.date) -> frozenset[str]:
    """The codes of the arrangements named in the organization's authorizations of permissible
    winning arrangements valid on ``day`` (961 CMR 3.04(6)(c))."""
    return frozenset(
        ArrangementAuthorization.objects.filter(
            _valid_on(day),
            authorization__organization=organization,
            authorization__kind="6c_arrangement",
        ).values_list("arrangement__code", flat=True)
    )


def authorized_arrangements(organization: Organization, day: dt.date) -> QuerySet[Arrangement]:
    return Arrangement.objects.filter(
        code__in=authorized_arrangement_codes(organization, day)
    ).order_by("name")


def program(occasion: Occasion) -> list[Game]:
    """The occasion's games in their order, each with its parts and their arrangements."""
    parts = PrizePart.objects.select_related("arrangement", "announced_by").order_by("order")
    return list(
        Game.objects.filter(occasion=occasion)
        .select_related("balls_confirmed_by")
        .prefetch_related(Prefetch("parts", queryset=parts))
        .order_by("number")
    )


def part_is_announced(part: PrizePart) -> bool:
    """Whether this prize part's arrangement and amount were announced (961 CMR 3.04(6)(b)):
    each part of a game is announced before it is played, so a claim on a part is judged only
    once the part is announced."""
    return part.announced_at is not None


def winner_take_all_receipts(occasion: Occasion) -> Decimal:
    """The receipts of the occasion's winner-take-all cards, voided sales left out. The door
    counts them in one category, so they are the receipts of the occasion's one winner-take-all
    game."""
    category = PriceListItem.Category.WINNER_TAKE_ALL
    return next(
        (c.amount for c in door_counts(occasion).categories if c.category == category), ZERO
    )


def winner_take_all_prize(occasion: Occasion) -> Decimal:
    """The occasion's winner-take-all prize (961 CMR 3.04(8)(a)3): the receipts of its cards less
    10 %, rounded to the cent, half up, within the maximum single-game prize in force on the
    occasion's date."""
    return winner_take_all_figure(
        winner_take_all_receipts(occasion), limits_in_force(occasion.date)
    )


def bonus_card_price(occasion: Occasion) -> Decimal | None:
    """The lowest price of a bonus card on the occasion's price list, or None if none is posted."""
    prices = occasion.price_items.filter(category=PriceListItem.Category.BONUS).values_list(
        "price", flat=True
    )
    return min(prices, default=None)


@dataclass(frozen=True)
class PrizeTotals:
    game_prize: Decimal  # the game's parts that are not bonus prizes
    game_bonus: Decimal
    occasion_prizes: Decimal  # every part of every game


def prize_totals(game: Game) -> PrizeTotals:
    row = PrizePart.objects.filter(game__occasion_id=game.occasion_id).aggregate(
        prize=Sum("amount", filter=Q(game=game, is_bonus=False)),
        bonus=Sum("amount", filter=Q(game=game, is_bonus=True)),
        occasion=Sum("amount"),
    )
    return PrizeTotals(row["prize"] or ZERO, row["bonus"] or ZERO, row["occasion"] or ZERO)


def arrangement_facts(arrangement: Arrangement, occasion: Occasion) -> ArrangementFacts:
    return ArrangementFacts(
        code=arrangement.code,
        name=arrangement.name,
        authorized_codes=authorized_arrangement_codes(occasion.organization, occasion.date),
    )


def occasion_play_facts(occasion: Occasion, moment: dt.datetime) -> OccasionPlayFacts:
    """Where the occasion stood at the act's moment (now, for a live act)."""
    return OccasionPlayFacts(occasion_status=status_at(occasion, moment))


def receptacle_facts(game: Game, moment: dt.datetime) -> ReceptacleFacts:
    """The receptacle as of ``moment``: another game in play then (begun and not yet finished),
    and the last game finished before it. A game entered from paper after later games were
    recorded live is judged among the games as they stood at its own time."""
    others = Game.objects.filter(occasion_id=game.occasion_id).exclude(pk=game.pk)
    begun_by_then = Q(started_at__lte=moment) & (
        Q(finished_at__gt=moment) | Q(finished_at__isnull=True, status=Game.Status.IN_PLAY)
    )
    in_play = (
        others.filter(begun_by_then | Q(status=Game.Status.IN_PLAY, started_at__isnull=True))
        .order_by("number")
        .first()
    )
    return ReceptacleFacts(
        game_number=game.number,
        balls_confirmed_at=game.balls_confirmed_at,
        game_in_play=in_play.number if in_play else None,
        last_game_finished_at=others.filter(finished_at__lte=moment).aggregate(
            last=Max("finished_at")
        )["last"],
    )


def start_facts(game: Game) -> StartFacts:
    parts = list(game.parts.order_by("order"))
    return StartFacts(
        game_number=game.number,
        parts=len(parts),
        first_part_announced=bool(parts) and part_is_announced(parts[0]),
        bonus_parts_not_announced=tuple(
            p.order for p in parts if p.is_bonus and not part_is_announced(p)
        ),
    )


def half_facts(game: Game, occasion: Occasion, moment: dt.datetime) -> HalfFacts:
    started = occasion.second_half_started_at
    return HalfFacts(
        game_number=game.number,
        half=game.half,
        second_half_started=started is not None and started <= moment,
    )


def winner_take_all_facts(
    game: Game, amount: Decimal | None, other_parts: int
) -> WinnerTakeAllFacts:
    is_wta = game.kind == Game.Kind.WINNER_TAKE_ALL
    return WinnerTakeAllFacts(
        game_number=game.number,
        winner_take_all=is_wta,
        amount=amount,
        other_parts=other_parts,
        receipts=winner_take_all_receipts(game.occasion) if is_wta else ZERO,
    )


@dataclass(frozen=True)
class ProgramSummary:
    """The occasion page's card: how far the night's program has gone."""

    games: int
    finished: int
    in_play: Game | None
    next_game: Game | None
    total_prizes: Decimal


def program_summary(occasion: Occasion) -> ProgramSummary:
    games = list(Game.objects.filter(occasion=occasion).order_by("number"))
    total = PrizePart.objects.filter(game__occasion=occasion).aggregate(t=Sum("amount"))["t"]
    return ProgramSummary(
        games=len(games),
        finished=sum(1 for g in games if g.status == Game.Status.FINISHED),
        in_play=next((g for g in games if g.status == Game.Status.IN_PLAY), None),
        next_game=next((g for g in games if g.status == Game.Status.PLANNED), None),
        total_prizes=total or ZERO,
    )


#: The records of a game, the path from each to its game, and the moments they state.
_GAME_MOMENTS: tuple[tuple[type, str, tuple[str, ...]], ...] = (
    (Game, "pk", ("balls_confirmed_at", "started_at", "finished_at")),
    (PrizePart, "game", ("announced_at",)),
    (BallCall, "game", ("called_at", "voided_at")),
    (Claim, "game", ("claimed_at",)),
    (DrawVerification, "claim__game", ("verified_at",)),
    (CardVerification, "claim__game", ("verified_at",)),
    (Winner, "claim__game", ("recorded_at",)),
    (Payout, "winner__claim__game", ("paid_at",)),
)


def last_acts(games: QuerySet[Game]) -> dict[int, dt.datetime]:
    """The latest moment each game's records state (its start, balls, claims, verifications,
    winners and payouts), by game: a game finished after the fact, or a night closed after it,
    comes no earlier. One query per kind of record, however many games."""
    latest: dict[int, dt.datetime] = {}
    for model, path, fields in _GAME_MOMENTS:
        rows = (
            model.objects.filter(**{f"{path}__in": games})
            .order_by()
            .values(path)
            .annotate(**{f"last_{name}": Max(name) for name in fields})
        )
        for row in rows:
            game_id = row.pop(path)
            for moment in row.values():
                if moment is not None and (game_id not in latest or moment > latest[game_id]):
                    latest[game_id] = moment
    return latest


def last_act(occasion: Occasion) -> dt.datetime | None:
    """The latest moment any game of the occasion records (read by the close, see
    ``occasions.extensions.LAST_ACT_READERS``)."""
    return max(last_acts(Game.objects.filter(occasion=occasion)).values(), default=None)
