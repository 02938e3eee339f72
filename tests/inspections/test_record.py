"""An occasion's full record: everything of the night on one page, printable, readable by the
organization's members and the inspectors in scope, the TIN masked to its last four digits, and
the same number of queries however many games and ball calls."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from occasions.models import DoorPrize, OtherSale, PoliceDetail
from tests.conftest import login
from tests.inspections.conftest import night, played_occasions


def _url(occasion):
    return reverse("occasion_record", args=[occasion.organization_id, occasion.pk])


def test_the_head_the_bookkeeper_and_the_inspector_in_scope_read_it(
    client, tenant, other_tenant, inspector, played
):
    """The record names W-2G payees and their addresses: personal data, shown to the head and
    the bookkeeper (signed in with their second factor) and inspectors, not to the member in
    charge or a worker (organizations/access_matrix.py)."""
    for user, code in (
        (tenant.head, 200),
        (tenant.bookkeeper, 200),
        (inspector, 200),
        (tenant.member_in_charge, 403),
        (tenant.worker, 403),
    ):
        login(client, user)
        assert client.get(_url(played)).status_code == code, user
    login(client, other_tenant.head)
    assert client.get(_url(played)).status_code == 404
    login(client, inspector)
    assert client.post(_url(played)).status_code == 403


def test_it_shows_the_night_from_the_checklist_to_the_payouts(client, tenant, inspector, played):
    DoorPrize.objects.create(
        occasion=played,
        description="Fruit basket",
        value=Decimal("45"),
        awarded_at=night(played.date, 19),
    )
    OtherSale.objects.create(
        occasion=played,
        kind="food",
        description="Coffee",
        amount=Decimal("12"),
        sold_at=night(played.date, 19),
    )
    PoliceDetail.objects.create(
        occasion=played,
        officer_name="Officer Dunn",
        department_town="Fairhaven",
        hours=Decimal("4"),
        hourly_rate=Decimal("55"),
        amount=Decimal("220"),
    )
    login(client, inspector)
    page = client.get(_url(played)).content.decode()
    for text in (
        "Opening checklist",
        "Not confirmed",  # made directly: no item confirmed
        "Workers present",
        "Price list",
        "Sales by category",
        "3 players announced",
        "3 admissions sold",
        "Game 1",
        "Any single line",
        "B1",
        "voided",
        "Mis-keyed",
        "Draw verified",
        "before Linda Souza (member in charge) and Rose Medeiros",
        "Rose Medeiros (table 12)",
        'text-success">valid</strong>',
        "W-2G",
        "TIN ••••6789",
        "Fruit basket",
        "Coffee",
        "Officer Dunn",
        "css/record.css",
        "js/print.js",
        "data-print",
    ):
        assert text in page, text
    assert "123-45-6789" not in page and "sealed:" not in page


def test_a_progressive_game_shows_its_jackpot_and_the_ledger(
    client, tenant, inspector, played, jackpot_series
):
    """The night's jackpot as carried in, and what the series' ledger recorded of it."""
    from games.models import JackpotLedgerEntry, ProgressiveGame

    game = played.games.get()
    game.kind = "progressive"
    game.save(update_fields=["kind"])
    pg = ProgressiveGame.objects.create(
        game=game,
        series=jackpot_series,
        occasion=played,
        carried_in=Decimal("1500.00"),
        jackpot_amount=Decimal("1600.00"),
        calls_allowed=52,
        attached_at=night(played.date, 18),
        outcome="won",
        closed_at=night(played.date, 21),
    )
    JackpotLedgerEntry.objects.create(
        series=jackpot_series,
        occasion=played,
        game=pg,
        carried_in=Decimal("1500.00"),
        added=Decimal("100.00"),
        paid=Decimal("1600.00"),
        paid_kind="jackpot",
        carried_out=Decimal("0.00"),
        recorded_at=night(played.date, 21),
    )
    login(client, inspector)
    page = client.get(_url(played)).content.decode()
    assert (
        "$1,600.00 within 52 calls, $1,500.00 carried in · won within the calls; ledger: paid "
        "$1,600.00 (jackpot), $0.00 carried out."
    ) in page


def test_it_keeps_its_query_count_as_games_and_calls_grow(client, tenant, inspector):
    (small_night,) = played_occasions(tenant, 1, games=1, calls=3)
    # The larger night was entered from paper: its provenance, door count, cards attested and
    # payouts signed by workers cost no query more.
    (large_night,) = played_occasions(
        tenant, 1, games=14, calls=60, last=small_night.date - dt.timedelta(days=7), on_paper=True
    )
    login(client, inspector)
    client.get(_url(small_night))
    with CaptureQueriesContext(connection) as small:
        client.get(_url(small_night))
    with CaptureQueriesContext(connection) as large:
        response = client.get(_url(large_night))
    assert response.context["record"].ball_calls == 14 * 60
    assert len(large) == len(small)
    print(f"full record: {len(small)} queries at 1 game of 3 calls and 14 games of 60 calls")


def test_its_csv_exports_are_the_occasions_own_rows(client, tenant, inspector):
    mine, _other_night = played_occasions(tenant, 2, games=2, calls=4)
    login(client, inspector)
    url = reverse(
        "occasion_record_export",
        kwargs={"org_id": tenant.organization.pk, "pk": mine.pk, "kind": "calls"},
    )
    response = client.get(url)
    assert response["Content-Type"].startswith("text/csv")
    lines = b"".join(response.streaming_content).decode().splitlines()
    assert len(lines) == 1 + 2 * 4
    assert all(mine.date.isoformat() in line for line in lines[1:])
    missing = reverse(
        "occasion_record_export",
        kwargs={"org_id": tenant.organization.pk, "pk": mine.pk, "kind": "tins"},
    )
    assert client.get(missing).status_code == 404


def test_its_ball_calls_are_drawn_as_a_list_of_local_times_with_voids_escaped():
    from inspections import record

    evening = dt.datetime(2026, 12, 5, 0, 7, 9, tzinfo=dt.UTC)  # 7:07:09 PM in Fairhaven
    midnight = dt.datetime(2026, 12, 5, 5, 0, 0, tzinfo=dt.UTC)
    calls = record._call_items(
        [(1, 42, evening, None, ""), (2, 5, midnight, midnight, 'Mis-keyed <b>"7"</b>')]
    )
    assert calls.count == 2
    assert str(calls.items) == (
        '<li class="" value="1"><span class="ball">N42</span> <time>7:07:09</time></li>'
        '<li class="voided" value="2"><span class="ball">B5</span> <time>12:00:00</time> '
        '<span class="badge text-bg-secondary" title="Mis-keyed &lt;b&gt;&quot;7&quot;&lt;/b&gt;">'
        'voided</span> <span class="void-reason">Mis-keyed &lt;b&gt;&quot;7&quot;&lt;/b&gt;'
        "</span></li>"
    )
    assert record._call_items([]) == record.GameCalls(0, record.NO_CALL)
