"""Writes of progressive jackpot series (961 CMR 3.04(6)(h), (8)(a)2): start a series under its
announced rules, change them while that is still allowed, carry the jackpot into an occasion's
progressive game. The game's outcome in the series' ledger is ``games.jackpot_settlement``.

Each write runs in ``rules.atomic()``: it locks what it changes, gathers the facts, has the rules
judge them before anything is saved, saves, and appends its audit event. A refusal raises
``RuleViolation`` (every message begins with its citation) and is logged after the rollback."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone

from beano import locking, rules
from beano.actors import Actor
from beano.rules.jackpots import (
    ATTACH_GAME,
    CHANGE_SERIES_RULES,
    START_SERIES,
    JackpotMode,
    ProgressiveGameFacts,
    SeriesChangeFacts,
    SeriesRulesFacts,
)
from beano.rules.money import JACKPOT, money, optional_money, usd
from beano.rules.operation import ArrangementFacts
from beano.text import text
from games import jackpot_selectors as selectors
from games.models import (
    Arrangement,
    Game,
    PrizePart,
    ProgressiveGame,
    ProgressiveSeries,
)
from games.program_selectors import authorized_arrangement_codes
from occasions import live
from occasions.models import Occasion
from occasions.services import refuse_if_sealed
from organizations.audit import acting_user, changed, record_event, snapshot
from organizations.models import Organization

#: The announced rules of a series: what a change may touch, and what the audit shows.
RULE_FIELDS = (
    "mode",
    "starting_amount",
    "increment",
    "cap",
    "arrangement",
    "calls_allowed",
    "calls_increment",
    "consolation_amount",
    "rules_text",
)
#: The rules of a series as a refusal names them ("calls_allowed" is not a word a volunteer uses).
RULE_WORDS = {
    "mode": "the kind of jackpot",
    "starting_amount": "the starting amount",
    "increment": "the amount added each occasion",
    "cap": "the maximum",
    "arrangement": "the winning pattern",
    "calls_allowed": "the number of calls allowed",
    "calls_increment": "the calls added each occasion",
    "consolation_amount": "the consolation prize",
    "rules_text": "the rules as announced",
}


def _clean_rules(values: dict[str, Any]) -> dict[str, Any]:
    """The rules as given, shaped: money in dollars and cents, calls as whole numbers."""
    if values["mode"] not in JackpotMode.values:
        raise ValidationError({"mode": "Choose a growing jackpot or a growing number of calls."})
    if not isinstance(values["arrangement"], Arrangement):
        raise ValidationError({"arrangement": "Choose the arrangement."})
    out = dict(values)
    for name in ("starting_amount", "increment", "consolation_amount"):
        out[name] = money(values[name], JACKPOT, name)
    out["cap"] = optional_money(values["cap"], JACKPOT, "cap")
    for name in ("calls_allowed", "calls_increment"):
        if not isinstance(values[name], int) or isinstance(values[name], bool):
            raise ValidationError({name: "Give a whole number of calls."})
        if values[name] < 0:
            raise ValidationError({name: "A number of calls cannot be negative."})
    out["rules_text"] = values["rules_text"].strip()[:5000]
    return out


def _rules_facts(values: dict[str, Any]) -> SeriesRulesFacts:
    return SeriesRulesFacts(
        mode=values["mode"],
        starting_amount=values["starting_amount"],
        increment=values["increment"],
        cap=values["cap"],
        calls_allowed=values["calls_allowed"],
        calls_increment=values["calls_increment"],
        consolation_amount=values["consolation_amount"],
        arrangement=values["arrangement"].name,
        rules_text=values["rules_text"],
    )


def _rules_snapshot(series: ProgressiveSeries) -> dict[str, Any]:
    return snapshot(series, RULE_FIELDS)


@rules.atomic()
def start_series(
    *,
    organization: Organization,
    name: str,
    mode: str,
    starting_amount: Decimal,
    increment: Decimal,
    cap: Decimal | None,
    arrangement: Arrangement,
    calls_allowed: int,
    calls_increment: int,
    consolation_amount: Decimal,
    rules_text: str,
    started_on: dt.date | None = None,
    by: Actor,
) -> ProgressiveSeries:
    """Announce a new progressive series' rules (3.04(6)(h)), within the maximum jackpot in
    force on the day they are announced (3.04(8)(a)2)."""
    organization = locking.lock(Organization.objects).get(pk=organization.pk)
    name = text(name, "name", limit=100)
    today = timezone.localdate()
    started_on = started_on or today
    if started_on > today:
        raise ValidationError({"started_on": "Rules are recorded as announced, not in advance."})
    if ProgressiveSeries.objects.filter(organization=organization, name__iexact=name).exists():
        raise ValidationError({"name": "A series of this organization already has this name."})
    values = _clean_rules(
        {
            "mode": mode,
            "starting_amount": starting_amount,
            "increment": increment,
            "cap": cap,
            "arrangement": arrangement,
            "calls_allowed": calls_allowed,
            "calls_increment": calls_increment,
            "consolation_amount": consolation_amount,
            "rules_text": rules_text,
        }
    )
    rules.enforce(
        START_SERIES,
        [_rules_facts(values), _arrangement_facts(values["arrangement"], organization, started_on)],
        on=started_on,
        actor=by,
        organization=organization,
    )
    series = ProgressiveSeries(
        organization=organization,
        name=name,
        started_on=started_on,
        started_by=acting_user(by),
        **values,
    )
    series.full_clean()
    series.save()
    record_event(
        organization=organization,
        actor=by,
        action="games.jackpot_series.started",
        target=series,
        new={"name": name, "started_on": started_on, **_rules_snapshot(series)},
    )
    return series


def _arrangement_facts(
    arrangement: Arrangement, organization: Organization, on: dt.date
) -> ArrangementFacts:
    """The series' arrangement, judged when its rules are announced (3.04(6)(c))."""
    return ArrangementFacts(
        code=arrangement.code,
        name=arrangement.name,
        authorized_codes=authorized_arrangement_codes(organization, on),
    )


def _game_begun(game: Game) -> bool:
    return game.started_at is not None or game.status != Game.Status.PLANNED


@rules.atomic()
def change_series_rules(
    *, series: ProgressiveSeries, by: Actor, **new_rules: Any
) -> ProgressiveSeries:
    """Change a series' announced rules: refused once its first game has begun and before its
    jackpot is won (3.04(6)(h)). A won series keeps the rules it was played under; new rules
    go to a new series. A game already attached but not begun takes the new terms."""
    series = locking.lock(ProgressiveSeries.objects).get(pk=series.pk)
    unknown = set(new_rules) - set(RULE_FIELDS)
    if unknown:
        raise TypeError(f"not rules of a series: {', '.join(sorted(unknown))}")
    if not series.is_active:
        raise ValidationError(
            f"The jackpot of {series.name} was won on {series.won_on:%B %-d, %Y}: announce new "
            "rules as a new series."
        )
    old = _rules_snapshot(series)
    values = _clean_rules(
        {name: new_rules.get(name, getattr(series, name)) for name in RULE_FIELDS}
    )
    attached = list(
        locking.lock(ProgressiveGame.objects.filter(series=series).select_related("game"), "game")
    )
    first_game_begun = series.ledger.exists() or any(_game_begun(pg.game) for pg in attached)  # type: ignore[attr-defined]
    candidate = ProgressiveSeries(**{**{f: getattr(series, f) for f in RULE_FIELDS}, **values})
    old_values, new_values = changed(old, _rules_snapshot(candidate))
    if not new_values:
        raise ValidationError("Nothing in the rules was changed.")
    rules.enforce(
        CHANGE_SERIES_RULES,
        [
            _rules_facts(values),
            SeriesChangeFacts(
                series_name=series.name,
                first_game_begun=first_game_begun,
                jackpot_won=not series.is_active,
                changed=tuple(RULE_WORDS[name] for name in new_values),
            ),
            _arrangement_facts(values["arrangement"], series.organization, timezone.localdate()),
        ],
        on=timezone.localdate(),
        actor=by,
        organization=series.organization,
    )
    for name, value in values.items():
        setattr(series, name, value)
    series.full_clean()
    series.save(update_fields=list(RULE_FIELDS))
    for pg in attached:  # the first game, attached but not begun, takes the new terms
        _set_terms(pg, selectors.next_terms(series, pg.occasion.date))
    record_event(
        organization=series.organization,
        actor=by,
        action="games.jackpot_series.rules_changed",
        target=series,
        old=old_values,
        new=new_values,
    )
    return series


def _set_terms(pg: ProgressiveGame, terms: selectors.Terms) -> None:
    pg.carried_in, pg.jackpot_amount, pg.calls_allowed = (
        terms.carried_in,
        terms.jackpot,
        terms.calls_allowed,
    )
    pg.save(update_fields=["carried_in", "jackpot_amount", "calls_allowed"])
    _set_prize(pg.game, pg.series, terms.jackpot)


def _set_prize(game: Game, series: ProgressiveSeries, jackpot: Decimal) -> PrizePart:
    """The game's first prize part is the jackpot, on the series' arrangement."""
    part = locking.lock(PrizePart.objects).filter(game=game).order_by("order").first()
    if part is None:
        return PrizePart.objects.create(
            game=game,
            order=1,
            arrangement=series.arrangement,
            kind=PrizePart.Kind.CASH,
            amount=jackpot,
            description=f"{series.name}: progressive jackpot",
        )
    if part.announced_at is not None and part.amount != jackpot:
        raise ValidationError(
            f"Game {game.number}'s prize was announced at {usd(part.amount)}; the jackpot "
            f"is {usd(jackpot)}."
        )
    part.amount, part.arrangement, part.kind = jackpot, series.arrangement, PrizePart.Kind.CASH
    part.save(update_fields=["amount", "arrangement", "kind"])
    live.changed(game.occasion_id)
    return part


@rules.atomic()
def attach_game(*, game: Game, series: ProgressiveSeries, by: Actor) -> ProgressiveGame:
    """Carry the series' jackpot into an occasion's progressive game: the jackpot and calls
    allowed come from the ledger under the announced rules, the increment stopping at the cap
    and the maximum in force that day (3.04(6)(h), (8)(a)2); the game's first prize is set to
    the jackpot."""
    series = locking.lock(ProgressiveSeries.objects).get(pk=series.pk)
    game = locking.lock(Game.objects.select_related("occasion"), "occasion").get(pk=game.pk)
    occasion = game.occasion
    refuse_if_sealed(occasion)
    if occasion.organization_id != series.organization_id:
        raise ValidationError("This series belongs to another organization.")
    if game.kind != Game.Kind.PROGRESSIVE:
        raise ValidationError(f"Game {game.number} is not a progressive jackpot game.")
    if ProgressiveGame.objects.filter(game=game).exists():
        raise ValidationError(f"Game {game.number} already carries a jackpot.")
    if occasion.status == Occasion.Status.NOT_PLAYED:
        raise ValidationError("Beano was not played at this occasion.")
    pending = selectors.pending_game(series)
    if pending is not None:
        raise ValidationError(
            f"Record the outcome of game {pending.game.number} of "
            f"{pending.occasion.date:%B %-d, %Y} first: the jackpot carried depends on it."
        )
    last = selectors.last_entry(series)
    if last is not None and last.occasion.date >= occasion.date:
        raise ValidationError(
            f"{series.name} was last played on {last.occasion.date:%B %-d, %Y}: it carries "
            "forward to a later occasion."
        )
    terms = selectors.next_terms(series, occasion.date)
    progressive_count = (
        ProgressiveGame.objects.filter(occasion=occasion).exclude(game=game).count() + 1
    )
    rules.enforce(
        ATTACH_GAME,
        ProgressiveGameFacts(
            series_name=series.name,
            series_started_on=series.started_on,
            series_won=not series.is_active,
            occasion_date=occasion.date,
            game_number=game.number,
            game_begun=_game_begun(game),
            carried_in=terms.carried_in,
            jackpot=terms.jackpot,
            progressive_games_at_occasion=progressive_count,
        ),
        on=occasion.date,
        actor=by,
        organization=series.organization,
    )
    pg = ProgressiveGame.objects.create(
        game=game,
        series=series,
        occasion=occasion,
        carried_in=terms.carried_in,
        jackpot_amount=terms.jackpot,
        calls_allowed=terms.calls_allowed,
        attached_at=timezone.now(),
        attached_by=acting_user(by),
    )
    _set_prize(game, series, terms.jackpot)
    record_event(
        organization=series.organization,
        actor=by,
        action="games.progressive_game.attached",
        target=pg,
        new={
            "series": series.name,
            "occasion": occasion.date,
            "game": game.number,
            "carried_in": terms.carried_in,
            "jackpot_amount": terms.jackpot,
            "calls_allowed": terms.calls_allowed,
        },
    )
    return pg
