"""The night's pack the hall laptop keeps (the contract's §1): what it holds, no-store, any
member and an inspector may read it, another organization's is a 404, and its queries do not
grow with the night."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.draw_services import record_ball_call
from games.models import Game
from occasions.sales_services import record_sale
from tests.conftest import login
from tests.fixtures.games import start_game_for_tests
from tests.offline.helpers import night, pack_url


def _sell(occasion, user, n):
    items = {i.category: i for i in occasion.price_items.all()}
    for _ in range(n):
        record_sale(
            occasion=occasion, lines=[(items["admission"], 1)], admission_receipt=None, by=user
        )


def test_the_pack_holds_what_the_laptop_needs_offline(client, tenant, draw_game):
    occasion = draw_game.occasion
    record_ball_call(game=draw_game, number=42, by=tenant.worker, at=night(occasion, 19, 0))
    _sell(occasion, tenant.worker, 2)
    login(client, tenant.worker)
    response = client.get(pack_url(occasion))
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    pack = response.json()
    assert pack["version"] == 1 and pack["server_time"].startswith("2026-12-04T23:00:00.000")
    assert pack["occasion"]["id"] == occasion.pk and pack["occasion"]["status"] == "open"
    assert pack["occasion"]["opened_at"].startswith("2026-12-04T17:00:00")
    assert pack["user"]["id"] == tenant.worker.pk
    assert (
        pack["pages"]["door"] == f"/org/{occasion.organization_id}/occasions/{occasion.pk}/sales/"
    )
    assert set(pack["pages"]["console"]) == {str(draw_game.pk)}
    admission = next(p for p in pack["prices"] if p["category"] == "admission")
    assert admission["price"] == "2.00" and admission["field"] == f"qty_{admission['id']}"
    game = pack["games"][0]
    assert game["state"] == "calling" and game["called"] == ["N42"]
    assert game["call_path"].endswith("/draw/call/") and game["claim_path"].endswith("/record/")
    assert pack["current_game"] == draw_game.pk
    assert pack["receipts"] == {"last": 2}
    assert any(w["signed_in"] for w in pack["workers"])


def test_an_inspector_reads_the_pack_another_organization_does_not(
    client, inspector, other_tenant, open_occasion
):
    login(client, inspector)
    assert client.get(pack_url(open_occasion)).status_code == 200
    assert client.post(pack_url(open_occasion)).status_code in (403, 405)
    client.logout()
    login(client, other_tenant.head)
    assert client.get(pack_url(open_occasion)).status_code == 404


def _games(occasion, n):
    for number in range(10, 10 + n):
        game = Game.objects.create(occasion=occasion, number=number, half=1, kind="regular")
        start_game_for_tests(game, night(occasion, 18, 0))


@pytest.mark.parametrize("size", [1, 6])
def test_the_packs_queries_do_not_grow_with_the_night(
    client, tenant, draw_game, size, django_assert_num_queries
):
    occasion = draw_game.occasion
    login(client, tenant.worker)
    client.get(pack_url(occasion))  # the session and caches warmed
    with CaptureQueriesContext(connection) as small:
        client.get(pack_url(occasion))
    _sell(occasion, tenant.worker, size * 3)
    _games(occasion, size)
    for i in range(size):
        record_ball_call(game=draw_game, number=i + 1, by=tenant.worker, at=night(occasion, 19, i))
    with django_assert_num_queries(len(small)):
        assert client.get(pack_url(occasion)).status_code == 200
