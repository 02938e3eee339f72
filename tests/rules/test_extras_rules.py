"""961 CMR 3.04(3)(e), (5)(b), (8)(d)-(f), (9)(a), (d), (e) and M.G.L. c. 10 § 37 as pure rules:
plain facts in, cited violations out. No database: the limits are given, not read."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from beano import rules
from beano.rules import AuthorizationFact, AuthorizationKind, LimitName, Limits
from beano.rules.facilities import (
    CHARITY_SELL,
    RECORD_POLICE_DETAIL,
    CharityTicketSaleFacts,
    PoliceDetailFacts,
)
from beano.rules.prizes import (
    ANNOUNCE_VARYING,
    AWARD_DOOR_PRIZE,
    CHARITY_REDEEM,
    GIVE_GIFT,
    RECORD_REFUND,
    CharityRedemptionFacts,
    DoorPrizeFacts,
    GiftFacts,
    RefundFacts,
    VaryingPrizesFacts,
    one_year_after,
)
from beano.rules.prohibited import (
    ARRANGE_TRANSPORTATION,
    CREATE_RAFFLE,
    RECORD_OTHER_SALE,
    SELL_RAFFLE_TICKET,
    OtherSaleFacts,
    RaffleFacts,
    RaffleTicketFacts,
    TransportationFacts,
)

DAY = dt.date(2026, 12, 4)
LIMITS = Limits(on=DAY, values={LimitName.MAX_DOOR_PRIZES_OCCASION: Decimal("200")})
OPENED = dt.datetime(2026, 12, 4, 17, 0, tzinfo=dt.UTC)
CLOSED = dt.datetime(2026, 12, 4, 22, 30, tzinfo=dt.UTC)


def judge(action: str, facts: object, authorizations: tuple = ()) -> rules.Decision:
    return rules.judge(action, facts, on=DAY, authorizations=authorizations, limits=LIMITS)


def refused(decision: rules.Decision) -> dict[str, str]:
    return {v.code: v.citation for v in decision.violations}


def authorization(kind: str, **changes: object) -> AuthorizationFact:
    values = {
        "pk": 11,
        "kind": kind,
        "reference": "MSLC-DIR-2026-0011",
        "valid_from": dt.date(2026, 1, 1),
        "valid_to": dt.date(2026, 12, 31),
    }
    return AuthorizationFact(**(values | changes))  # type: ignore[arg-type]


# 3.04(8)(d): prizes varying with attendance


def varying(**changes: object) -> VaryingPrizesFacts:
    values = {
        "persons_entitled_to_play": 118,
        "prizes_announced": "Regular games $50; coverall $150",
        "applies_to_all_games": True,
        "refunds_offered": True,
        "play_started": False,
        "already_announced": False,
    }
    return VaryingPrizesFacts(**(values | changes))  # type: ignore[arg-type]


def test_it_allows_varying_prizes_announced_before_any_game():
    decision = judge(ANNOUNCE_VARYING, varying())
    assert decision.allowed
    assert "P-8D-BEFORE-PLAY" in decision.checked


@pytest.mark.parametrize(
    "changes,code",
    [
        ({"play_started": True}, "P-8D-BEFORE-PLAY"),
        ({"persons_entitled_to_play": 0}, "P-8D-ANNOUNCEMENT"),
        ({"prizes_announced": "  "}, "P-8D-ANNOUNCEMENT"),
        ({"applies_to_all_games": False}, "P-8D-ALL-GAMES"),
        ({"already_announced": True}, "P-8D-ALL-GAMES"),
        ({"refunds_offered": False}, "P-8D-REFUNDS-OFFERED"),
    ],
)
def test_it_refuses_varying_prizes_announced_late_partly_or_without_refunds(changes, code):
    decision = judge(ANNOUNCE_VARYING, varying(**changes))
    assert refused(decision) == {code: "961 CMR 3.04(8)(d)"}
    assert str(decision.violations[0]).startswith("961 CMR 3.04(8)(d): ")


def test_a_refund_is_recorded_only_under_an_announcement():
    assert judge(RECORD_REFUND, RefundFacts(Decimal("2.00"), True)).allowed
    decision = judge(RECORD_REFUND, RefundFacts(Decimal("2.00"), False))
    assert refused(decision) == {"P-8D-REFUND-UNDER-ANNOUNCEMENT": "961 CMR 3.04(8)(d)"}


# 3.04(8)(e): door prizes and gifts


def test_door_prizes_up_to_two_hundred_dollars_are_allowed():
    facts = DoorPrizeFacts("Fruit basket", Decimal("75.00"), awarded_before=Decimal("125.00"))
    assert judge(AWARD_DOOR_PRIZE, facts).allowed


def test_it_refuses_door_prizes_a_cent_over_two_hundred_dollars():
    facts = DoorPrizeFacts("Fruit basket", Decimal("75.01"), awarded_before=Decimal("125.00"))
    decision = judge(AWARD_DOOR_PRIZE, facts)
    assert refused(decision) == {"P-8E-DOOR-PRIZES": "961 CMR 3.04(8)(e)"}
    assert "$200.01" in decision.violations[0].message


def test_door_prizes_are_judged_by_the_figure_in_force_and_none_known_means_no_limit():
    facts = DoorPrizeFacts("Television", Decimal("500.00"), awarded_before=Decimal("0"))
    assert rules.judge(AWARD_DOOR_PRIZE, facts, on=DAY, limits=Limits(on=DAY)).allowed
    higher = Limits(on=DAY, values={LimitName.MAX_DOOR_PRIZES_OCCASION: Decimal("500")})
    assert rules.judge(AWARD_DOOR_PRIZE, facts, on=DAY, limits=higher).allowed


def test_a_door_prize_limit_is_not_waived_by_a_gifts_authorization():
    facts = DoorPrizeFacts("Television", Decimal("500.00"), awarded_before=Decimal("0"))
    granted = authorization(AuthorizationKind.FREE_PLAY_OR_GIFTS)
    assert not judge(AWARD_DOOR_PRIZE, facts, (granted,)).allowed


GIFT = GiftFacts("free_play", "Free admission for volunteers", Decimal("2.00"))


def test_it_refuses_a_gift_without_the_directors_authorization():
    decision = judge(GIVE_GIFT, GIFT)
    assert refused(decision) == {"P-8E-NO-GIFTS": "961 CMR 3.04(8)(e)"}
    assert decision.violations[0].waivable


def test_a_gifts_authorization_valid_on_the_date_waives_it_and_is_named():
    decision = judge(GIVE_GIFT, GIFT, (authorization(AuthorizationKind.FREE_PLAY_OR_GIFTS),))
    assert decision.allowed
    assert decision.authorization_pks == [11]


@pytest.mark.parametrize(
    "changes",
    [
        {"valid_to": dt.date(2026, 12, 3)},
        {"revoked_on": dt.date(2026, 11, 1)},
        {"kind": AuthorizationKind.TRANSPORTATION},
    ],
)
def test_an_expired_revoked_or_other_authorization_does_not_waive_a_gift(changes):
    granted = authorization(AuthorizationKind.FREE_PLAY_OR_GIFTS)
    granted = AuthorizationFact(**(granted.__dict__ | changes))
    assert not judge(GIVE_GIFT, GIFT, (granted,)).allowed


# 3.04(8)(f) and M.G.L. c. 10 § 37: charity game tickets


def charity_sale(**changes: object) -> CharityTicketSaleFacts:
    values = {
        "game_name": "Lucky 7s",
        "serial_number": "MA171-1004",
        "on_premises": True,
        "sold_at": OPENED + dt.timedelta(hours=1),
        "opened_at": OPENED,
        "closed_at": None,
        "serial_assigned": True,
    }
    return CharityTicketSaleFacts(**(values | changes))  # type: ignore[arg-type]


def test_charity_tickets_sold_on_the_premises_during_the_occasion_are_allowed():
    assert judge(CHARITY_SELL, charity_sale()).allowed
    assert judge(CHARITY_SELL, charity_sale(sold_at=CLOSED, closed_at=CLOSED)).allowed


@pytest.mark.parametrize(
    "changes,code,citation",
    [
        ({"on_premises": False}, "L-37-CHARITY-ON-PREMISES", "M.G.L. c. 10 § 37"),
        (
            {"sold_at": OPENED - dt.timedelta(minutes=1)},
            "L-37-CHARITY-ON-PREMISES",
            "M.G.L. c. 10 § 37",
        ),
        (
            {"sold_at": CLOSED + dt.timedelta(minutes=1), "closed_at": CLOSED},
            "L-37-CHARITY-ON-PREMISES",
            "M.G.L. c. 10 § 37",
        ),
        ({"opened_at": None}, "L-37-CHARITY-ON-PREMISES", "M.G.L. c. 10 § 37"),
        ({"serial_assigned": False}, "P-8F-SERIAL-ASSIGNED", "961 CMR 3.04(8)(f)"),
    ],
)
def test_it_refuses_charity_tickets_off_the_premises_outside_the_occasion_or_not_ours(
    changes, code, citation
):
    assert refused(judge(CHARITY_SELL, charity_sale(**changes))) == {code: citation}


SOLD_ON = dt.date(2026, 12, 4)


def redemption(**changes: object) -> CharityRedemptionFacts:
    values = {
        "serial_number": "MA171-1004",
        "sold_by_organization": True,
        "serial_assigned_at_sale": True,
        "sale_date": SOLD_ON,
        "redeemed_on": SOLD_ON,
        "today": SOLD_ON + dt.timedelta(days=800),
        "tickets_sold": 40,
        "redeemed_before": 0,
    }
    return CharityRedemptionFacts(**(values | changes))  # type: ignore[arg-type]


def test_a_ticket_is_redeemed_on_day_365_after_its_sale_and_refused_on_day_366():
    on_365 = SOLD_ON + dt.timedelta(days=365)
    assert judge(CHARITY_REDEEM, redemption(redeemed_on=on_365)).allowed
    decision = judge(CHARITY_REDEEM, redemption(redeemed_on=on_365 + dt.timedelta(days=1)))
    assert refused(decision) == {"P-8F-ONE-YEAR": "961 CMR 3.04(8)(f)"}


def test_one_year_is_counted_in_the_calendar():
    assert one_year_after(dt.date(2027, 3, 1)) == dt.date(2028, 3, 1)  # 366 days: a leap year
    assert one_year_after(dt.date(2028, 2, 29)) == dt.date(2029, 2, 28)


@pytest.mark.parametrize(
    "changes",
    [
        {"sold_by_organization": False, "sale_date": None},
        {"serial_assigned_at_sale": False},
    ],
)
def test_it_refuses_to_redeem_tickets_it_did_not_sell_or_whose_serial_was_not_its(changes):
    decision = judge(CHARITY_REDEEM, redemption(**changes))
    assert refused(decision) == {"P-8F-OWN-TICKETS": "961 CMR 3.04(8)(f)"}


def test_it_refuses_a_redemption_dated_after_today():
    today = SOLD_ON + dt.timedelta(days=10)
    assert judge(CHARITY_REDEEM, redemption(redeemed_on=today, today=today)).allowed
    decision = judge(
        CHARITY_REDEEM, redemption(redeemed_on=today + dt.timedelta(days=1), today=today)
    )
    assert refused(decision) == {"P-8F-ONE-YEAR": "961 CMR 3.04(8)(f)"}
    assert "cannot be dated after today" in decision.violations[0].message


def test_a_ticket_is_redeemed_once_no_more_redeemed_than_sold():
    assert judge(CHARITY_REDEEM, redemption(tickets_sold=1, redeemed_before=0)).allowed
    assert judge(CHARITY_REDEEM, redemption(tickets_sold=40, redeemed_before=39)).allowed
    for before in (1, 2):
        decision = judge(CHARITY_REDEEM, redemption(tickets_sold=1, redeemed_before=before))
        assert refused(decision) == {"P-8F-REDEEMED-ONCE": "961 CMR 3.04(8)(f)"}


def test_it_refuses_a_redemption_before_the_sale():
    decision = judge(CHARITY_REDEEM, redemption(redeemed_on=SOLD_ON - dt.timedelta(days=1)))
    assert refused(decision) == {"P-8F-ONE-YEAR": "961 CMR 3.04(8)(f)"}


# 3.04(9)(a) and (5)(b): raffles


def raffle(**changes: object) -> RaffleFacts:
    values = {
        "permit_number": "FH-R-2026-12",
        "permit_valid_from": dt.date(2026, 1, 1),
        "permit_valid_to": dt.date(2026, 12, 31),
        "on": DAY,
        "prize_kind": "merchandise",
        "prize_description": "Quilt",
    }
    return RaffleFacts(**(values | changes))  # type: ignore[arg-type]


def ticket(**changes: object) -> RaffleTicketFacts:
    values = {
        "admission_receipt_number": 1042,
        "admission_receipt_valid": True,
        "sold_at": OPENED + dt.timedelta(minutes=30),
        "opened_at": OPENED,
        "closed_at": None,
    }
    return RaffleTicketFacts(**(values | changes))  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", ["merchandise", "charity_tickets"])
def test_a_raffle_under_a_valid_permit_with_merchandise_or_charity_tickets_is_allowed(kind):
    assert judge(CREATE_RAFFLE, raffle(prize_kind=kind)).allowed
    assert judge(SELL_RAFFLE_TICKET, [raffle(prize_kind=kind), ticket()]).allowed


@pytest.mark.parametrize(
    "changes,code",
    [
        ({"permit_valid_to": dt.date(2026, 12, 3)}, "X-9A-RAFFLE-PERMIT"),
        ({"permit_valid_from": dt.date(2026, 12, 5)}, "X-9A-RAFFLE-PERMIT"),
        ({"prize_kind": "cash"}, "X-9A-NO-CASH-PRIZE"),
        ({"prize_kind": "cash_equivalent"}, "X-9A-NO-CASH-PRIZE"),
        ({"prize_kind": "break_open"}, "X-9A-NO-BREAK-OPEN"),
    ],
)
def test_it_refuses_a_raffle_without_a_valid_permit_or_with_a_cash_or_break_open_prize(
    changes, code
):
    assert refused(judge(CREATE_RAFFLE, raffle(**changes))) == {code: "961 CMR 3.04(9)(a)"}
    assert refused(judge(SELL_RAFFLE_TICKET, [raffle(**changes), ticket()])) == {
        code: "961 CMR 3.04(9)(a)"
    }


def test_the_permit_is_valid_on_its_first_and_last_days():
    assert judge(CREATE_RAFFLE, raffle(permit_valid_from=DAY, permit_valid_to=DAY)).allowed


def test_it_refuses_raffle_tickets_to_a_person_without_a_paid_admission():
    decision = judge(SELL_RAFFLE_TICKET, [raffle(), ticket(admission_receipt_valid=False)])
    assert refused(decision) == {"X-5B-RAFFLE-ADMITTED": "961 CMR 3.04(5)(b)"}
    assert "1042" in decision.violations[0].message


@pytest.mark.parametrize(
    "changes",
    [
        {"sold_at": OPENED - dt.timedelta(minutes=1)},
        {"opened_at": None},
        {"closed_at": CLOSED, "sold_at": CLOSED + dt.timedelta(minutes=1)},
    ],
)
def test_it_refuses_raffle_tickets_outside_the_hours_of_beano(changes):
    decision = judge(SELL_RAFFLE_TICKET, [raffle(), ticket(**changes)])
    assert refused(decision) == {"X-9A-RAFFLE-HOURS": "961 CMR 3.04(9)(a)"}


# 3.04(9)(d): transportation

RIDE = TransportationFacts("Van from the senior center")


def test_it_refuses_transportation_without_the_directors_authorization():
    decision = judge(ARRANGE_TRANSPORTATION, RIDE)
    assert refused(decision) == {"X-9D-TRANSPORTATION": "961 CMR 3.04(9)(d)"}


def test_a_transportation_authorization_valid_on_the_date_waives_it_an_expired_one_does_not():
    granted = authorization(AuthorizationKind.TRANSPORTATION)
    expired = authorization(AuthorizationKind.TRANSPORTATION, valid_to=dt.date(2026, 6, 30))
    assert judge(ARRANGE_TRANSPORTATION, RIDE, (granted,)).authorization_pks == [11]
    assert not judge(ARRANGE_TRANSPORTATION, RIDE, (expired,)).allowed
    gifts = authorization(AuthorizationKind.FREE_PLAY_OR_GIFTS)
    assert not judge(ARRANGE_TRANSPORTATION, RIDE, (gifts,)).allowed


# 3.04(9)(e): other sales


def other_sale(minutes_before_opening: int, kind: str, **changes: object) -> OtherSaleFacts:
    values = {
        "kind": kind,
        "description": "Scratch tickets" if kind != "other" else "T-shirts",
        "on_beano_portion": True,
        "sold_at": OPENED - dt.timedelta(minutes=minutes_before_opening),
        "opened_at": OPENED,
        "closed_at": None,
    }
    return OtherSaleFacts(**(values | changes))  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", ["beano_supplies", "raffle_or_lottery", "food"])
def test_supplies_tickets_and_food_are_sold_around_the_occasion(kind):
    assert judge(RECORD_OTHER_SALE, other_sale(60, kind)).allowed
    assert judge(RECORD_OTHER_SALE, other_sale(-120, kind)).allowed


def test_other_goods_are_refused_sixty_minutes_before_opening_and_allowed_at_sixty_one():
    decision = judge(RECORD_OTHER_SALE, other_sale(60, "other"))
    assert refused(decision) == {"X-9E-OTHER-SALES": "961 CMR 3.04(9)(e)"}
    assert judge(RECORD_OTHER_SALE, other_sale(61, "other")).allowed


def test_other_goods_are_refused_up_to_an_hour_after_the_close_and_allowed_after():
    within = other_sale(0, "other", closed_at=CLOSED, sold_at=CLOSED + dt.timedelta(minutes=60))
    after = other_sale(0, "other", closed_at=CLOSED, sold_at=CLOSED + dt.timedelta(minutes=61))
    assert not judge(RECORD_OTHER_SALE, within).allowed
    assert judge(RECORD_OTHER_SALE, after).allowed


def test_other_goods_away_from_the_beano_portion_are_not_prohibited():
    assert judge(RECORD_OTHER_SALE, other_sale(0, "other", on_beano_portion=False)).allowed


# 3.04(3)(e): the police detail


def police(**changes: object) -> PoliceDetailFacts:
    values = {
        "officer_name": "Officer Dana Medeiros",
        "occasion_town": "Fairhaven",
        "department_town": "fairhaven ",
        "hourly_rate": Decimal("58.00"),
        "prevailing_rate": Decimal("58.00"),
        "on_worker_list": False,
    }
    return PoliceDetailFacts(**(values | changes))  # type: ignore[arg-type]


def test_a_town_officer_at_the_prevailing_rate_is_allowed():
    assert judge(RECORD_POLICE_DETAIL, police()).allowed


@pytest.mark.parametrize(
    "changes,code",
    [
        ({"hourly_rate": Decimal("58.01")}, "F-3E-PREVAILING-RATE"),
        ({"prevailing_rate": None}, "F-3E-PREVAILING-RATE"),
        ({"department_town": "Fall River"}, "F-3E-TOWN-OFFICER"),
        ({"on_worker_list": True}, "F-3E-NO-OTHER-CAPACITY"),
    ],
)
def test_it_refuses_a_police_detail_over_the_rate_from_elsewhere_or_in_another_capacity(
    changes, code
):
    assert refused(judge(RECORD_POLICE_DETAIL, police(**changes))) == {code: "961 CMR 3.04(3)(e)"}


def test_every_new_rule_has_a_stable_code_a_title_a_docstring_and_a_label():
    from beano.rules.catalog import ACTION_LABELS

    actions = {
        ANNOUNCE_VARYING,
        RECORD_REFUND,
        AWARD_DOOR_PRIZE,
        GIVE_GIFT,
        CHARITY_SELL,
        CHARITY_REDEEM,
        CREATE_RAFFLE,
        SELL_RAFFLE_TICKET,
        ARRANGE_TRANSPORTATION,
        RECORD_OTHER_SALE,
        RECORD_POLICE_DETAIL,
    }
    for action in actions:
        assert action in ACTION_LABELS
        for r in rules.rules_for(action):
            assert r.title and r.check.__doc__
    waivers = {r.code: r.waiver for a in actions for r in rules.rules_for(a) if r.waivable}
    assert waivers == {
        "P-8E-NO-GIFTS": AuthorizationKind.FREE_PLAY_OR_GIFTS,
        "X-9D-TRANSPORTATION": AuthorizationKind.TRANSPORTATION,
    }
