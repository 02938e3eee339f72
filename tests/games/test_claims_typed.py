"""Claims verify what people type (issue 39): a whole card typed for "any single line" is judged
as the whole card and its line is found and shown; the squares alone are the arrangement's; an
empty claim is refused; the claim form's defaults are the answers the rules accept. The
services, then the claims page."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from beano import rules
from beano.rules.models import RefusedAction
from games import claims_services as services
from games.models import BallCall, CardVerification, Claim
from organizations.models import AuditEvent
from tests.conftest import login
from tests.fixtures.games import at_night
from tests.games.claims_helpers import ROW_2, WHOLE_CARD, WITNESS, call_the_balls

CARD = WHOLE_CARD


@pytest.fixture
def any_line(draw_game):
    """``draw_game`` (any single line for $50, in play since 6:55 PM) with ``BALLS`` called."""
    return call_the_balls(draw_game)


@pytest.fixture
def line_claim(any_line, tenant):
    return services.record_claim(
        game=any_line,
        part=any_line.parts.get(),
        ball_in_hand=None,
        calling_begun=False,
        player_name="Mary Costa",
        table="7",
        by=tenant.worker,
    )


def verify(claim, by, numbers):
    return services.verify_card(claim=claim, numbers=numbers, witnesses=WITNESS, by=by)


# The services


def test_a_whole_card_typed_for_any_line_is_valid_and_its_line_is_found(line_claim, tenant):
    card = verify(line_claim, tenant.member_in_charge, CARD)
    assert card.valid and card.reasons == []
    assert card.scope == CardVerification.Scope.WHOLE_CARD
    event = AuditEvent.objects.get(action="games.card.verified")
    assert event.new_values["scope"] == "whole_card"
    assert event.new_values["position"] == "row 2"


def test_the_lines_squares_alone_are_the_arrangements_squares(line_claim, tenant):
    card = verify(line_claim, tenant.member_in_charge, {s: CARD[s] for s in ROW_2})
    assert card.valid and card.scope == CardVerification.Scope.ARRANGEMENT
    wrong = verify(line_claim, tenant.member_in_charge, {s: CARD[s] for s in ROW_2} | {"B1": 4})
    assert not wrong.valid
    assert {r["code"] for r in wrong.reasons} == {"C-6E-NUMBERS-DRAWN"}


def test_a_whole_card_whose_line_is_not_covered_is_still_invalid(line_claim, tenant):
    BallCall.objects.filter(game=line_claim.game, number=52).update(
        voided_at=at_night(line_claim.game.occasion, 18, 58)
    )
    card = verify(line_claim, tenant.member_in_charge, CARD)
    assert not card.valid and card.scope == CardVerification.Scope.WHOLE_CARD
    assert [r["code"] for r in card.reasons] == ["C-6E-ARRANGEMENT"]


def test_a_whole_card_completed_only_by_the_ball_in_hand_not_yet_called_is_invalid(
    any_line, tenant
):
    BallCall.objects.filter(game=any_line, number=52).delete()
    claim = services.record_claim(
        game=any_line,
        part=any_line.parts.get(),
        ball_in_hand=52,
        calling_begun=False,
        player_name="Mary Costa",
        table="7",
        by=tenant.worker,
    )
    card = verify(claim, tenant.member_in_charge, CARD)
    assert not card.valid
    assert {r["code"] for r in card.reasons} == {"C-6A-BALL-NOT-COUNTED", "C-6E-ARRANGEMENT"}
    # (6)(e): who verified it and in front of whom is kept, valid or not.
    assert card.verified_by == tenant.member_in_charge
    assert card.witnesses == [{"name": "Rose Medeiros", "table": "12"}]


@pytest.mark.parametrize("player,table", [("", ""), ("   ", "  ")])
def test_an_empty_claim_is_refused_and_nothing_is_saved(any_line, tenant, player, table):
    with pytest.raises(rules.RuleViolation) as refused:
        services.record_claim(
            game=any_line,
            part=any_line.parts.get(),
            ball_in_hand=None,
            calling_begun=False,
            player_name=player,
            table=table,
            by=tenant.worker,
        )
    assert refused.value.citations == ["961 CMR 3.04(6)(e)"]
    assert not Claim.objects.exists()
    assert RefusedAction.objects.get().action == "game.record_claim"


def test_a_claim_by_table_alone_or_name_alone_is_recorded(any_line, tenant):
    part = any_line.parts.get()
    for player, table in (("", "14"), ("Joe Dias", "")):
        services.record_claim(
            game=any_line,
            part=part,
            ball_in_hand=None,
            calling_begun=False,
            player_name=player,
            table=table,
            by=tenant.worker,
        )
    assert Claim.objects.count() == 2


@pytest.mark.parametrize(
    "ball,begun",
    [(70, True), (52 + 2, False)],  # O70 the last ball keyed in; G54 not keyed in
)
def test_calling_begun_left_unanswered_is_what_the_console_recorded(any_line, tenant, ball, begun):
    """The console keys a ball in as its calling begins: the last ball keyed in had begun (it
    counts), a ball not keyed in had not (it does not); the answer the rules refuse is never
    the one taken for an unanswered question."""
    claim = services.record_claim(
        game=any_line,
        part=any_line.parts.get(),
        ball_in_hand=ball,
        calling_begun=None,
        player_name="Mary Costa",
        table="7",
        by=tenant.worker,
    )
    assert claim.calling_begun is begun
    event = AuditEvent.objects.get(action="games.claim.recorded")
    assert event.new_values["calling_begun"] is begun
    assert event.new_values["calling_begun_answered"] is False


# The claims page


def page_url(game, name="game_claims", **more):
    kwargs = {"org_id": game.occasion.organization_id, "pk": game.occasion_id, "game_pk": game.pk}
    return reverse(name, kwargs=kwargs | more)


def card_post(claim, numbers, **more):
    data = {f"card{claim.pk}-sq_{s}": str(n) for s, n in numbers.items()}
    data |= {
        f"card{claim.pk}-witness1_name": "Rose Medeiros",
        f"card{claim.pk}-witness1_table": "12",
    }
    return data | {f"card{claim.pk}-{k}": v for k, v in more.items()}


def _found_squares(html: str) -> set[str]:
    picture = html[html.index('class="card-picture') :]
    picture = picture[: picture.index("</table>")]
    return set(re.findall(r'<td class="[^"]*is-found[^"]*"[^>]*data-square="(\w\d)"', picture))


def test_a_whole_card_posted_as_the_arrangements_squares_is_valid_and_its_line_shown(
    client, tenant, line_claim
):
    """The page's old radio said "the arrangement's squares" by default: whatever is posted
    for it, 24 numbers are the whole card."""
    login(client, tenant.member_in_charge)
    post = page_url(line_claim.game, "claim_verify_card", claim_pk=line_claim.pk)
    response = client.post(post, card_post(line_claim, CARD, whole_card="no"), follow=True)
    html = response.content.decode()
    assert "Card valid" in html and "was not drawn" not in html
    assert "Found: row 2" in html
    assert _found_squares(html) == set(ROW_2)
    assert CardVerification.objects.get().valid


def test_the_card_form_offers_no_scope_to_choose_and_says_how_it_checks(client, tenant, line_claim):
    login(client, tenant.member_in_charge)
    html = client.get(page_url(line_claim.game)).content.decode()
    assert "whole_card" not in html
    assert "all 24 numbers: checked as the whole card" in html
    assert 'data-card-variants="' in html and 'data-card-counted="' in html


def test_an_empty_claim_is_refused_in_place_with_nothing_saved(client, tenant, any_line):
    login(client, tenant.worker)
    data = {"part": any_line.parts.get().pk, "ball_in_hand": "", "player_name": "", "table": ""}
    response = client.post(page_url(any_line, "claim_record"), data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Give the player&#x27;s name or their table" in html
    assert "961 CMR 3.04(6)(e)" in html
    assert not Claim.objects.exists()


def test_the_claim_form_answers_nothing_for_the_caller_by_default(client, tenant, any_line):
    login(client, tenant.worker)
    html = client.get(page_url(any_line)).content.decode()
    form = html[html.index('id="claim"') : html.index("Record the claim</button>")]
    radios = re.findall(r'<input type="radio"[^>]*name="calling_begun"[^>]*>', form)
    assert len(radios) == 2 and not any("checked" in r for r in radios)
    assert 'data-last-call="70"' in form


def test_the_last_ball_keyed_in_as_the_ball_in_hand_is_recorded_unanswered(
    client, tenant, any_line
):
    """Issue 39: the question defaulted to "No — not yet begun", which the rules refuse for the
    last ball keyed in. Left unanswered, it is taken from the console's record."""
    login(client, tenant.worker)
    data = {"part": any_line.parts.get().pk, "ball_in_hand": "70", "player_name": "Joe Dias"}
    response = client.post(page_url(any_line, "claim_record"), data)
    assert response.status_code == 302
    claim = Claim.objects.get()
    assert claim.ball_in_hand == 70 and claim.calling_begun
