"""A night file records what its sheets say, or refuses it with the page's citation: an amount
is never altered in silence (issue 40, item 8). A winner-take-all prize is judged as the program
page judges it; a card refused says why, as the claims page does; a game sheet's times out of
order are named in the sheet's terms."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from beano import rules
from games import program_services
from games.models import Arrangement, Game, PrizePart
from occasions.models import Occasion
from tests.reports.night_fixtures import known_night
from tests.reports.test_night_entry import enter, refused

D = Decimal


def with_winner_take_all(license_number: str, amount: str, cards: int = 500) -> dict[str, Any]:
    """The known night with ``cards`` winner-take-all cards at $1 sold at the door and a fourth
    game, winner-take-all, whose sheet gives its prize as ``amount``."""
    data = known_night(license_number)
    for line in data["door"]["tallies"][0]["lines"]:
        if line["category"] == "winner_take_all":
            line["quantity"] = cards
    data["games"].append(
        {
            "number": 4,
            "half": 2,
            "kind": "winner_take_all",
            "parts": [{"arrangement": "single_line", "amount": amount, "announced_at": "20:36"}],
            "balls_confirmed_at": "20:36",
            "started_at": "20:37",
            "finished_at": "20:50",
        }
    )
    return data


def citations(error: Any) -> set[str]:
    return {v.citation for v in error.error.violations}


def page_judgment(tenant: Any, amount: str, cards: int = 500) -> set[str] | Decimal:
    """What the program page does with ``amount`` typed as the winner-take-all prize, ``cards``
    of its cards sold: the night's door recorded from its sheet, the night left open, the
    prize added through the program page's service."""
    data = with_winner_take_all(tenant.organization.licenses.get().number, amount, cards)
    data["games"] = data["games"][:3]
    data.pop("closed_at")
    data.pop("police_details")  # recorded at the close
    occasion = enter(tenant, data)
    game = program_services.add_game(
        occasion=occasion, number=4, half=2, kind="winner_take_all", by=tenant.head
    )
    try:
        part = program_services.add_prize_part(
            game=game,
            arrangement=Arrangement.objects.get(code="single_line"),
            kind="cash",
            amount=D(amount),
            description="",
            donated=False,
            is_bonus=False,
            by=tenant.head,
        )
    except rules.RuleViolation as error:
        return {v.citation for v in error.violations}
    return part.amount


def test_a_winner_take_all_prize_the_sheet_gives_wrong_is_refused_as_on_the_program_page(
    night_records, report_clock
):
    """$500 of its cards sold: the prize is $450.00 held to the $200.00 single-game maximum. A
    sheet saying "450.00" was recorded as a $200.00 prize without a word; it is refused with
    (8)(a) and (8)(b), as the program page refuses the same prize."""
    tenant = night_records
    error = refused(tenant, with_winner_take_all(tenant.organization.licenses.get().number, "450"))
    assert error.act.sheet == "Game 4 sheet" and "8:36 PM" in error.messages[0]
    assert citations(error) == {"961 CMR 3.04(8)(a)", "961 CMR 3.04(8)(b)"}
    assert page_judgment(tenant, "450.00") == citations(error)


def test_the_winner_take_all_refusal_says_the_ceiling_that_makes_its_figure(
    night_records, report_clock
):
    """ "$500.00 less 10 %: $200.00" was arithmetic that does not add up: $500.00 less 10 % is
    $450.00, and the single-game maximum holds the prize to $200.00."""
    tenant = night_records
    error = refused(tenant, with_winner_take_all(tenant.organization.licenses.get().number, "450"))
    [message] = [v.message for v in error.error.violations if v.code == "P-8A3-WINNER-TAKE-ALL"]
    assert "$500.00 less 10 % is $450.00" in message
    assert "single-game maximum of $200.00" in message and "not $450.00" in message


def test_a_winner_take_all_prize_the_sheet_gives_right_is_recorded_as_written(
    night_records, report_clock
):
    tenant = night_records
    number = tenant.organization.licenses.get().number
    occasion = enter(tenant, with_winner_take_all(number, "27.00", cards=30))
    part = PrizePart.objects.get(game__occasion=occasion, game__number=4)
    assert part.amount == D("27.00")
    assert Game.objects.get(pk=part.game_id).status == "finished"


@pytest.mark.parametrize("amount", ["0.00", "30.00", "26.99"])
def test_a_winner_take_all_prize_off_its_share_is_refused_in_the_file_and_on_the_page(
    night_records, report_clock, amount
):
    tenant = night_records
    number = tenant.organization.licenses.get().number
    error = refused(tenant, with_winner_take_all(number, amount, cards=30))
    assert citations(error) == {"961 CMR 3.04(8)(a)"}
    assert page_judgment(tenant, amount, cards=30) == citations(error)
