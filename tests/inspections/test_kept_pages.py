"""The inspector's statewide pages read the kept figures (``reports.kept``): the dashboard's and
the organization page's charts, the prizes against the limits and the workers among the
winners, each in as many queries at 10 occasions as at 100, none of them totalling the door's
sale lines or the winners of the closed nights."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.models import Winner
from inspections import trends
from occasions.models import Occasion
from reports.kept import keep
from reports.kept_models import KeptOccasionFigures
from tests.conftest import login
from tests.inspections.conftest import played_occasions


def _pages(tenant) -> dict[str, str]:
    org = tenant.organization.pk
    return {
        "dashboard": reverse("inspector_dashboard"),
        "organization page": reverse("organization_home", args=[org]),
        "prizes": reverse("inspect_compliance", args=["prizes"]),
        "winners": reverse("inspect_compliance", args=["winners"]),
    }


def _won_by_the_worker(tenant, worker_entry, occasions) -> None:
    """Each night's winner bears the listed worker's name: a possible match, kept again."""
    Winner.objects.filter(claim__game__occasion__in=occasions).update(
        player_name=worker_entry.person.legal_name
    )
    keep(Occasion.objects.filter(pk__in=[o.pk for o in occasions]))


def _sql(captured: CaptureQueriesContext) -> str:
    return "\n".join(q["sql"] for q in captured.captured_queries).lower()


@pytest.mark.parametrize("page", ["dashboard", "organization page", "prizes", "winners"])
def test_the_page_reads_the_kept_figures_in_as_many_queries_at_10_and_100_occasions(
    client, tenant, statewide_inspector, worker_entry, page
):
    url = _pages(tenant)[page]
    _won_by_the_worker(tenant, worker_entry, played_occasions(tenant, 10))
    login(client, statewide_inspector)
    client.get(url)  # the session and caches warm up
    with CaptureQueriesContext(connection) as small:
        first = client.get(url)
    _won_by_the_worker(
        tenant,
        worker_entry,
        played_occasions(tenant, 90, last=timezone.localdate() - dt.timedelta(days=11)),
    )
    with CaptureQueriesContext(connection) as large:
        response = client.get(url)
    assert first.status_code == response.status_code == 200
    assert len(large) == len(small), [q["sql"][:120] for q in large.captured_queries]
    sql = _sql(large)
    if page == "winners":
        assert "reports_keptwinnermatch" in sql
        assert len(response.context["winners"]) == 100
    elif page == "prizes":
        assert "reports_keptoccasionfigures" in sql and response.context["total"] == 100
    else:
        assert "reports_keptstatewidemonth" in sql and "reports_keptoccasionfigures" in sql
    print(f"{page}: {len(small)} queries at 10 and 100 occasions")


def test_the_charts_show_the_kept_figures(client, tenant, statewide_inspector):
    played_occasions(tenant, 3)
    login(client, statewide_inspector)
    charts = {c.key: c for c in client.get(reverse("inspector_dashboard")).context["charts"]}
    mine = [v for v in charts["gross_receipts"].series[0].values if v is not None]
    statewide = [v for v in charts["gross_receipts"].series[1].values if v is not None]
    assert set(mine) == set(statewide) == {6}  # 3 admissions at $2 each night


def test_tonights_open_occasion_is_read_live_beside_the_kept_ones(
    client, tenant, statewide_inspector, worker_entry
):
    """An open night has no kept figures yet: its prizes and its winners are computed now, by
    the same code, and listed among the closed nights' kept ones."""
    tonight, *closed = played_occasions(tenant, 3, share=Decimal("250.00"))  # over the $200
    _won_by_the_worker(tenant, worker_entry, [tonight, *closed])
    Occasion.objects.filter(pk=tonight.pk).update(status=Occasion.Status.OPEN, closed_at=None)
    KeptOccasionFigures.objects.filter(occasion=tonight).delete()
    login(client, statewide_inspector)
    prizes = client.get(reverse("inspect_compliance", args=["prizes"])).context
    assert (prizes["total"], prizes["flagged"]) == (3, 3)
    rows = {r.occasion.pk: r for r in prizes["page"]}
    assert "Game 1: $250.00 awarded" in rows[tonight.pk].problems[0]
    winners = client.get(reverse("inspect_compliance", args=["winners"])).context["winners"]
    assert [w.occasion.pk for w in winners] == [tonight.pk, *(o.pk for o in closed)]
    charts = {c.key: c for c in client.get(reverse("inspector_dashboard")).context["charts"]}
    assert any(v == 6 for v in charts["gross_receipts"].series[0].values if v is not None)


def test_an_open_nights_month_takes_its_median_with_the_kept_nights_of_that_month(tenant):
    """The kept nights' medians are taken by the database; a month with a night still open is
    taken here, its live figures with the kept ones of that month (not either alone)."""
    before = timezone.localdate().replace(day=1) - dt.timedelta(days=40)  # two months back
    earlier = played_occasions(tenant, 2, last=before.replace(day=20))  # kept only: $6 each
    tonight, *closed = played_occasions(tenant, 4, last=before.replace(day=10) + dt.timedelta(31))
    Occasion.objects.filter(pk=tonight.pk).update(status=Occasion.Status.OPEN, closed_at=None)
    KeptOccasionFigures.objects.filter(occasion=tonight).delete()  # its $6 read live
    for occasion, gross in zip(closed, ("10.00", "20.00", "30.00"), strict=True):
        KeptOccasionFigures.objects.filter(occasion=occasion).update(gross_receipts=gross)
    start, end = trends.period(None, None, timezone.localdate())
    with CaptureQueriesContext(connection) as queries:
        found = trends.medians(
            Occasion.objects.filter(organization=tenant.organization), start, end
        )
    assert found[(tonight.date.replace(day=1), "gross_receipts")] == Decimal("15.00")  # 6,10,20,30
    assert found[(earlier[0].date.replace(day=1), "gross_receipts")] == Decimal("6.00")
    # whether a night is open, the live nights, the kept months' medians, the open month's rows
    assert len(queries) == 4
    with CaptureQueriesContext(connection) as queries:
        trends.medians(Occasion.objects.filter(pk__in=[o.pk for o in closed]), start, end)
    assert len(queries) == 2  # no night open: asked, then the kept months' medians alone
