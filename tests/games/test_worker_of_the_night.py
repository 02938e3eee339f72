"""Every act of a game is done by a worker of that night (961 CMR 3.04(1)(b)): a ball, its
correction, a prize announced, the balls confirmed, a game started or finished, a claim, the draw
and a card verified, the winners, a payout. By a login whose person is not signed in on that
night's floor, each is refused by the rules service, nothing saved, the refusal logged. The
``open_occasion`` fixture has the member in charge and the worker on the floor, not the head."""

from __future__ import annotations

import pytest

from beano import rules
from beano.rules.claims import Witness
from beano.rules.models import RefusedAction
from games import claims_services, draw_services, payout_services, program_services
from games.claims_services import PlayerEntry
from organizations.models import AuditEvent
from tests.conftest import PASSWORD
from tests.fixtures.games import WINNING_CORNERS, at_night

REFUSAL = {"W-1B-WORKER-OF-THE-NIGHT": "961 CMR 3.04(1)(b)"}
ROSE = Witness("Rose Medeiros", "12")


def _winner(claim, tenant):
    mic = tenant.member_in_charge
    claims_services.verify_card(claim=claim, numbers=WINNING_CORNERS, witnesses=[ROSE], by=mic)
    return claims_services.record_winners(
        claims=[claim], players=[PlayerEntry("Mary Costa")], by=mic
    )


def _ready_to_start(game, tenant):
    mic = tenant.member_in_charge
    program_services.announce_prize_part(
        part=game.parts.get(), by=mic, at=at_night(game.occasion, 18, 58)
    )
    program_services.confirm_balls(game=game, by=mic, at=at_night(game.occasion, 18, 59))


#: (what the fixtures give, what it is readied with, the act by the head, as the refusal says it)
ACTS = {
    "calling a ball": (
        "draw_game",
        None,
        lambda game, head: draw_services.record_ball_call(game=game, number=7, by=head),
    ),
    "correcting a ball": (
        "ball_call",
        None,
        lambda call, head: draw_services.correct_ball_call(call=call, reason="typo", by=head),
    ),
    "finishing a game": (
        "draw_game",
        None,
        lambda game, head: program_services.finish_game(game=game, by=head),
    ),
    "announcing a prize": (
        "program_game",
        None,
        lambda game, head: program_services.announce_prize_part(
            part=game.parts.get(), by=head, at=at_night(game.occasion, 19, 0)
        ),
    ),
    "confirming the balls": (
        "program_game",
        None,
        lambda game, head: program_services.confirm_balls(
            game=game, by=head, at=at_night(game.occasion, 19, 0)
        ),
    ),
    "starting a game": (
        "program_game",
        _ready_to_start,
        lambda game, head: program_services.start_game(
            game=game, by=head, at=at_night(game.occasion, 19, 0)
        ),
    ),
    "recording a claim": (
        "game_in_play",
        None,
        lambda game, head: claims_services.record_claim(
            game=game,
            part=game.parts.get(),
            ball_in_hand=None,
            calling_begun=False,
            player_name="Mary Costa",
            table="7",
            by=head,
        ),
    ),
    "verifying the draw": (
        "claim",
        None,
        lambda claim, head: claims_services.verify_draw(
            claim=claim, member_in_charge="Ann Silva", witnesses=["Rose Medeiros"], by=head
        ),
    ),
    "verifying a card": (
        "claim",
        None,
        lambda claim, head: claims_services.verify_card(
            claim=claim, numbers=WINNING_CORNERS, witnesses=[ROSE], by=head
        ),
    ),
    "recording the winners": (
        "claim",
        lambda claim, tenant: claims_services.verify_card(
            claim=claim, numbers=WINNING_CORNERS, witnesses=[ROSE], by=tenant.member_in_charge
        ),
        lambda claim, head: claims_services.record_winners(
            claims=[claim], players=[PlayerEntry("Mary Costa")], by=head
        ),
    ),
    "paying a winner": (
        "claim",
        _winner,
        lambda claim, head: payout_services.record_payout(
            winner=claim.winner,
            by=head,
            verified_by=claim.game.occasion.organization.user_roles.get(
                role="member_in_charge"
            ).user,  # on the floor, confirming with their own password
            verifier_secret=PASSWORD,
        ),
    ),
}


@pytest.mark.parametrize("doing", list(ACTS))
def test_every_act_of_a_game_is_refused_to_a_login_not_on_the_nights_floor(
    request, tenant, open_occasion, doing
):
    given, ready, act = ACTS[doing]
    target = request.getfixturevalue(given)
    if ready is not None:
        ready(target, tenant)
        target.refresh_from_db()
    before = AuditEvent.objects.count()
    with pytest.raises(rules.RuleViolation) as refused:
        act(target, tenant.head)
    assert {v.code: v.citation for v in refused.value.violations} == REFUSAL
    assert f"{doing} is only for a worker on the night's list" in refused.value.messages[0]
    assert RefusedAction.objects.get().facts["facts"]["doing"] == doing
    assert AuditEvent.objects.count() == before  # nothing of the act is saved
