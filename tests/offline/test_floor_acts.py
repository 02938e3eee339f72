"""The other acts of the floor sent from the laptop's queue: the attendance, a worker signed in
and out, and the two-person acts (a void before its witness, a payout before its verifier),
never weaker than live: the second person's password or PIN typed in the fields once online,
checked by the service as live; without it refused as live, the secret never kept."""

from __future__ import annotations

from django.urls import reverse

from games.models import Payout
from occasions.models import AttendanceAnnouncement, WorkerPresence
from offline.models import QueuedAct
from tests.conftest import PASSWORD, login
from tests.fixtures.floor import listed, on_floor
from tests.offline.helpers import act, night, send


def _path(name, occasion, **kwargs):
    return reverse(name, kwargs={"org_id": occasion.organization_id, "pk": occasion.pk, **kwargs})


def test_the_attendance_and_a_worker_signed_in_and_out(client, tenant, open_occasion):
    login(client, tenant.member_in_charge)
    entry = listed(tenant, "Mary Gallagher", ["seller", "floor_worker"], "P-06")
    acts = [
        act(
            1,
            _path("attendance_announce", open_occasion),
            {"players": 0},
            night(open_occasion, 19, 0),
        ),
        act(
            2,
            _path("workers_present", open_occasion),
            {"entry": entry.pk, "role": "seller", "identification": "P-06"},
            night(open_occasion, 19, 5),
        ),
    ]
    results = send(client, open_occasion, acts).json()["results"]
    assert [r["state"] for r in results] == ["recorded", "recorded"], results
    assert AttendanceAnnouncement.objects.filter(occasion=open_occasion).exists()
    presence = WorkerPresence.objects.get(entry=entry)
    assert presence.signed_in_at == night(open_occasion, 19, 5)
    out = act(
        3,
        _path("worker_sign_out", open_occasion, presence_pk=presence.pk),
        {},
        night(open_occasion, 21, 0),
    )
    result = send(client, open_occasion, [out]).json()["results"][0]
    assert result["state"] == "recorded", result
    presence.refresh_from_db()
    assert presence.signed_out_at == night(open_occasion, 21, 0)


def test_a_void_with_the_witness_password_typed_once_online(client, tenant, open_occasion, sale):
    login(client, tenant.member_in_charge)
    on_floor(tenant.head, open_occasion, "member_in_charge")
    fields = {
        "receipt": 1,
        "reason": "Rang twice",
        "witness": tenant.head.pk,
        "witness_secret": PASSWORD,
    }
    result = send(
        client,
        open_occasion,
        [act(1, _path("sale_void", open_occasion), fields, night(open_occasion, 22, 0))],
    ).json()["results"][0]
    assert result["state"] == "recorded", result
    sale.refresh_from_db()
    assert sale.voided_at == night(open_occasion, 22, 0) and sale.void_witness == tenant.head
    kept = QueuedAct.objects.get()
    assert ["witness_secret", "•••"] in kept.fields and PASSWORD not in str(kept.fields)


def test_a_payout_needs_its_verifier_as_live(client, tenant, winner):
    occasion = winner.claim.game.occasion
    login(client, tenant.member_in_charge)
    on_floor(tenant.head, occasion, "member_in_charge")
    path = _path("payout_record", occasion, game_pk=winner.claim.game_id, winner_pk=winner.pk)
    p = f"payout{winner.pk}-"
    unsigned = act(
        1,
        path,
        {f"{p}verified_by": tenant.head.pk, f"{p}verifier_secret": "", f"{p}amount": "75.00"},
        night(occasion, 22, 0),
    )
    result = send(client, occasion, [unsigned]).json()["results"][0]
    assert result["state"] == "refused" and "PIN" in result["refusal"]["todo"]
    assert not Payout.objects.exists()
    signed = act(
        2,
        path,
        {f"{p}verified_by": tenant.head.pk, f"{p}verifier_secret": PASSWORD, f"{p}amount": "75.00"},
        night(occasion, 22, 1),
    )
    result = send(client, occasion, [signed]).json()["results"][0]
    assert result["state"] == "recorded", result
    assert Payout.objects.get().paid_at == night(occasion, 22, 1)
    assert PASSWORD not in str(QueuedAct.objects.get(seq=2).fields)
