"""The program's rules, pure: 961 CMR 3.04(4)(b), (5)(c), (6)(b), (6)(c), (7) and the game prizes
of (8)(a)1, (a)3, (b), (c). Plain facts in, cited violations out; no database."""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal

import pytest

from beano import rules
from beano.rules import LimitName, Limits
from beano.rules.hours import HoursFacts
from beano.rules.operation import (
    ADD_PART,
    ANNOUNCE_PART,
    CONFIRM_BALLS,
    START_GAME,
    ArrangementFacts,
    HalfFacts,
    OccasionPlayFacts,
    ReceptacleFacts,
    StartFacts,
)
from beano.rules.prizes import PrizePartFacts, WinnerTakeAllFacts, winner_take_all_figure

DAY = dt.date(2026, 12, 4)
LIMITS = Limits(
    on=DAY,
    values={
        LimitName.MAX_PRIZE_SINGLE_GAME: Decimal("200"),
        LimitName.MAX_BONUS_PRIZE: Decimal("200"),
        LimitName.MAX_PROGRESSIVE_JACKPOT: Decimal("3000"),
        LimitName.MAX_TOTAL_PRIZES_OCCASION: None,
    },
)
SEVEN = dt.datetime(2026, 12, 4, 19, 0, tzinfo=dt.UTC)


def judge(action: str, facts: object, limits: Limits = LIMITS) -> rules.Decision:
    return rules.judge(action, facts, on=DAY, limits=limits)


def citations(decision: rules.Decision) -> set[str]:
    return {v.citation for v in decision.violations}


def codes(decision: rules.Decision) -> set[str]:
    return {v.code for v in decision.violations}


# 3.04(6)(c): arrangements authorized


AUTHORIZED = frozenset({"single_line", "letter_x", "coverall"})


def test_an_authorized_arrangement_is_allowed():
    facts = ArrangementFacts("letter_x", "Letter X", AUTHORIZED)
    assert judge(ADD_PART, facts).allowed
    assert judge(ANNOUNCE_PART, facts).allowed


def test_an_arrangement_not_authorized_is_refused_with_its_citation():
    decision = judge(ADD_PART, ArrangementFacts("letter_h", "Letter H", AUTHORIZED))
    assert citations(decision) == {"961 CMR 3.04(6)(c)"}
    assert "Letter H is not among the arrangements" in str(decision.violations[0])


def test_the_arrangement_rule_is_not_waivable():
    assert (
        rules.all_rules()
        and not next(r for r in rules.all_rules() if r.code == "G-6C-AUTHORIZED").waivable
    )


# 3.04(7): only while the occasion is open


@pytest.mark.parametrize("status", ["scheduled", "closed", "not_played"])
@pytest.mark.parametrize("action", [ANNOUNCE_PART, CONFIRM_BALLS])
def test_nothing_is_announced_or_checked_unless_the_occasion_is_open(action, status):
    facts = [OccasionPlayFacts(status), ReceptacleFacts(1, None, None, None)]
    decision = judge(action, facts if action == CONFIRM_BALLS else facts[:1])
    assert "961 CMR 3.04(7)" in citations(decision)


# The start of a game


def start(**changes: object) -> list[object]:
    facts: list[object] = [
        OccasionPlayFacts("open"),
        StartFacts(game_number=3, parts=1, first_part_announced=True),
        ReceptacleFacts(3, SEVEN, None, SEVEN - dt.timedelta(minutes=5)),
        HalfFacts(3, 1, second_half_started=False),
        HoursFacts(at=dt.time(19, 0), license_start=dt.time(18, 45), license_end=dt.time(22, 30)),
        WinnerTakeAllFacts(3, False, Decimal("75"), 0, Decimal("0")),
    ]
    return [
        dataclasses.replace(f, **{k: v for k, v in changes.items() if hasattr(f, k)}) for f in facts
    ]


def test_a_game_in_order_starts():
    assert judge(START_GAME, start()).allowed


def test_a_game_whose_prize_is_not_announced_does_not_start():
    decision = judge(START_GAME, start(first_part_announced=False))
    assert citations(decision) == {"961 CMR 3.04(6)(b)"}


def test_a_game_without_a_prize_does_not_start():
    decision = judge(START_GAME, start(parts=0, first_part_announced=False))
    assert codes(decision) == {"G-6B-ANNOUNCED"}
    assert "no prize" in decision.violations[0].message


def test_an_unannounced_bonus_prize_keeps_the_game_from_starting():
    decision = judge(START_GAME, start(parts=2, bonus_parts_not_announced=(2,)))
    assert "bonus prize (part 2)" in decision.violations[0].message


def test_a_game_without_its_75_balls_confirmed_does_not_start():
    decision = judge(START_GAME, start(balls_confirmed_at=None))
    assert codes(decision) == {"G-4B-ALL-BALLS"}
    assert citations(decision) == {"961 CMR 3.04(4)(b)"}


def test_balls_confirmed_before_the_last_game_ended_do_not_count():
    decision = judge(START_GAME, start(last_game_finished_at=SEVEN + dt.timedelta(minutes=1)))
    assert codes(decision) == {"G-4B-ALL-BALLS"}


def test_no_game_starts_nor_are_balls_checked_while_another_is_in_play():
    assert codes(judge(START_GAME, start(game_in_play=2))) == {"G-4B-RECEPTACLE-FREE"}
    checked = judge(CONFIRM_BALLS, [OccasionPlayFacts("open"), ReceptacleFacts(3, None, 2, None)])
    assert codes(checked) == {"G-4B-RECEPTACLE-FREE"}


def test_a_game_does_not_start_unless_the_occasion_is_open():
    decision = judge(START_GAME, start(occasion_status="scheduled"))
    assert codes(decision) == {"G-7-DURING-OCCASION"}


def test_a_second_half_game_waits_for_the_second_half():
    refused = judge(START_GAME, start(half=2))
    assert citations(refused) == {"961 CMR 3.04(5)(c)"}
    assert judge(START_GAME, start(half=2, second_half_started=True)).allowed


def test_a_game_does_not_start_outside_the_license_hours():
    decision = judge(START_GAME, start(at=dt.time(22, 45)))
    assert codes(decision) == {"H-7-LICENSE-HOURS"}


def test_the_law_hours_judge_a_game_start_when_a_figure_is_in_force():
    limits = Limits(on=DAY, values=LIMITS.values | {LimitName.HOURS_END: Decimal("22")})
    decision = judge(START_GAME, start(at=dt.time(22, 15)), limits)
    assert codes(decision) == {"H-7-LAW-HOURS"}


# 3.04(8)(b), (8)(a)1, (8)(c): the prize parts


def part(**changes: object) -> PrizePartFacts:
    base = PrizePartFacts(
        game_number=14,
        game_kind="regular",
        kind="cash",
        amount=Decimal("200.00"),
        description="",
        donated=False,
        is_bonus=False,
        game_prize_before=Decimal("0"),
        game_bonus_before=Decimal("0"),
        occasion_prizes_before=Decimal("1000"),
        bonus_card_price=Decimal("1.00"),
    )
    return dataclasses.replace(base, **changes)


def add(facts: PrizePartFacts, limits: Limits = LIMITS) -> rules.Decision:
    other = [
        ArrangementFacts("coverall", "Coverall", AUTHORIZED),
        WinnerTakeAllFacts(facts.game_number, False, facts.amount, 0, Decimal("0")),
    ]
    return judge(ADD_PART, [facts, *other], limits)


def test_a_200_dollar_game_is_allowed_and_a_cent_more_is_refused():
    assert add(part()).allowed
    refused = add(part(amount=Decimal("200.01")))
    assert codes(refused) == {"P-8B-SINGLE-GAME"}
    assert str(refused.violations[0]).startswith("961 CMR 3.04(8)(b): ")


def test_a_games_parts_add_up_toward_the_single_game_maximum():
    assert add(part(amount=Decimal("125"), game_prize_before=Decimal("75"))).allowed
    refused = add(part(amount=Decimal("125.01"), game_prize_before=Decimal("75")))
    assert "would be $200.01" in refused.violations[0].message


def test_merchandise_counts_at_its_value_donated_or_bought():
    donated = part(kind="merchandise", description="Quilt", donated=True, amount=Decimal("250"))
    assert codes(add(donated)) == {"P-8B-SINGLE-GAME"}
    assert add(dataclasses.replace(donated, amount=Decimal("180"))).allowed


def test_merchandise_is_described_and_valued():
    refused = add(part(kind="merchandise", description=" ", amount=Decimal("0")))
    assert codes(refused) == {"P-8C-MERCHANDISE-VALUED"}
    assert len(refused.violations) == 2
    assert citations(add(part(donated=True))) == {"961 CMR 3.04(8)(c)"}


def test_a_progressive_game_is_not_held_to_the_single_game_maximum():
    assert add(part(game_kind="progressive", amount=Decimal("1500"))).allowed


def test_the_occasion_total_has_no_limit_while_none_is_known_and_applies_once_in_force():
    assert add(part(occasion_prizes_before=Decimal("99999"))).allowed
    limits = Limits(
        on=DAY, values=LIMITS.values | {LimitName.MAX_TOTAL_PRIZES_OCCASION: Decimal("2000")}
    )
    assert add(part(occasion_prizes_before=Decimal("1800")), limits).allowed
    refused = add(part(occasion_prizes_before=Decimal("1800.01")), limits)
    assert codes(refused) == {"P-8B-OCCASION-TOTAL"}


def bonus(**changes: object) -> PrizePartFacts:
    base = {"game_kind": "regular_bonus", "is_bonus": True, "game_prize_before": Decimal("200")}
    return part(**(base | changes))


def test_a_bonus_of_100_percent_of_the_maximum_is_allowed_a_cent_more_refused():
    assert add(bonus(amount=Decimal("200.00"))).allowed
    refused = add(bonus(amount=Decimal("200.01")))
    assert codes(refused) == {"P-8A1-BONUS-LIMIT"}
    assert citations(refused) == {"961 CMR 3.04(8)(a)"}


def test_a_games_bonus_parts_add_up():
    assert codes(add(bonus(amount=Decimal("100.01"), game_bonus_before=Decimal("100")))) == {
        "P-8A1-BONUS-LIMIT"
    }


def test_a_bonus_is_not_counted_in_the_games_prize():
    assert add(bonus(amount=Decimal("150"))).allowed


def test_a_bonus_only_on_a_regular_game_with_bonus():
    refused = add(bonus(game_kind="special", amount=Decimal("50")))
    assert codes(refused) == {"P-8A1-BONUS-ON-REGULAR"}


def test_a_bonus_needs_bonus_cards_at_a_posted_price():
    for price in (None, Decimal("0")):
        refused = add(bonus(amount=Decimal("50"), bonus_card_price=price))
        assert codes(refused) == {"P-8A1-BONUS-CARDS"}


# 3.04(8)(a)3: winner-take-all


def test_the_winner_take_all_prize_is_the_receipts_less_ten_percent():
    assert winner_take_all_figure(Decimal("84.00"), LIMITS) == Decimal("75.60")
    assert winner_take_all_figure(Decimal("0"), LIMITS) == Decimal("0.00")


def test_the_winner_take_all_prize_rounds_to_the_cent_half_up():
    assert winner_take_all_figure(Decimal("0.05"), LIMITS) == Decimal("0.05")  # 0.045 → 0.05
    assert winner_take_all_figure(Decimal("1.15"), LIMITS) == Decimal("1.04")  # 1.035 → 1.04


def test_the_winner_take_all_prize_stays_within_the_single_game_maximum():
    assert winner_take_all_figure(Decimal("250"), LIMITS) == Decimal("200.00")
    unknown = Limits(on=DAY, values={})
    assert winner_take_all_figure(Decimal("250"), unknown) == Decimal("225.00")


def wta(amount: str, receipts: str = "84.00", others: int = 0) -> WinnerTakeAllFacts:
    return WinnerTakeAllFacts(7, True, Decimal(amount), others, Decimal(receipts))


def test_a_winner_take_all_part_of_exactly_the_share_is_allowed_any_other_refused():
    facts = part(game_number=7, game_kind="winner_take_all", amount=Decimal("75.60"))
    other = [ArrangementFacts("single_line", "Any single line", AUTHORIZED)]
    assert judge(ADD_PART, [facts, wta("75.60"), *other]).allowed
    refused = judge(ADD_PART, [facts, wta("75.00"), *other])
    assert codes(refused) == {"P-8A3-WINNER-TAKE-ALL"}
    assert "$75.60, not $75.00" in refused.violations[0].message


def test_a_winner_take_all_game_has_one_prize():
    facts = [f for f in start(game_number=7) if not isinstance(f, WinnerTakeAllFacts)]
    decision = judge(START_GAME, [*facts, wta("75.60", others=1)])
    assert codes(decision) == {"P-8A3-WINNER-TAKE-ALL"}


def test_a_winner_take_all_game_starts_only_at_the_share_of_its_receipts_then():
    facts = [f for f in start() if not isinstance(f, WinnerTakeAllFacts)]
    assert judge(START_GAME, [*facts, wta("75.60")]).allowed
    refused = judge(START_GAME, [*facts, wta("75.60", receipts="90.00")])
    assert "$81.00, not $75.60" in refused.violations[0].message
