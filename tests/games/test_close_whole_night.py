"""The close knows the whole night (issue 39, item 5). A winner recorded and never paid: "Finish
game 3?" names them instead of "Nothing is left unfinished"; "Close the occasion?" names them
with the paragraph that refuses the close (961 CMR 3.04(6)(f)) and where the payout is recorded,
and offers no "Yes"; the confirmed close is refused and logged. Once paid, "Yes" comes back.
What does not refuse the close is listed with where it is put right: a prize with no winner, a
game never played, the workers still signed in."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from beano import rules
from beano.rules.models import RefusedAction
from games import payout_services, program_services
from games.models import Claim, Game, Payout, PrizePart, Winner
from occasions import floor_services
from occasions.final_acts import close_summary
from occasions.models import Occasion
from organizations.models import AuditEvent
from tests.conftest import PASSWORD, login
from tests.fixtures.floor import on_floor
from tests.games.claims_helpers import _verifier_on_the_floor  # noqa: F401  (autouse)

YES = {"confirmed": "yes"}
OWED = "Mary Costa won $75.00 (prize 1 of game 3) and is not paid: record the payout first."


def _url(name: str, occasion: Occasion, **extra: int) -> str:
    return reverse(name, kwargs={"org_id": occasion.organization_id, "pk": occasion.pk} | extra)


def _payout_link(winner: Winner) -> str:
    game = winner.claim.game
    return f'href="{_url("game_claims", game.occasion, game_pk=game.pk)}#payout_{winner.pk}"'


@pytest.fixture
def mic(client, tenant, game_in_play):
    on_floor(tenant.member_in_charge, game_in_play.occasion, role="member_in_charge")
    login(client, tenant.member_in_charge)
    return client


@pytest.fixture
def unpaid(winner, tenant):
    """Game 3 finished with Mary Costa's $75 recorded and never paid."""
    program_services.finish_game(game=winner.claim.game, by=tenant.member_in_charge)
    return winner


def _pay(winner: Winner, tenant) -> Payout:
    return payout_services.record_payout(
        winner=winner, by=tenant.member_in_charge, verified_by=tenant.head, verifier_secret=PASSWORD
    )


def _still_open(occasion: Occasion) -> bool:
    occasion.refresh_from_db()
    return occasion.status == Occasion.Status.OPEN and occasion.closed_at is None


# Finishing the game


def test_the_finish_summary_names_the_winner_not_paid(mic, winner):
    game = winner.claim.game
    page = mic.post(_url("game_finish", game.occasion, game_pk=game.pk)).content.decode()
    assert "Finish game 3?" in page and "Nothing is left unfinished" not in page
    assert "Mary Costa won $75.00 (prize 1): $75.00 is not paid yet" in page
    assert _payout_link(winner) in page
    # Finishing ends the draw, not the payouts: it can be done, so "Yes" is offered.
    assert "Yes, finish game 3" in page
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PLAY


def test_a_game_no_longer_in_play_offers_no_yes(mic, unpaid):
    game = unpaid.claim.game
    page = mic.post(_url("game_finish", game.occasion, game_pk=game.pk)).content.decode()
    assert "It would be refused now" in page and "Game 3 is finished" in page
    assert "Yes, finish game 3" not in page and 'name="confirmed" value="yes"' not in page


# The close


def test_the_close_summary_names_the_unpaid_winner_and_offers_no_yes(mic, unpaid):
    occasion = unpaid.claim.game.occasion
    events = AuditEvent.objects.count()
    page = mic.post(_url("occasion_close", occasion)).content.decode()
    assert "Close the occasion?" in page and "It would be refused now" in page
    assert OWED.removesuffix(".") in page
    words = page.index("Mary Costa won $75.00")
    assert words < page.index("961 CMR 3.04(6)(f)", words), "the plain words first"
    assert '<span class="citation">961 CMR 3.04(6)(f)</span>' in page
    assert _payout_link(unpaid) in page
    assert "Yes, close the occasion" not in page and 'name="confirmed" value="yes"' not in page
    assert "Nothing is left unfinished" not in page
    assert _still_open(occasion) and AuditEvent.objects.count() == events
    assert not RefusedAction.objects.exists()  # a summary judges, it never logs


def test_the_confirmed_close_is_refused_with_its_citation_and_logged(mic, unpaid):
    occasion = unpaid.claim.game.occasion
    response = mic.post(_url("occasion_close", occasion), YES)
    page = response.content.decode()
    assert response.status_code == 200 and OWED.removesuffix(".") in page
    assert _payout_link(unpaid) in page and "Yes, close the occasion" not in page
    assert _still_open(occasion)
    [refusal] = RefusedAction.objects.all()
    assert refusal.action == "occasion.close.prizes" and refusal.citations == "961 CMR 3.04(6)(f)"


def test_the_service_refuses_the_close_until_the_winner_is_paid(unpaid, tenant):
    occasion = unpaid.claim.game.occasion
    with pytest.raises(rules.RuleViolation) as refused:
        floor_services.close_occasion(occasion=occasion, by=tenant.member_in_charge)
    assert refused.value.citations == ["961 CMR 3.04(6)(f)"]
    assert [v.code for v in refused.value.violations] == ["C-6F-PAID-BY-THE-CLOSE"]
    assert _still_open(occasion)
    _pay(unpaid, tenant)
    closed = floor_services.close_occasion(occasion=occasion, by=tenant.member_in_charge)
    assert closed.status == Occasion.Status.CLOSED


def test_a_winner_paid_less_than_the_share_is_still_owed_the_rest(unpaid, tenant):
    """A payout short of the share (the rules refuse one now; a record older than them)."""
    Payout.objects.create(
        winner=unpaid,
        amount=Decimal("70.00"),
        paid_by=tenant.member_in_charge,
        verified_by=tenant.head,
        paid_at=timezone.now(),
    )
    occasion = unpaid.claim.game.occasion
    with pytest.raises(rules.RuleViolation) as refused:
        floor_services.close_occasion(occasion=occasion, by=tenant.member_in_charge)
    [message] = refused.value.messages
    assert message.endswith("is paid $70.00: $5.00 is still owed.")


def test_once_paid_the_summary_offers_yes_and_the_close_goes_through(mic, unpaid, tenant):
    _pay(unpaid, tenant)
    occasion = unpaid.claim.game.occasion
    page = mic.post(_url("occasion_close", occasion)).content.decode()
    assert "It would be refused now" not in page and "Mary Costa won" not in page
    assert "Yes, close the occasion" in page
    assert mic.post(_url("occasion_close", occasion), YES).status_code == 302
    occasion.refresh_from_db()
    assert occasion.status == Occasion.Status.CLOSED


def test_the_game_in_play_refuses_with_where_it_is_finished(mic, game_in_play):
    occasion = game_in_play.occasion
    page = mic.post(_url("occasion_close", occasion)).content.decode()
    assert "It would be refused now" in page
    assert "Finish game 3 before closing the occasion." in page
    assert f'href="{_url("game_program", occasion)}#game-{game_in_play.pk}"' in page
    assert "Yes, close the occasion" not in page


def test_what_does_not_refuse_the_close_is_listed_with_where_to_put_it_right(
    mic, game_in_play, tenant
):
    """Game 3 finished with no winner, game 5 never played, workers still signed in: listed,
    each with its page; nothing refuses, so "Yes" is offered."""
    occasion = game_in_play.occasion
    program_services.finish_game(game=game_in_play, by=tenant.member_in_charge)
    special = Game.objects.create(occasion=occasion, number=5, half=2, kind="special")
    PrizePart.objects.create(
        game=special, order=1, arrangement=game_in_play.parts.get().arrangement, amount=150
    )
    page = mic.post(_url("occasion_close", occasion)).content.decode()
    unfinished = page.split('class="confirm-unfinished"')[1].split("</ul>")[0]
    assert "Prize 1 of game 3 (Four corners, $75.00) has no winner recorded." in unfinished
    claims = _url("game_claims", occasion, game_pk=game_in_play.pk)
    assert f'href="{claims}">Game 3&#x27;s claims</a>' in unfinished
    assert "Game 5 (Special, $150.00 in prizes) was never played." in unfinished
    assert f'href="{_url("game_program", occasion)}">Games</a>' in unfinished
    assert "still signed in (" in unfinished
    assert f'href="{_url("workers_present", occasion)}">Workers</a>' in unfinished
    assert "It would be refused now" not in page and "Yes, close the occasion" in page


def _winners(game: Game, count: int) -> None:
    """``count`` winners of ``game``'s prize, recorded straight in (another part's work)."""
    part = game.parts.get()
    for i in range(count):
        claim = Claim.objects.create(
            game=game, part=part, player_name=f"Player {i}", claimed_at=timezone.now()
        )
        Winner.objects.create(
            claim=claim,
            player_name=f"Player {i}",
            share=Decimal("10.00"),
            kind="cash",
            recorded_at=timezone.now(),
        )


def test_the_close_summary_reads_the_same_queries_at_two_sizes(unpaid):
    occasion = unpaid.claim.game.occasion
    close_summary(occasion)  # the limits in force, kept in the cache by the first reader

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            summary = close_summary(occasion)
        assert summary.refused
        return len(queries)

    small = count()
    Game.objects.bulk_create(
        Game(occasion=occasion, number=n, half=2, kind="regular", status="finished")
        for n in range(4, 30)
    )
    _winners(unpaid.claim.game, 12)
    assert count() == small


def test_paper_at_the_door_not_counted_back_is_listed_with_its_page(
    mic, game_in_play, tenant, card_purchase
):
    """What the reports leave open is listed too: the paper by serial still at the door."""
    from equipment import paper_services

    occasion = game_in_play.occasion
    paper_services.issue_paper(
        occasion=occasion, purchase=card_purchase, serial_from=1, serial_to=40, by=tenant.head
    )
    program_services.finish_game(game=game_in_play, by=tenant.member_in_charge)
    page = mic.post(_url("occasion_close", occasion)).content.decode()
    unfinished = page.split('class="confirm-unfinished"')[1].split("</ul>")[0]
    assert "Admission Blue 1–40 is at the door, not counted back" in unfinished
    assert f'href="{_url("occasion_serials", occasion)}">Paper by serial</a>' in unfinished
    assert "Yes, close the occasion" in page  # counted back at the close or after it


def test_a_night_cut_short_lists_its_games_never_played_in_one_line(mic, game_in_play, tenant):
    occasion = game_in_play.occasion
    program_services.finish_game(game=game_in_play, by=tenant.member_in_charge)
    arrangement = game_in_play.parts.get().arrangement
    for number, amount in ((5, 50), (6, 100), (8, 75)):
        game = Game.objects.create(occasion=occasion, number=number, half=2, kind="regular")
        PrizePart.objects.create(game=game, order=1, arrangement=arrangement, amount=amount)
    page = mic.post(_url("occasion_close", occasion)).content.decode()
    unfinished = page.split('class="confirm-unfinished"')[1].split("</ul>")[0]
    assert "Games 5, 6 and 8 were never played ($225.00 in prizes)." in unfinished
    assert unfinished.count(">Games</a>") == 1
