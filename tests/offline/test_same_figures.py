"""A night recorded from the laptop's queue gives the figures the same night gives recorded live:
the same acts, at the same moments, sent to the live pages one by one (the server's clock at
each act's moment) and then, the database put back, sent as the queue a laptop keeps while the
Wi-Fi is down. The report's figures (what is filed, hashed and printed) are the same but for
their provenance, which says where the acts came from."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import transaction
from django.utils import timezone

from games.models import BallCall, Claim
from occasions.models import Sale
from offline.models import QueuedAct
from reports.figures import compute_figures, to_json
from tests.conftest import login
from tests.offline.helpers import ball_act, claim_act, night, sale_act, send

KEYED = ("sales/record/", "draw/call/", "claims/record/")


def _night(occasion, game) -> list[dict]:
    """Twenty sales, ten balls and a claim, the Wi-Fi down from 7:00 to 7:10 PM."""
    acts = []
    for i in range(20):
        quantities = {"admission": 1, "extra_regular": i % 3} if i % 4 else {"admission": 1}
        acts.append(sale_act(occasion, i + 1, night(occasion, 19, 0, i * 2), **quantities))
    for i, ball in enumerate((42, 7, 19, 33, 61, 4, 27, 50, 66, 12)):
        acts.append(ball_act(game, 21 + i, night(occasion, 19, 5, i * 3), ball))
    acts.append(claim_act(game, 31, night(occasion, 19, 9)))
    return acts


def _figures(occasion) -> dict:
    figures = to_json(compute_figures(occasion))
    figures.pop("provenance")
    return figures


def _recorded() -> tuple[int, int, int]:
    return Sale.objects.count(), BallCall.objects.count(), Claim.objects.count()


@pytest.mark.django_db
def test_a_night_from_the_queue_gives_the_figures_of_the_same_night_live(
    client, tenant, draw_game, monkeypatch
):
    occasion = draw_game.occasion
    login(client, tenant.worker)
    acts = _night(occasion, draw_game)
    before = _recorded()

    with transaction.atomic():
        for act in acts:
            moment = dt.datetime.fromisoformat(act["done_at"])
            monkeypatch.setattr(timezone, "now", lambda moment=moment: moment)
            data = dict(act["fields"])
            if act["path"].endswith(KEYED):
                data["request_key"] = act["key"]
            response = client.post(act["path"], data, headers={"HX-Request": "true"})
            assert response.status_code == 200, act["path"]
        live = _figures(occasion)
        live_counts = _recorded()
        transaction.set_rollback(True)

    assert _recorded() == before
    monkeypatch.setattr(timezone, "now", lambda: night(occasion, 23, 0))
    results = send(client, occasion, acts).json()["results"]
    assert {r["state"] for r in results} == {"recorded"}
    assert QueuedAct.objects.filter(state="recorded").count() == len(acts)
    assert _recorded() == live_counts == (before[0] + 20, before[1] + 10, before[2] + 1)
    assert _figures(occasion) == live
    assert live["receipts"]["gross_receipts"] != "0.00"
