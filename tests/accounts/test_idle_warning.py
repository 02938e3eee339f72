"""The idle sign-out warns and can be put off, and a night's pages keep the person running it
signed in, within limits: the warning's button (``stay_signed_in``) is activity; the console's
and the door's heartbeat counts only for the head or a member in charge, only while the occasion
is open, and never past the session's absolute lifetime. Other organizations get 404 and the
Commission's inspectors nothing."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth import SESSION_KEY
from django.test import RequestFactory
from django.urls import reverse

from beano.accounts.middleware import (
    LAST_ACTIVITY_KEY,
    SIGNED_IN_AT_KEY,
    idle_seconds_left,
    note_heartbeat,
)
from occasions.models import Occasion
from tests.conftest import login

POLL = {"HTTP_X_BEANO_POLL": "1"}


def _idle_for(client, minutes: float) -> None:
    session = client.session
    session[LAST_ACTIVITY_KEY] = int(time.time() - minutes * 60)
    session.save()


def _left(client) -> int:
    return idle_seconds_left(client.session)


def _beat(client, occasion):
    url = reverse("night_heartbeat", args=[occasion.organization_id, occasion.pk])
    return client.post(url, **POLL)


@pytest.mark.parametrize(
    "night_open,runs,counts",
    [(True, True, True), (False, True, False), (True, False, False), (False, False, False)],
)
def test_the_rule_a_heartbeat_counts_only_for_who_runs_an_open_night(night_open, runs, counts):
    request = RequestFactory().post("/")
    request.session = {SESSION_KEY: "1", LAST_ACTIVITY_KEY: 100}
    assert note_heartbeat(request, night_open=night_open, runs_the_night=runs) is counts
    assert (request.session[LAST_ACTIVITY_KEY] > 100) is counts


def test_the_rule_no_session_no_heartbeat():
    request = RequestFactory().post("/")
    request.session = {}
    assert note_heartbeat(request, night_open=True, runs_the_night=True) is False
    assert LAST_ACTIVITY_KEY not in request.session


def test_the_seconds_left():
    assert idle_seconds_left({}, now=1000) == 30 * 60
    assert idle_seconds_left({LAST_ACTIVITY_KEY: 1000}, now=1000 + 29 * 60) == 60
    assert idle_seconds_left({LAST_ACTIVITY_KEY: 1000}, now=1000 + 31 * 60) == 0


def test_every_signed_in_page_carries_the_warning_and_a_public_page_not(client, tenant):
    assert 'id="idle-warning"' not in client.get(reverse("login")).content.decode()
    login(client, tenant.member_in_charge)
    _idle_for(client, 10)
    page = client.get(reverse("account")).content.decode()
    assert 'id="idle-warning"' in page and "Stay signed in" in page
    assert 'data-warn-seconds="120"' in page and "js/idle.js" in page


def test_the_stay_button_puts_the_sign_out_off(client, tenant):
    login(client, tenant.member_in_charge)
    _idle_for(client, 29)
    response = client.post(reverse("stay_signed_in"))
    assert response.status_code == 204 and int(response["X-Idle-Seconds"]) >= 29 * 60
    assert _left(client) >= 29 * 60
    assert client.get(reverse("stay_signed_in")).status_code == 405


def test_the_stay_button_cannot_bring_back_a_session_already_ended(client, tenant):
    login(client, tenant.member_in_charge)
    _idle_for(client, 31)
    response = client.post(reverse("stay_signed_in"))
    assert response.status_code == 302 and SESSION_KEY not in client.session


def test_the_door_and_console_beat_for_the_member_in_charge_of_an_open_night(
    client, tenant, open_occasion, draw_game
):
    login(client, tenant.member_in_charge)
    args = [tenant.organization.pk, open_occasion.pk]
    door = client.get(reverse("door_sales", args=args)).content.decode()
    console = client.get(reverse("draw_console", args=[*args, draw_game.pk])).content.decode()
    beat = reverse("night_heartbeat", args=args)
    assert f'data-heartbeat-url="{beat}"' in door and f'data-heartbeat-url="{beat}"' in console
    _idle_for(client, 25)
    response = _beat(client, open_occasion)
    assert response.status_code == 204 and _left(client) >= 29 * 60
    assert int(response["X-Idle-Seconds"]) >= 29 * 60


def test_a_worker_s_door_does_not_beat_and_their_heartbeat_is_refused(
    client, tenant, open_occasion
):
    login(client, tenant.worker)
    door = client.get(reverse("door_sales", args=[tenant.organization.pk, open_occasion.pk]))
    assert "data-heartbeat-url" not in door.content.decode()
    _idle_for(client, 25)
    assert _beat(client, open_occasion).status_code == 403
    assert _left(client) <= 5 * 60


def test_a_closed_night_keeps_nobody(client, tenant, open_occasion):
    Occasion.objects.filter(pk=open_occasion.pk).update(status=Occasion.Status.CLOSED)
    login(client, tenant.member_in_charge)
    door = client.get(reverse("door_sales", args=[tenant.organization.pk, open_occasion.pk]))
    assert "data-heartbeat-url" not in door.content.decode()
    _idle_for(client, 25)
    assert _beat(client, open_occasion).status_code == 204
    assert _left(client) <= 5 * 60


def test_the_heartbeat_never_outlives_the_session_s_absolute_lifetime(
    client, tenant, open_occasion, settings
):
    login(client, tenant.member_in_charge)
    session = client.session
    session[SIGNED_IN_AT_KEY] = int(time.time() - (settings.SESSION_ABSOLUTE_HOURS * 3600 + 60))
    session.save()
    response = _beat(client, open_occasion)
    assert response.status_code == 302 and SESSION_KEY not in client.session


def test_another_organization_gets_404_and_an_inspector_nothing(
    client, tenant, other_tenant, inspector, open_occasion
):
    login(client, other_tenant.member_in_charge)
    assert _beat(client, open_occasion).status_code == 404
    client.logout()
    login(client, inspector)
    _idle_for(client, 25)
    assert _beat(client, open_occasion).status_code == 403
    assert _left(client) <= 5 * 60
