"""961 CMR 3.04(6)(h) and (8)(a)2 as pure rules: plain facts in, cited violations out. No
database: the limits are given, not read."""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal

import pytest

from beano import rules
from beano.rules import AuthorizationFact, LimitName, Limits
from beano.rules.claims import WinningClaimFacts
from beano.rules.jackpots import (
    ATTACH_GAME,
    CHANGE_SERIES_RULES,
    SETTLE_GAME,
    START_SERIES,
    JackpotMode,
    ProgressiveGameFacts,
    SeriesChangeFacts,
    SeriesRulesFacts,
    SettleFacts,
    next_calls,
    next_jackpot,
)
from beano.rules.workers import RECORD_WINNER, PlayerFacts

PLAYER = PlayerFacts(person_id=0, name="Ann Pires", on_worker_list=False)

DAY = dt.date(2026, 12, 4)
LIMITS = Limits(
    on=DAY,
    values={
        LimitName.MAX_PROGRESSIVE_JACKPOT: Decimal("3000"),
        LimitName.MAX_PROGRESSIVE_GAMES: None,
    },
)
SIX_H = "961 CMR 3.04(6)(h)"
EIGHT_A = "961 CMR 3.04(8)(a)"

SAMPLE = SeriesRulesFacts(
    mode=JackpotMode.GROWING_JACKPOT,
    starting_amount=Decimal("1500.00"),
    increment=Decimal("100.00"),
    cap=Decimal("3000.00"),
    calls_allowed=52,
    calls_increment=0,
    consolation_amount=Decimal("100.00"),
    arrangement="Coverall",
    rules_text="Coverall within 52 numbers, $1,500 now, +$100 a week, up to $3,000.",
)
GAME = ProgressiveGameFacts(
    series_name="Coverall jackpot",
    series_started_on=dt.date(2026, 11, 27),
    series_won=False,
    occasion_date=DAY,
    game_number=13,
    game_begun=False,
    carried_in=Decimal("1500.00"),
    jackpot=Decimal("1600.00"),
    progressive_games_at_occasion=1,
)


def judge(action: str, facts: object, limits: Limits = LIMITS, **kw: object) -> rules.Decision:
    return rules.judge(action, facts, on=DAY, limits=limits, **kw)


def refused(decision: rules.Decision) -> dict[str, str]:
    return {v.code: v.citation for v in decision.violations}


def change(**changes: object) -> SeriesChangeFacts:
    values = {
        "series_name": "Coverall jackpot",
        "first_game_begun": False,
        "jackpot_won": False,
        "changed": ("increment",),
    }
    return SeriesChangeFacts(**(values | changes))


# The jackpot and the calls of the next occasion: 3.04(6)(h)1 and 2


@pytest.mark.parametrize(
    "carried,increment,cap,maximum,expected",
    [
        ("1500", "100", "3000", "3000", "1600"),
        ("2950", "100", "3000", "3000", "3000"),  # the increment stops at the cap: never $3,050
        ("3000", "100", "3000", "3000", "3000"),
        ("2950", "100", None, "3000", "3000"),  # no cap of its own: the maximum in force
        ("2950", "100", "5000", "3000", "3000"),
        ("1500", "100", None, None, "1600"),  # no maximum known, no cap: it grows
        ("3200", "100", "3000", "3000", "3200"),  # carried above a lowered maximum: never cut
    ],
)
def test_the_increment_stops_at_the_cap_and_the_maximum(carried, increment, cap, maximum, expected):
    got = next_jackpot(
        Decimal(carried),
        Decimal(increment),
        Decimal(cap) if cap else None,
        Decimal(maximum) if maximum else None,
    )
    assert got == Decimal(expected)


def test_the_calls_grow_to_the_75_balls_and_no_further():
    assert next_calls(52, 2) == 54
    assert next_calls(74, 3) == 75
    assert next_calls(52, 0) == 52


# Starting a series: 3.04(6)(h), (8)(a)2


def test_it_allows_the_sample_series():
    decision = judge(START_SERIES, SAMPLE)
    assert decision.allowed
    assert {"J-6H-ONE-ELEMENT", "J-6H-RULES-ANNOUNCED", "J-8A2-SERIES-WITHIN-MAX"} <= set(
        decision.checked
    )


def test_it_allows_a_growing_number_of_calls():
    facts = dataclasses.replace(
        SAMPLE, mode=JackpotMode.GROWING_CALLS, increment=Decimal("0"), cap=None, calls_increment=1
    )
    assert judge(START_SERIES, facts).allowed


@pytest.mark.parametrize(
    "changes",
    [
        {"increment": Decimal("0")},
        {"cap": None},
        {"cap": Decimal("1500.00")},
        {"mode": JackpotMode.GROWING_CALLS, "calls_increment": 0},
        {"mode": JackpotMode.GROWING_CALLS, "calls_increment": 1, "calls_allowed": 75},
        {"mode": "neither"},
    ],
)
def test_it_refuses_a_series_without_one_of_the_two_elements(changes):
    decision = judge(START_SERIES, dataclasses.replace(SAMPLE, **changes))
    assert refused(decision) == {"J-6H-ONE-ELEMENT": SIX_H}


@pytest.mark.parametrize(
    "changes",
    [{"rules_text": "  "}, {"arrangement": ""}, {"calls_allowed": 0}, {"calls_allowed": 76}],
)
def test_it_refuses_rules_not_announced_in_full(changes):
    decision = judge(START_SERIES, dataclasses.replace(SAMPLE, **changes))
    assert refused(decision)["J-6H-RULES-ANNOUNCED"] == SIX_H


@pytest.mark.parametrize(
    "changes",
    [
        {"starting_amount": Decimal("3000.01"), "cap": Decimal("3000.02")},
        {"cap": Decimal("3050.00")},
    ],
)
def test_it_refuses_a_series_over_the_maximum_jackpot_in_force(changes):
    decision = judge(START_SERIES, dataclasses.replace(SAMPLE, **changes))
    assert refused(decision) == {"J-8A2-SERIES-WITHIN-MAX": EIGHT_A}
    assert "$3,000.00" in str(decision.violations[0])


def test_the_maximum_is_the_one_in_force_on_the_date():
    before_2000 = Limits(
        on=dt.date(1999, 6, 1), values={LimitName.MAX_PROGRESSIVE_JACKPOT: Decimal("500")}
    )
    assert refused(judge(START_SERIES, SAMPLE, before_2000)) == {"J-8A2-SERIES-WITHIN-MAX": EIGHT_A}
    assert judge(START_SERIES, SAMPLE, Limits(on=DAY, values={})).allowed


# Changing the rules: 3.04(6)(h)


def test_it_allows_a_change_before_the_first_game():
    assert judge(CHANGE_SERIES_RULES, [SAMPLE, change()]).allowed


def test_it_refuses_a_change_after_the_first_game_before_the_win():
    decision = judge(CHANGE_SERIES_RULES, [SAMPLE, change(first_game_begun=True)])
    assert refused(decision) == {"J-6H-RULES-FIXED": SIX_H}
    assert "increment" in decision.violations[0].message


def test_the_rules_may_change_after_the_jackpot_is_won():
    assert judge(
        CHANGE_SERIES_RULES, [SAMPLE, change(first_game_begun=True, jackpot_won=True)]
    ).allowed


# Carrying the jackpot into a game: 3.04(6)(h), (8)(a)2


def test_it_allows_the_game_of_the_sample_night():
    assert judge(ATTACH_GAME, GAME).allowed


@pytest.mark.parametrize(
    "changes",
    [
        {"series_won": True},
        {"series_started_on": dt.date(2026, 12, 5)},
        {"game_begun": True},
    ],
)
def test_it_refuses_a_game_not_under_rules_announced_before_it(changes):
    assert refused(judge(ATTACH_GAME, dataclasses.replace(GAME, **changes))) == {
        "J-6H-ANNOUNCED-BEFORE-GAME": SIX_H
    }


def test_it_refuses_a_jackpot_over_the_maximum_in_force_on_the_occasions_date():
    facts = dataclasses.replace(GAME, carried_in=Decimal("3000"), jackpot=Decimal("3050"))
    assert refused(judge(ATTACH_GAME, facts)) == {"J-8A2-JACKPOT-WITHIN-MAX": EIGHT_A}
    assert judge(ATTACH_GAME, dataclasses.replace(GAME, jackpot=Decimal("3000"))).allowed


def test_progressive_games_per_occasion_are_unlimited_while_no_figure_is_known():
    facts = dataclasses.replace(GAME, progressive_games_at_occasion=5)
    assert judge(ATTACH_GAME, facts).allowed


def test_progressive_games_per_occasion_stay_within_a_figure_once_entered():
    limits = Limits(on=DAY, values={LimitName.MAX_PROGRESSIVE_GAMES: Decimal("2")})
    assert judge(
        ATTACH_GAME, dataclasses.replace(GAME, progressive_games_at_occasion=2), limits
    ).allowed
    decision = judge(
        ATTACH_GAME, dataclasses.replace(GAME, progressive_games_at_occasion=3), limits
    )
    assert refused(decision) == {"J-8A2-GAMES-PER-OCCASION": EIGHT_A}


# The outcome: 3.04(8)(a)2


@pytest.mark.parametrize("won,consolation", [(True, False), (False, True), (False, False)])
def test_it_allows_each_outcome_the_announced_rules_provide(won, consolation):
    facts = SettleFacts(13, won, consolation, Decimal("100.00"))
    assert judge(SETTLE_GAME, facts).allowed


def test_it_refuses_a_consolation_the_rules_do_not_announce():
    facts = SettleFacts(13, False, True, Decimal("0.00"))
    assert refused(judge(SETTLE_GAME, facts)) == {"J-8A2-AS-ANNOUNCED": EIGHT_A}


def test_it_refuses_a_consolation_with_a_jackpot_won_within_the_calls():
    facts = SettleFacts(13, True, True, Decimal("100.00"))
    assert refused(judge(SETTLE_GAME, facts)) == {"J-8A2-AS-ANNOUNCED": EIGHT_A}


# The outcome is the game's, as its draw and winners are recorded

PLAYED = SettleFacts(13, True, False, Decimal("100.00"), calls_allowed=52, draw_recorded=True)


def test_it_allows_the_outcome_the_game_recorded():
    assert judge(SETTLE_GAME, dataclasses.replace(PLAYED, jackpot_winners=("Ann Pires",))).allowed
    not_won = dataclasses.replace(PLAYED, won_within_calls=False)
    assert judge(SETTLE_GAME, not_won).allowed
    assert judge(SETTLE_GAME, dataclasses.replace(not_won, consolation_paid=True)).allowed


def test_it_refuses_a_jackpot_won_with_no_winner_in_the_draw_recorded():
    decision = judge(SETTLE_GAME, PLAYED)
    assert refused(decision) == {"J-8A2-AS-PLAYED": EIGHT_A}
    assert "no winner of the jackpot is recorded within its 52 calls" in str(decision.violations)
    # A game whose draw is not kept here (no ball recorded): the outcome is as recorded.
    assert judge(SETTLE_GAME, dataclasses.replace(PLAYED, draw_recorded=False)).allowed


@pytest.mark.parametrize("consolation", [False, True])
def test_it_refuses_to_carry_over_a_jackpot_won_within_the_calls(consolation):
    facts = dataclasses.replace(
        PLAYED,
        won_within_calls=False,
        consolation_paid=consolation,
        jackpot_winners=("Ann Pires", "Joe Dias"),
    )
    decision = judge(SETTLE_GAME, facts)
    assert refused(decision) == {"J-8A2-AS-PLAYED": EIGHT_A}
    assert "Ann Pires and Joe Dias won the jackpot within its 52 calls" in str(decision.violations)


def test_a_jackpot_is_won_only_within_the_calls():
    within = WinningClaimFacts("Ann Pires", True, balls_counted=52, jackpot_calls_allowed=52)
    assert judge(RECORD_WINNER, [within, PLAYER]).allowed
    after = dataclasses.replace(within, balls_counted=53)
    decision = judge(RECORD_WINNER, [after, PLAYER])
    assert refused(decision) == {"J-8A2-WON-WITHIN-CALLS": EIGHT_A}
    assert "Ann Pires won on ball 53: the jackpot is won only within 52 calls." in str(
        decision.violations
    )
    # Any other prize, a progressive game's consolation among them, on any call.
    other = dataclasses.replace(after, jackpot_calls_allowed=None)
    assert judge(RECORD_WINNER, [other, PLAYER]).allowed


def test_no_authorization_waives_a_jackpot_rule():
    """3.04(6)(h) and (8)(a)2 give the Director no power to authorize otherwise in writing."""
    actions = (START_SERIES, CHANGE_SERIES_RULES, ATTACH_GAME, SETTLE_GAME)
    assert not [r.code for a in actions for r in rules.rules_for(a) if r.waivable]
    any_letter = AuthorizationFact(
        pk=1,
        kind="6c_arrangement",
        reference="MSLC-1",
        valid_from=dt.date(2026, 1, 1),
        valid_to=dt.date(2026, 12, 31),
    )
    decision = judge(
        START_SERIES, dataclasses.replace(SAMPLE, cap=Decimal("5000")), authorizations=[any_letter]
    )
    assert refused(decision) == {"J-8A2-SERIES-WITHIN-MAX": EIGHT_A} and not decision.waivers


def test_every_jackpot_rule_has_a_title_a_docstring_and_a_label():
    from beano.rules.catalog import ACTION_LABELS

    for action in (START_SERIES, CHANGE_SERIES_RULES, ATTACH_GAME, SETTLE_GAME):
        assert action in ACTION_LABELS
        assert rules.rules_for(action)
        for r in rules.rules_for(action):
            assert r.title and r.check.__doc__
            # (6)(c): a series is started and changed only on an arrangement authorized
            assert r.citation in (SIX_H, EIGHT_A, "961 CMR 3.04(6)(c)")
            if r.citation == EIGHT_A:
                assert r.title.startswith("(8)(a)2")
