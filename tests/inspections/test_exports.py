"""CSV exports hold exactly the rows of the current filter (the same form as the lists), are
streamed, never carry a full TIN, and never let a cell run as a spreadsheet formula."""

from __future__ import annotations

import csv
import datetime as dt
import io

from django.urls import reverse
from django.utils import timezone

from beano.rules.models import RefusedAction
from games.models import BallCall, Payout, Winner
from occasions.models import SaleLine
from tests.conftest import login, make_tenant
from tests.inspections.conftest import played_occasions


def _rows(client, kind, **params):
    response = client.get(reverse("inspect_export", args=[kind]), params)
    assert response.status_code == 200 and response.streaming
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith("attachment;")
    text = b"".join(response.streaming_content).decode()
    return list(csv.reader(io.StringIO(text)))


def test_each_export_holds_exactly_the_filtered_rows(client, statewide_inspector):
    north, south = make_tenant("Hall North"), make_tenant("Hall South")
    played_occasions(north, 6, games=2, calls=4)
    played_occasions(south, 3, games=1, calls=5)
    yesterday = timezone.localdate() - dt.timedelta(days=1)
    week = {"date_from": yesterday - dt.timedelta(days=3), "date_to": yesterday}
    login(client, statewide_inspector)
    for params, north_days, south_days in (
        ({}, 6, 3),
        ({"organization": north.organization.pk}, 6, 0),
        (week, 4, 3),
        (week | {"organization": south.organization.pk}, 0, 3),
        ({"status": "open"}, 0, 0),
    ):
        occasions = _rows(client, "occasions", **params)
        assert occasions[0][0] == "organization"
        names = [r[0] for r in occasions[1:]]
        assert (names.count("Hall North"), names.count("Hall South")) == (north_days, south_days)
        expected = {
            "sales": north_days + south_days,
            "games": 2 * north_days + south_days,
            "calls": 8 * north_days + 5 * south_days,
            "payouts": 2 * north_days + south_days,
        }
        for kind, count in expected.items():
            assert len(_rows(client, kind, **params)) == 1 + count, (kind, params)


def test_a_search_narrows_the_export_as_it_narrows_the_list(client, tenant, statewide_inspector):
    occasions = played_occasions(tenant, 5)
    winner = Winner.objects.get(claim__game__occasion=occasions[2])
    Winner.objects.filter(pk=winner.pk).update(player_name="Dorothy Amaral")
    login(client, statewide_inspector)
    listed = client.get(reverse("inspector_dashboard"), {"q": "amaral"}).context["page"]
    (row,) = _rows(client, "occasions", q="amaral")[1:]
    assert [o.date.isoformat() for o in listed] == [row[3]] == [occasions[2].date.isoformat()]


def test_payouts_carry_the_tins_last_four_only(client, tenant, statewide_inspector, played):
    login(client, statewide_inspector)
    header, row = _rows(client, "payouts")
    assert row[header.index("TIN (last four)")] == "6789"
    assert Payout.objects.get().tin_sealed not in ",".join(row)
    assert "123-45-6789" not in ",".join(row)


def test_a_cell_never_runs_as_a_formula(client, tenant, statewide_inspector, played):
    Winner.objects.update(player_name='=HYPERLINK("http://evil.example","x")')
    BallCall.objects.filter(voided_at__isnull=False).update(void_reason="+1 mis-keyed")
    login(client, statewide_inspector)
    header, row = _rows(client, "payouts")
    assert row[header.index("winner")].startswith("'=HYPERLINK")
    calls = _rows(client, "calls")
    assert "'+1 mis-keyed" in [r[-1] for r in calls]


def test_it_exports_only_the_scope_and_only_to_the_commission(
    client, tenant, other_tenant, inspector
):
    played_occasions(tenant, 2)
    played_occasions(other_tenant, 3)
    login(client, inspector)
    names = {r[0] for r in _rows(client, "occasions")[1:]}
    assert names == {tenant.organization.name}
    asked = _rows(client, "sales", organization=other_tenant.organization.pk)
    assert {r[0] for r in asked[1:]} == {tenant.organization.name}  # not a valid choice: ignored
    assert client.get(reverse("inspect_export", args=["tins"])).status_code == 404
    login(client, tenant.head)
    assert client.get(reverse("inspect_export", args=["sales"])).status_code == 403
    assert SaleLine.objects.count() == 5


def test_the_refused_actions_export_follows_the_logs_filter(
    client, tenant, other_tenant, statewide_inspector
):
    def refuse(org, citation, day):
        RefusedAction.objects.create(
            username="someone",
            organization_id=org.pk,
            organization_name=org.name,
            action="occasion.sign_in_worker",
            on_date=day,
            facts={},
            violations=[{"citation": citation, "message": "Refused."}],
            citations=citation,
        )

    refuse(tenant.organization, "961 CMR 3.04(1)(d)", dt.date(2026, 11, 6))
    refuse(tenant.organization, "961 CMR 3.04(1)(c)", dt.date(2026, 11, 13))
    refuse(other_tenant.organization, "961 CMR 3.04(1)(d)", dt.date(2026, 11, 20))
    login(client, statewide_inspector)
    log = reverse("commission_refused_actions")
    for params, count in (
        ({}, 3),
        ({"citation": "961 CMR 3.04(1)(d)"}, 2),
        ({"organization": tenant.organization.pk}, 2),
        ({"date_from": "2026-11-10", "date_to": "2026-11-30"}, 2),
        ({"citation": "961 CMR 3.04(1)(d)", "organization": other_tenant.organization.pk}, 1),
        ({"date_from": "nonsense"}, 3),
    ):
        assert len(client.get(log, params).context["page"].object_list) == count, params
        assert len(_rows(client, "refused", **params)) == 1 + count, params
    page = client.get(log, {"citation": "961 CMR 3.04(1)(d)"}).content.decode()
    assert "Download CSV" in page and "citation=961+CMR+3.04%281%29%28d%29" in page
