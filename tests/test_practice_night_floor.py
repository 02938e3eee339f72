"""The demo's practice night, as ``seed_demo`` leaves it, worked by the people of the night: only
the logins of the practice hall's signed-in workers act on its floor (961 CMR 3.04(1)(b))."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from beano import rules
from beano.demo.practice_hall import NAME
from occasions import sales_services
from occasions.models import Occasion, Sale


@pytest.fixture
def practice(seeded_demo, db):
    return Occasion.objects.get(organization__name=NAME, date=timezone.localdate())


def user(username: str):
    return get_user_model().objects.get(username=username)


@pytest.mark.parametrize("username", ["post171-mic", "post171-worker"])
def test_logins_on_no_list_of_the_practice_hall_sell_nothing_there(practice, username):
    """The hole: post171-mic and post171-worker sold admissions at the Practice Hall while
    neither was on its worker list nor signed in, and "Recent sales" named them as sellers."""
    admission = practice.price_items.get(category="admission")
    with pytest.raises(rules.RuleViolation) as refused:
        sales_services.record_sale(
            occasion=practice, lines=[(admission, 1)], admission_receipt=None, by=user(username)
        )
    assert refused.value.citations == ["961 CMR 3.04(1)(b)"]
    assert not Sale.objects.filter(occasion=practice).exists()


def test_the_practice_halls_logins_are_its_signed_in_workers_each_with_a_pin(practice):
    """Each login names a person of the hall's worker list, signed in tonight, whose personal
    PIN (published in the README) confirms; Post 171's logins hold no role at the hall."""
    from beano.accounts.pins import confirms
    from beano.demo.practice_hall import FORMER_LOGINS, LOGINS
    from organizations.models import OrganizationRole

    for username, name, role, pin, _part in LOGINS:
        held = OrganizationRole.objects.get(
            user__username=username, organization=practice.organization
        )
        assert (held.role, held.person.legal_name) == (role, name)
        assert practice.presences.present().filter(entry__person=held.person).exists()
        assert confirms(user(username), pin), username
    assert not OrganizationRole.objects.filter(
        organization=practice.organization, user__username__in=FORMER_LOGINS
    ).exists()


def test_the_practice_logins_work_the_whole_night_two_person_acts_included(practice):
    """As the practice logins: a sale, a void witnessed by another login's PIN, balls, a claim
    and its card verified, the winner paid with a verifier's PIN, the game finished, the night
    closed and the cash counted with a verifier, at whatever hour this test runs."""
    from decimal import Decimal

    from banking import drawer_services
    from beano.demo.practice_hall import LOGINS
    from beano.rules.claims import Witness
    from games import (
        claims_services,
        draw_services,
        payout_services,
        program_services,
        winner_services,
    )
    from games.winner_services import PlayerEntry
    from occasions import floor_services

    pin = {username: pin for username, _, _, pin, _ in LOGINS}
    mic, caller, door, books = (
        user(u) for u in ("practice-mic", "practice-caller", "practice-door", "practice-books")
    )
    admission = practice.price_items.get(category="admission")
    sold = [
        sales_services.record_sale(
            occasion=practice, lines=[(admission, 1)], admission_receipt=None, by=door
        )
        for _ in range(2)
    ]
    assert all(s.sold_by == door for s in sold)
    voided = sales_services.void_sale(
        sale=sold[1],
        reason="Rang up twice",
        witness=books,
        witness_secret=pin["practice-books"],
        by=mic,
    )
    assert voided.is_voided and voided.void_witness == books

    game = practice.games.get(number=1)
    for ball in ("B1", "B2", "B3", "B4", "B5"):
        draw_services.record_ball_call(game=game, number=ball, by=caller)
    claim = claims_services.record_claim(
        game=game,
        part=game.parts.get(order=1),
        ball_in_hand=5,
        calling_begun=True,
        player_name="Pat Newcomer",
        table="4",
        by=mic,
    )
    card = claims_services.verify_card(
        claim=claim,
        numbers={"B1": 1, "B2": 2, "B3": 3, "B4": 4, "B5": 5},
        witnesses=[Witness("Rose Medeiros", "9")],
        by=mic,
    )
    assert card.valid, card.reasons
    (winner,) = winner_services.record_winners(
        claims=[claim], players=[PlayerEntry(name="Pat Newcomer")], by=mic
    )
    payout = payout_services.record_payout(
        winner=winner, by=mic, verified_by=door, verifier_secret=pin["practice-door"]
    )
    assert (payout.paid_by, payout.verified_by) == (mic, door)
    program_services.finish_game(game=game, by=mic)
    floor_services.close_occasion(occasion=practice, by=mic)
    drawer = drawer_services.count_drawer(
        occasion=practice,
        pieces={"20": 1},
        by=mic,
        verified_by=books,
        verifier_secret=pin["practice-books"],
    )
    assert drawer.total == Decimal("20.00") and drawer.verified_by == books


def test_the_readme_gives_each_practice_login_its_person_and_pin():
    """The README's demo section says who plays which part, with the PIN ``seed_demo`` sets."""
    from pathlib import Path

    from beano.demo.practice_hall import LOGINS

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    for username, name, _role, pin, _part in LOGINS:
        row = next(line for line in readme.splitlines() if line.startswith(f"| `{username}` |"))
        assert f"| {name} |" in row and row.endswith(f"| {pin} |"), row
