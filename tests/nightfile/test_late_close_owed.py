"""After the fact, the close judges the whole night as the close on the night does (issue 39,
item 5): a night left open with a winner recorded and never paid is not closed after the fact,
nor from its paper sheets, while the prize is owed (961 CMR 3.04(6)(f)); both pages say so with
where it is put right, the winner's payout entered from the game's sheet as it is signed; then
the late close goes through."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from beano import rules
from beano.rules.models import RefusedAction
from games.models import Claim, Game, Payout, Winner
from nightfile.late_close import close_forgotten_night
from occasions import paper
from occasions.models import Occasion, WorkerPresence
from tests.conftest import login
from tests.nightfile.test_late_close import REASON, forgotten, game_4, post_data  # noqa: F401
from tests.occasions.conftest import at

OWED = "Pat Doe won $50.00 (prize 1 of game 4) and is not paid: record the payout first."


@pytest.fixture
def owed(forgotten, crew):  # noqa: F811
    """Pat Doe won game 4's $50 at 9:04 PM and was never paid; Mary Gallagher worked the floor
    from 6:30 PM (the night's records, made straight in: the clock reads three days later)."""
    game = game_4(forgotten)
    claim = Claim.objects.create(
        game=game, part=game.parts.get(), player_name="Pat Doe", table="9", claimed_at=at(21, 3)
    )
    WorkerPresence.objects.create(
        occasion=forgotten,
        entry=crew["mary"],
        role="floor_worker",
        identification="P-06",
        signed_in_at=at(18, 30),
    )
    return Winner.objects.create(
        claim=claim,
        player_name="Pat Doe",
        share=Decimal("50.00"),
        kind="cash",
        recorded_at=at(21, 4),
    )


def url(name: str, occasion: Occasion, **extra: object) -> str:
    return reverse(name, kwargs={"org_id": occasion.organization_id, "pk": occasion.pk} | extra)


def _sheet(occasion: Occasion) -> str:
    return url("paper_game", occasion, number=4)


def _unchanged(occasion: Occasion) -> bool:
    occasion.refresh_from_db()
    return occasion.status == Occasion.Status.OPEN and game_4(occasion).status == "in_play"


def test_the_late_close_is_refused_while_a_winner_is_owed(tenant, owed):
    occasion = owed.claim.game.occasion
    with pytest.raises(rules.RuleViolation) as refused:
        close_forgotten_night(
            occasion=occasion,
            ended_at=at(22, 30),
            reason=REASON,
            finishes={game_4(occasion).pk: at(21, 40)},
            by=tenant.bookkeeper,
        )
    assert refused.value.citations == ["961 CMR 3.04(6)(f)"]
    assert refused.value.violations[0].message == OWED
    assert _unchanged(occasion)  # the game finished for it is rolled back with it
    assert RefusedAction.objects.get().citations == "961 CMR 3.04(6)(f)"


def test_the_late_close_page_names_the_winner_owed_and_where_the_payout_is_entered(
    client, tenant, owed
):
    occasion = owed.claim.game.occasion
    login(client, tenant.bookkeeper)
    page = client.get(url("occasion_close_late", occasion)).content.decode()
    refused = page.split('class="alert alert-danger late-close-refused"')[1].split("</div>")[0]
    assert OWED.removesuffix(".") in refused and "961 CMR 3.04(6)(f)" in refused
    link = f'href="{_sheet(occasion)}#owed">Enter the payout from game 4&#x27;s sheet</a>'
    assert link in refused
    assert "Close the occasion at that time" not in page
    assert "It cannot be closed yet" in page
    response = client.post(url("occasion_close_late", occasion), post_data(occasion))
    assert response.status_code == 200 and OWED.removesuffix(".") in response.content.decode()
    assert _unchanged(occasion)


def test_the_close_entered_from_the_sheets_is_refused_alike(client, tenant, owed):
    occasion = owed.claim.game.occasion
    Game.objects.filter(pk=game_4(occasion).pk).update(status="finished", finished_at=at(21, 40))
    paper.begin(
        occasion=occasion,
        sheets="Close sheet",
        reason="The laptop was shut before the close",
        starts_at=at(21, 0),
        ends_at=at(23, 0),
        by=tenant.bookkeeper,
    )
    login(client, tenant.bookkeeper)
    close = url("paper_section", occasion, section="close")
    shown = client.get(close).content.decode()
    assert "The close would be refused now" in shown and OWED.removesuffix(".") in shown
    assert f'href="{_sheet(occasion)}#owed"' in shown
    page = client.post(close, {"closed_at": "22:30"}).content.decode()
    assert "Nothing was saved" in page and "961 CMR 3.04(6)(f)" in page
    assert "Pat Doe won $50.00 (prize 1 of game 4) and is not paid" in page
    occasion.refresh_from_db()
    assert occasion.status == Occasion.Status.OPEN


def _payout_post(owed: Winner, paid_by: WorkerPresence, verified_by: WorkerPresence) -> dict:
    prefix = f"owed-{owed.pk}"
    return {
        "c-TOTAL_FORMS": "3",
        "c-INITIAL_FORMS": "0",
        "c-MIN_NUM_FORMS": "0",
        "c-MAX_NUM_FORMS": "1000",
        f"{prefix}-paid_by": paid_by.pk,
        f"{prefix}-verified_by": verified_by.pk,
        f"{prefix}-paid_at": "21:10",
    }


def test_the_winner_is_paid_from_the_sheet_then_the_night_closes_late(client, tenant, owed):
    occasion = owed.claim.game.occasion
    paper.begin(
        occasion=occasion,
        sheets="Game 4 sheet",
        reason="The payout was signed on the sheet, not entered",
        starts_at=at(21, 0),
        ends_at=at(22, 30),
        by=tenant.bookkeeper,
    )
    login(client, tenant.bookkeeper)
    sheet = client.get(_sheet(occasion)).content.decode()
    assert 'id="owed"' in sheet and "Pat Doe: $50.00 (prize 1" in sheet
    linda = WorkerPresence.objects.get(occasion=occasion, entry__person__legal_name="Linda Souza")
    mary = WorkerPresence.objects.get(occasion=occasion, entry__person__legal_name="Mary Gallagher")
    response = client.post(_sheet(occasion), _payout_post(owed, linda, mary))
    assert response.status_code == 302, response.content.decode()
    payout = Payout.objects.get(winner=owed)
    assert payout.amount == Decimal("50.00") and payout.paid_at == at(21, 10)
    assert (payout.paid_by_worker, payout.verified_by_worker) == (linda, mary)
    page = client.get(url("occasion_close_late", occasion)).content.decode()
    assert "late-close-refused" not in page and "Close the occasion at that time" in page
    response = client.post(url("occasion_close_late", occasion), post_data(occasion))
    assert response.status_code == 302
    occasion.refresh_from_db()
    assert occasion.status == Occasion.Status.CLOSED and occasion.closed_at == at(22, 30)


def test_a_payout_from_the_sheet_is_judged_as_one_on_the_night(client, tenant, owed):
    """The bookkeeper is compensated: she may not verify it (3.04(1)(g)); nothing is saved."""
    occasion = owed.claim.game.occasion
    paper.begin(
        occasion=occasion,
        sheets="Game 4 sheet",
        reason="The payout was signed on the sheet",
        starts_at=at(21, 0),
        ends_at=at(22, 30),
        by=tenant.bookkeeper,
    )
    login(client, tenant.bookkeeper)
    linda = WorkerPresence.objects.get(occasion=occasion, entry__person__legal_name="Linda Souza")
    karen = WorkerPresence.objects.get(occasion=occasion, entry__person__legal_name="Karen Pacheco")
    page = client.post(_sheet(occasion), _payout_post(owed, linda, karen)).content.decode()
    assert "Nothing was saved" in page and "961 CMR 3.04(1)(g)" in page
    assert not Payout.objects.exists()
    assert f'name="owed-{owed.pk}-paid_at" value="21:10"' in page  # what was typed is kept
