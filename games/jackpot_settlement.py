"""The outcome of a progressive game in its series' ledger (961 CMR 3.04(8)(a)2): won within the
calls, a consolation paid, or carried out whole to the next occasion. The series' other writes
(start, change its rules, attach a game) are in ``games.jackpot_services``.

Like them, the write runs in ``rules.atomic()``: it locks the series then its game, has the rules
judge the facts before anything is saved, saves, and appends its audit event."""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.utils import timezone

from beano import locking, rules
from beano.actors import Actor
from beano.rules.jackpots import SETTLE_GAME, SettleFacts
from games.claims_selectors import counted_balls
from games.models import (
    BallCall,
    JackpotLedgerEntry,
    PrizePart,
    ProgressiveGame,
    ProgressiveSeries,
    Winner,
)
from occasions.models import Occasion
from occasions.services import refuse_if_sealed
from organizations.audit import acting_user, record_event, snapshot


def _jackpot_winners(pg: ProgressiveGame) -> tuple[str, ...]:
    """The players recorded as winning the game's jackpot (its first prize) within the calls."""
    part = PrizePart.objects.filter(game_id=pg.game_id).order_by("order", "pk").first()
    if part is None:
        return ()
    winners = Winner.objects.filter(claim__part=part).select_related("claim")
    return tuple(
        w.player_name
        for w in winners.order_by("claim__claimed_at", "pk")
        if len(counted_balls(w.claim)) <= pg.calls_allowed
    )


def _settle_facts(
    pg: ProgressiveGame, series: ProgressiveSeries, won_within_calls: bool, consolation_paid: bool
) -> SettleFacts:
    return SettleFacts(
        game_number=pg.game.number,
        won_within_calls=bool(won_within_calls),
        consolation_paid=bool(consolation_paid),
        consolation_announced=series.consolation_amount,
        calls_allowed=pg.calls_allowed,
        draw_recorded=BallCall.objects.filter(game=pg.game, voided_at__isnull=True).exists(),
        jackpot_winners=_jackpot_winners(pg),
    )


def _settlement(
    pg: ProgressiveGame, series: ProgressiveSeries, won_within_calls: bool, consolation_paid: bool
) -> tuple[str, str, Decimal, Decimal, Decimal]:
    """The game's outcome and its ledger line: what was paid, and of what kind; what was added
    to the jackpot and what is carried out to the next occasion."""
    growth = pg.jackpot_amount - pg.carried_in
    if won_within_calls:
        return (
            ProgressiveGame.Outcome.WON,
            JackpotLedgerEntry.Paid.JACKPOT,
            growth,
            pg.jackpot_amount,
            Decimal("0.00"),
        )
    if consolation_paid:
        consolation = series.consolation_amount
        return (
            ProgressiveGame.Outcome.CONSOLATION,
            JackpotLedgerEntry.Paid.CONSOLATION,
            growth + consolation,
            consolation,
            pg.jackpot_amount,
        )
    return (
        ProgressiveGame.Outcome.NOT_WON,
        JackpotLedgerEntry.Paid.NOTHING,
        growth,
        Decimal("0.00"),
        pg.jackpot_amount,
    )


@rules.atomic()
def settle_game(
    *,
    progressive_game: ProgressiveGame,
    won_within_calls: bool,
    consolation_paid: bool,
    by: Actor,
) -> JackpotLedgerEntry:
    """Record the outcome in the series' ledger (3.04(8)(a)2): a jackpot won within the calls
    is paid and the series is won, nothing carried out; otherwise the jackpot is carried out
    whole to the next occasion, where the increment is added. A consolation is funded and paid
    that night and does not reduce the jackpot. The outcome is the game's: won only when the
    winner of the jackpot is recorded within the calls (once balls are on record), never carried
    over when one is."""
    # The series first, then its game: the order every jackpot service locks in, so two of them
    # acting on one series wait for each other instead of deadlocking.
    series_id = ProgressiveGame.objects.values_list("series_id", flat=True).get(
        pk=progressive_game.pk
    )
    series = locking.lock(ProgressiveSeries.objects).get(pk=series_id)
    pg = locking.lock(
        ProgressiveGame.objects.select_related("game", "occasion"), "game", "occasion"
    ).get(pk=progressive_game.pk)
    occasion = Occasion.objects.get(pk=pg.occasion_id)
    refuse_if_sealed(occasion)
    if pg.is_settled:
        raise ValidationError(f"The outcome of game {pg.game.number} is already recorded.")
    if occasion.opened_at is None or occasion.status not in (
        Occasion.Status.OPEN,
        Occasion.Status.CLOSED,
    ):
        raise ValidationError("The occasion has not been opened: its games have not been played.")
    rules.enforce(
        SETTLE_GAME,
        _settle_facts(pg, series, won_within_calls, consolation_paid),
        on=occasion.date,
        actor=by,
        organization=series.organization,
    )
    outcome, paid_kind, added, paid, carried_out = _settlement(
        pg, series, won_within_calls, consolation_paid
    )
    now = timezone.now()
    actor = acting_user(by)
    entry = JackpotLedgerEntry.objects.create(
        series=series,
        occasion=occasion,
        game=pg,
        carried_in=pg.carried_in,
        added=added,
        paid=paid,
        paid_kind=paid_kind,
        carried_out=carried_out,
        recorded_at=now,
        recorded_by=actor,
    )
    pg.outcome, pg.closed_at, pg.closed_by = outcome, now, actor
    pg.save(update_fields=["outcome", "closed_at", "closed_by"])
    if won_within_calls:
        series.status, series.won_on = ProgressiveSeries.Status.WON, occasion.date
        series.save(update_fields=["status", "won_on"])
    record_event(
        organization=series.organization,
        actor=by,
        action="games.progressive_game.settled",
        target=pg,
        old={"outcome": ProgressiveGame.Outcome.PENDING},
        new={
            "outcome": outcome,
            **snapshot(entry, ["carried_in", "added", "paid", "paid_kind", "carried_out"]),
            "series_status": series.status,
        },
    )
    return entry
