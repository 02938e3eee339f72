"""Where an act sent from the laptop's queue shows: its audit events say it was recorded on the
hall laptop while offline, when the laptop says it was done and when it was received; the
inspector's record of the occasion shows each offline stretch, its refusals with their
citation; and the inspector cannot send acts."""

from __future__ import annotations

import datetime as dt

from django.urls import reverse

from occasions import moments
from organizations.models import AuditEvent
from organizations.templatetags.audit_tags import provenance_words
from tests.conftest import login
from tests.offline.helpers import OTHER_DEVICE, ball_act, night, sale_act, send


def test_the_provenance_says_offline_with_the_moment_claimed_and_received(open_occasion):
    moment = moments.from_queue(
        night(open_occasion, 19, 42),
        device="laptop-1",
        queued_at=night(open_occasion, 19, 41),
        received_at=night(open_occasion, 20, 5),
    )
    values = moment.provenance
    assert values["source"] == "queue" and values["device"] == "laptop-1"
    words = provenance_words(
        {k: v.isoformat() if isinstance(v, dt.datetime) else v for k, v in values.items()}
    )
    assert words == (
        "recorded on the hall laptop while offline on Dec 4, 2026 at 7:42 PM (the time the "
        "laptop gave), received on Dec 4, 2026 at 8:05 PM"
    )


def test_the_audit_trail_shows_a_queued_sale_as_recorded_offline(client, tenant, open_occasion):
    login(client, tenant.worker)
    send(client, open_occasion, [sale_act(open_occasion, 1, night(open_occasion, 19, 42))])
    event = AuditEvent.objects.filter(target_type="occasions.sale").get()
    assert provenance_words(event.provenance).startswith(
        "recorded on the hall laptop while offline on Dec 4, 2026 at 7:42 PM"
    )
    assert "received on Dec 4, 2026 at 11:00 PM" in provenance_words(event.provenance)
    client.logout()
    login(client, tenant.head)
    page = client.get(reverse("audit_log", args=[open_occasion.organization_id]))
    assert page.status_code == 200
    assert "Recorded on the hall laptop while offline on Dec 4, 2026" in page.content.decode()


def test_the_inspectors_record_shows_each_offline_stretch(client, tenant, inspector, draw_game):
    occasion = draw_game.occasion
    occasion.license.__class__.objects.filter(pk=occasion.license_id).update(
        start_time=dt.time(18, 30), end_time=dt.time(22, 0)
    )
    login(client, tenant.worker)
    send(
        client,
        occasion,
        [
            sale_act(occasion, 1, night(occasion, 19, 0)),
            ball_act(draw_game, 2, night(occasion, 19, 5), 42),
            ball_act(draw_game, 3, night(occasion, 22, 15), 7),
        ],
    )
    send(client, occasion, [sale_act(occasion, 1, night(occasion, 20, 0))], device=OTHER_DEVICE)
    client.logout()
    login(client, inspector)
    url = reverse("occasion_record", args=[occasion.organization_id, occasion.pk])
    page = client.get(url).content.decode()
    assert "Recorded on the hall laptop while offline" in page
    assert page.count('class="offline-stretch"') == 2
    assert "7:00:00 PM to 10:15:00 PM" in page and "11:00:00 PM" in page
    assert page.count('class="offline-refused"') == 1
    assert "961 CMR 3.04(7)" in page and "the license allows Beano" in page
    # The inspector reads; never sends.
    before = AuditEvent.objects.count()
    response = send(client, occasion, [sale_act(occasion, 9, night(occasion, 21, 0))])
    assert response.status_code == 403
    assert AuditEvent.objects.count() == before
