"""The acts the hall laptop queued while offline, received in order and judged by the same
forms and services as live, as of the moment claimed: recorded once however often sent, each
refusal kept and answered with its citation and what to do, bad input a 400, never a 500."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.urls import reverse

from beano.rules.models import RefusedAction
from games.models import BallCall, Claim
from occasions.models import Sale
from offline.models import QueuedAct
from organizations.models import AuditEvent
from tests.conftest import login
from tests.offline.helpers import (
    OTHER_DEVICE,
    acts_url,
    ball_act,
    claim_act,
    night,
    sale_act,
    send,
)


@pytest.fixture
def seller(client, tenant):
    login(client, tenant.worker)
    return client


def _state():
    return (
        Sale.objects.count(),
        BallCall.objects.count(),
        Claim.objects.count(),
        QueuedAct.objects.count(),
        AuditEvent.objects.count(),
    )


def _night_queue(occasion, game):
    acts = [sale_act(occasion, i + 1, night(occasion, 19, 0, i)) for i in range(20)]
    balls = (42, 7, 19, 33, 61)
    for i, ball in enumerate(balls):
        acts.append(ball_act(game, 21 + i, night(occasion, 19, 10 + i), ball))
    acts.append(claim_act(game, 26, night(occasion, 19, 20)))
    return acts


def test_a_night_offline_is_recorded_once_each_act_at_its_claimed_moment(seller, draw_game):
    occasion = draw_game.occasion
    acts = _night_queue(occasion, draw_game)
    response = send(seller, occasion, acts)
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    results = response.json()["results"]
    assert [r["state"] for r in results] == ["recorded"] * 26, [r["refusal"] for r in results]
    assert [r["receipt"] for r in results[:20]] == list(range(1, 21))
    assert results[0]["said"] == "Receipt 1 recorded — $2.00: 1 × Admission."
    assert [r["ball"] for r in results[20:25]] == ["N42", "B7", "I19", "N33", "O61"]
    assert results[25]["claim"] == Claim.objects.get().pk
    assert Sale.objects.count() == 20 and BallCall.objects.count() == 5
    sales = Sale.objects.order_by("number")
    assert [s.sold_at for s in sales] == [night(occasion, 19, 0, i) for i in range(20)]
    calls = BallCall.objects.order_by("sequence")
    assert [c.called_at for c in calls] == [night(occasion, 19, 10 + i) for i in range(5)]
    assert Claim.objects.get().claimed_at == night(occasion, 19, 20)
    assert QueuedAct.objects.filter(state="recorded").count() == 26
    kept = QueuedAct.objects.get(seq=1)
    assert kept.target_type == "occasions.sale" and kept.target_id == sales[0].pk
    assert kept.done_at == night(occasion, 19, 0) and kept.received_at == night(occasion, 23, 0)
    event = AuditEvent.objects.filter(target_type="occasions.sale").order_by("pk").first()
    assert event.provenance["source"] == "queue"
    assert event.provenance["claimed_at"].startswith("2026-12-04T19:00:00")


def test_the_same_queue_sent_twice_records_once_and_answers_the_same(seller, draw_game):
    occasion = draw_game.occasion
    acts = _night_queue(occasion, draw_game)[:22]
    first = send(seller, occasion, acts).json()["results"]
    state = _state()
    again = send(seller, occasion, acts).json()["results"]
    assert _state() == state
    assert [(r["state"], r["said"], r.get("receipt")) for r in again] == [
        (r["state"], r["said"], r.get("receipt")) for r in first
    ]
    # From another laptop too: the key is the act's.
    assert (
        send(seller, occasion, acts[:3], device=OTHER_DEVICE).json()["results"][0]["receipt"] == 1
    )
    assert _state() == state


def test_two_laptops_sales_get_distinct_receipts(seller, open_occasion):
    one = [sale_act(open_occasion, i + 1, night(open_occasion, 19, i)) for i in range(3)]
    two = [sale_act(open_occasion, i + 1, night(open_occasion, 19, i, 30)) for i in range(3)]
    a = send(seller, open_occasion, one).json()["results"]
    b = send(seller, open_occasion, two, device=OTHER_DEVICE).json()["results"]
    receipts = [r["receipt"] for r in a + b]
    assert sorted(receipts) == [1, 2, 3, 4, 5, 6]
    assert Sale.objects.count() == 6


def test_a_ball_after_the_license_hours_is_refused_with_its_citation(seller, draw_game):
    occasion = draw_game.occasion
    occasion.license.__class__.objects.filter(pk=occasion.license_id).update(
        start_time=dt.time(18, 30), end_time=dt.time(22, 0)
    )
    acts = [
        ball_act(draw_game, 1, night(occasion, 21, 59), 42),
        ball_act(draw_game, 2, night(occasion, 22, 15), 7),
        sale_act(occasion, 3, night(occasion, 22, 16)),  # one refused does not stop the next
    ]
    results = send(seller, occasion, acts).json()["results"]
    assert [r["state"] for r in results] == ["recorded", "refused", "recorded"]
    refusal = results[1]["refusal"]
    assert refusal["code"] == "H-7-LICENSE-HOURS"
    assert refusal["message"].startswith("961 CMR 3.04(7): ")
    assert refusal["parts"][0]["citation"] == "961 CMR 3.04(7)"
    assert "paper sheet" in refusal["todo"]
    kept = QueuedAct.objects.get(seq=2)
    assert kept.state == "refused" and kept.refusal_citation == "961 CMR 3.04(7)"
    assert kept.refusal_code == "H-7-LICENSE-HOURS"
    assert BallCall.objects.count() == 1
    assert RefusedAction.objects.filter(action="ball.call").exists()


@pytest.mark.parametrize(
    ("when", "words"),
    [
        (dt.timedelta(minutes=5), "its clock is ahead"),  # after received (the clock: 11 PM)
        (-dt.timedelta(hours=7), "before the occasion was opened"),  # opened at 5 PM
    ],
)
def test_a_claimed_time_in_the_future_or_before_the_opening_is_refused(
    seller, open_occasion, when, words
):
    moment = night(open_occasion, 23, 0) + when
    before = Sale.objects.count()
    result = send(seller, open_occasion, [sale_act(open_occasion, 1, moment)]).json()["results"][0]
    assert result["state"] == "refused"
    assert result["refusal"]["code"] == "H-7-QUEUED-TIME"
    assert result["refusal"]["parts"][0]["citation"] == "961 CMR 3.04(7)"
    assert words in result["refusal"]["message"]
    assert "clock" in result["refusal"]["todo"]
    assert Sale.objects.count() == before
    assert RefusedAction.objects.filter(action="offline.queued_act").count() == 1


def test_a_time_before_the_laptops_previous_act_is_refused(seller, open_occasion):
    first = [sale_act(open_occasion, 1, night(open_occasion, 20, 0))]
    assert send(seller, open_occasion, first).json()["results"][0]["state"] == "recorded"
    back = [sale_act(open_occasion, 2, night(open_occasion, 19, 0))]
    result = send(seller, open_occasion, back).json()["results"][0]
    assert result["state"] == "refused" and result["refusal"]["code"] == "H-7-QUEUED-TIME"
    assert "before its previous act" in result["refusal"]["message"]
    # Another laptop's clock is its own: the same moment from it, as a new act, is recorded.
    other = [sale_act(open_occasion, 2, night(open_occasion, 19, 0))]
    assert (
        send(seller, open_occasion, other, device=OTHER_DEVICE).json()["results"][0]["receipt"] == 2
    )


def test_another_organizations_occasion_is_a_404(client, other_tenant, open_occasion):
    login(client, other_tenant.worker)
    before = _state()
    response = send(
        client, open_occasion, [sale_act(open_occasion, 1, night(open_occasion, 19, 0))]
    )
    assert response.status_code == 404
    assert (
        client.get(
            reverse("offline_pack", args=[open_occasion.organization_id, open_occasion.pk])
        ).status_code
        == 404
    )
    assert _state() == before


def test_an_inspector_cannot_send_acts(client, inspector, open_occasion):
    login(client, inspector)
    before = _state()
    response = send(
        client, open_occasion, [sale_act(open_occasion, 1, night(open_occasion, 19, 0))]
    )
    assert response.status_code == 403
    assert _state() == before


def test_not_signed_in_is_sent_to_the_login_page(client, open_occasion):
    response = send(
        client, open_occasion, [sale_act(open_occasion, 1, night(open_occasion, 19, 0))]
    )
    assert response.status_code == 302 and "login" in response["Location"]


@pytest.mark.parametrize(
    "body",
    [
        b"not json",
        b"[]",
        b'{"acts": []}',
        b'{"device": "x", "acts": {}}',
        b'{"device": "x", "acts": [1]}',
        b'{"device": "x", "acts": [{"seq": 1, "key": "nope", "path": "/", "done_at": "x"}]}',
        b'{"device": "x", "acts": [{"seq": 1, "key": "6f1c2a0e-8b7d-4c55-9a3e-2d4b6f8a1c90",'
        b' "path": "/x/", "fields": [], "done_at": "2026-12-04T19:00:00"}]}',
        b'{"device": "x", "acts": [{"seq": true, "key": "6f1c2a0e-8b7d-4c55-9a3e-2d4b6f8a1c90",'
        b' "path": "/x/", "fields": [], "done_at": "2026-12-04T19:00:00-05:00"}]}',
        b'{"device": "x", "acts": [{"seq": 1, "key": "6f1c2a0e-8b7d-4c55-9a3e-2d4b6f8a1c90",'
        b' "path": "/x/", "fields": [["a"]], "done_at": "2026-12-04T19:00:00-05:00"}]}',
        b"\xff\xfe",
    ],
)
def test_a_body_not_of_the_queues_shape_is_a_400_nothing_saved(seller, open_occasion, body):
    before = _state()
    response = seller.post(acts_url(open_occasion), body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]
    assert _state() == before


def test_too_many_acts_or_too_big_a_body_is_a_400(seller, open_occasion):
    acts = [sale_act(open_occasion, i, night(open_occasion, 19, 0)) for i in range(501)]
    assert send(seller, open_occasion, acts).status_code == 400
    big = json.dumps({"device": "x", "acts": [], "pad": "x" * (1024 * 1024)})
    response = seller.post(acts_url(open_occasion), big, content_type="application/json")
    assert response.status_code == 400
    assert Sale.objects.count() == 0 and QueuedAct.objects.count() == 0


def test_an_unknown_path_or_another_occasions_is_refused_per_act(seller, open_occasion, tenant):
    from occasions import services as occasion_services

    other = occasion_services.occasion_for_day(
        organization=tenant.organization, day=dt.date(2026, 12, 11), by=tenant.member_in_charge
    )
    moment = night(open_occasion, 19, 0)
    elsewhere = sale_act(open_occasion, 2, moment)
    elsewhere["path"] = reverse("sale_record", args=[other.organization_id, other.pk])
    not_allowed = sale_act(open_occasion, 3, moment)
    not_allowed["path"] = reverse(
        "occasion_open", args=[open_occasion.organization_id, open_occasion.pk]
    )
    unknown = sale_act(open_occasion, 1, moment)
    unknown["path"] = "/nowhere/at/all/"
    bad_box = sale_act(open_occasion, 4, moment)
    bad_box["fields"] = [[bad_box["fields"][0][0], "many"]]
    results = send(seller, open_occasion, [unknown, elsewhere, not_allowed, bad_box]).json()
    assert [r["state"] for r in results["results"]] == ["refused"] * 4
    assert all(r["refusal"]["message"] for r in results["results"])
    assert Sale.objects.count() == 0
    assert QueuedAct.objects.filter(state="refused").count() == 4


def test_a_void_sent_without_the_witness_pin_is_refused_as_live(
    client, tenant, open_occasion, sale
):
    login(client, tenant.member_in_charge)
    path = reverse("sale_void", args=[open_occasion.organization_id, open_occasion.pk])
    from tests.offline.helpers import act

    void = act(
        1,
        path,
        {"receipt": 1, "reason": "Rang twice", "witness": tenant.head.pk, "witness_secret": ""},
        night(open_occasion, 22, 0),
    )
    result = send(client, open_occasion, [void]).json()["results"][0]
    assert result["state"] == "refused"
    assert "witness" in result["refusal"]["message"].lower()
    sale.refresh_from_db()
    assert sale.voided_at is None
    assert "PIN" in result["refusal"]["todo"]


def test_a_worker_may_not_void_through_the_queue(seller, tenant, open_occasion, sale):
    path = reverse("sale_void", args=[open_occasion.organization_id, open_occasion.pk])
    from tests.offline.helpers import act

    void = act(1, path, {"receipt": 1, "reason": "Rang twice"}, night(open_occasion, 22, 0))
    result = send(seller, open_occasion, [void]).json()["results"][0]
    assert result["state"] == "refused" and result["refusal"]["code"] == "role"


def test_an_act_refused_for_its_clock_does_not_hold_back_the_next(seller, open_occasion):
    ahead = sale_act(open_occasion, 1, night(open_occasion, 23, 30))
    then = sale_act(open_occasion, 2, night(open_occasion, 22, 0))
    results = send(seller, open_occasion, [ahead, then]).json()["results"]
    assert [r["state"] for r in results] == ["refused", "recorded"]


def test_the_csrf_token_is_required_as_for_any_post(tenant, open_occasion):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    login(client, tenant.worker)
    acts = [sale_act(open_occasion, 1, night(open_occasion, 19, 0))]
    assert send(client, open_occasion, acts).status_code == 403
    assert Sale.objects.count() == 0
    client.get(reverse("door_sales", args=[open_occasion.organization_id, open_occasion.pk]))
    token = client.cookies["csrftoken"].value
    body = json.dumps({"device": "laptop", "acts": acts})
    response = client.post(
        acts_url(open_occasion), body, content_type="application/json", HTTP_X_CSRFTOKEN=token
    )
    assert response.status_code == 200 and Sale.objects.count() == 1
