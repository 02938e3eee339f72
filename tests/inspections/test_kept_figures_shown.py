"""The pages and exports that show a closed occasion's figures read them as kept (``reports.kept``)
instead of totalling its sale lines and winners again: the inspector's list of occasions and its
CSV (``with_kept_figures``), the occasion page, its full record and its door page (the door's
counts, ``door_figures``). Each shows exactly what the figures recomputed from the records show
(the page rendered both ways is the same), an open night's and a closed one not yet kept counted
live beside them, and each costs as many queries at ten times the occasions or the sales."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from occasions import sales_selectors
from occasions.models import Occasion, PriceListItem, Sale, SaleLine
from reports.kept import keep
from reports.kept_models import KeptOccasionFigures
from reports.occasion_totals import FIGURES, with_figures
from tests.conftest import login
from tests.inspections.conftest import night, played_occasions

TOKEN = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')


def _same_page(response) -> str:
    """The page without what changes at each rendering (the masked CSRF token, the seconds
    left of the session, an open night's clock, the minute printed)."""
    page = TOKEN.sub(r"\1", response.content.decode())
    page = re.sub(r'seconds="\d+"', 'seconds=""', page)
    page = re.sub(r"\d+:\d\d:\d\d [AP]M", "", page)
    return re.sub(r"Printed [^<]* by", "Printed by", page)


def _more_sales(occasion: Occasion, tenant, count: int) -> None:
    """``count`` more receipts at ``occasion``'s door, each two extra regular cards ($2), and one
    receipt voided; its figures kept again, as the write would."""
    extra = PriceListItem.objects.create(
        occasion=occasion, category="extra_regular", label="Extra card", price=Decimal("1.00")
    )
    sales = Sale.objects.bulk_create(
        Sale(
            occasion=occasion,
            number=n,
            sold_by=tenant.worker,
            sold_at=night(occasion.date, 19),
            voided_at=night(occasion.date, 19, 5) if n == 2 else None,
            voided_by=tenant.member_in_charge if n == 2 else None,
            void_witness=tenant.head if n == 2 else None,
            void_reason="Sold twice" if n == 2 else "",
        )
        for n in range(2, count + 2)
    )
    SaleLine.objects.bulk_create(
        SaleLine(
            sale=s,
            price_item=extra,
            category="extra_regular",
            quantity=2,
            unit_price=Decimal("1.00"),
            amount=Decimal("2.00"),
        )
        for s in sales
    )
    keep(Occasion.objects.filter(pk=occasion.pk))


@pytest.fixture
def nights(tenant):
    """Five closed nights (one with more sales and a void), one of them not kept (kept before
    the figures were, say: counted live), and tonight's, open."""
    tonight, varied, unkept, *others = played_occasions(tenant, 6)
    _more_sales(varied, tenant, 4)
    Occasion.objects.filter(pk=tonight.pk).update(status=Occasion.Status.OPEN, closed_at=None)
    KeptOccasionFigures.objects.filter(occasion__in=[tonight, unkept]).delete()
    return [Occasion.objects.get(pk=o.pk) for o in (tonight, varied, unkept, *others)]


def test_the_list_of_occasions_shows_the_recomputed_figures(
    client, statewide_inspector, nights, monkeypatch
):
    login(client, statewide_inspector)
    url = reverse("inspector_dashboard")
    with CaptureQueriesContext(connection) as captured:
        kept = client.get(url)
    shown = {
        o.pk: tuple(getattr(o, name) for name in FIGURES) for o in kept.context["page"].object_list
    }
    recomputed = {
        row["pk"]: tuple(row[name] for name in FIGURES)
        for row in with_figures(Occasion.objects.all()).values("pk", *FIGURES)
    }
    assert shown == recomputed and len(shown) == 6
    assert shown[nights[1].pk][:3] == (3, Decimal("12.00"), Decimal("50.00"))  # the void left out
    assert any(
        "CASE WHEN" in q["sql"] and "reports_keptoccasionfigures" in q["sql"]
        for q in captured.captured_queries
    )
    monkeypatch.setattr("inspections.selectors.with_kept_figures", with_figures)
    assert _same_page(client.get(url)) == _same_page(kept)


def _csv(client, **params) -> bytes:
    response = client.get(reverse("inspect_export", args=["occasions"]), params)
    assert response.status_code == 200
    return b"".join(response.streaming_content)


def test_the_occasions_csv_is_the_one_recomputed_byte_for_byte(
    client, statewide_inspector, nights, monkeypatch
):
    login(client, statewide_inspector)
    kept = _csv(client)
    assert kept.count(b"\n") == 1 + 6
    assert b",12.00," in kept  # the night with more sales: $6 + 3 x $2, the void left out
    monkeypatch.setattr("inspections.exports.with_kept_figures", with_figures)
    assert _csv(client) == kept


def test_the_occasions_csv_costs_as_many_queries_at_10_and_100_occasions(
    client, tenant, statewide_inspector
):
    played_occasions(tenant, 10)
    login(client, statewide_inspector)
    _csv(client)  # the session and caches warm up
    with CaptureQueriesContext(connection) as small:
        _csv(client)
    played_occasions(tenant, 90, last=timezone.localdate() - dt.timedelta(days=11))
    with CaptureQueriesContext(connection) as large:
        rows = _csv(client)
    assert rows.count(b"\n") == 1 + 100
    assert len(large) == len(small), [q["sql"][:120] for q in large.captured_queries]
    print(f"occasions CSV: {len(small)} queries at 10 and 100 occasions")


def _night_pages(occasion: Occasion) -> dict[str, str]:
    args = [occasion.organization_id, occasion.pk]
    return {
        "occasion page": reverse("occasion_detail", args=args),
        "full record": reverse("occasion_record", args=args),
        "door": reverse("door_sales", args=args),
    }


def _counted_with_attendance(occasion: Occasion, kept: object = None) -> tuple:
    return sales_selectors.door_counts(occasion), sales_selectors.attendance_check(occasion)


#: Where each page finds the door's counts, and what renders it as it was: counted from the
#: sales (the occasion page reads the counts with the attendance; the full record finds its
#: prizes in the same read, summed from the winners when nothing is kept).
COUNTED = {
    "occasion page": ("occasions.views.occasion_door", _counted_with_attendance),
    "full record": ("inspections.record.kept_page", lambda occasion: None),
    "door": ("occasions.sales_selectors.door_figures", sales_selectors.door_counts),
}


@pytest.mark.parametrize("page", list(COUNTED))
def test_a_nights_page_shows_the_door_as_counted(
    client, tenant, inspector, nights, monkeypatch, page
):
    tonight, varied, unkept, *_ = nights
    login(client, inspector)
    for occasion in (varied, unkept, tonight):
        url = _night_pages(occasion)[page]
        with CaptureQueriesContext(connection) as captured:
            kept = client.get(url)
        assert kept.status_code == 200
        sql = "".join(q["sql"] for q in captured.captured_queries)
        # The closed, kept night reads its door as kept; the others count their sale lines.
        counted = 'SUM("occasions_saleline"."quantity")' in sql
        assert counted == (occasion != varied), (page, occasion.status)
        with monkeypatch.context() as m:
            m.setattr(*COUNTED[page])
            assert _same_page(client.get(url)) == _same_page(kept)
    assert sales_selectors.door_figures(varied) == sales_selectors.door_counts(varied)
    door = sales_selectors.door_figures(varied)
    assert (door.receipts, door.voided, door.total, door.admissions) == (4, 1, Decimal("12.00"), 3)


@pytest.mark.parametrize("page", list(COUNTED))
def test_a_nights_page_costs_as_many_queries_at_10_times_the_sales(client, tenant, inspector, page):
    small_night, large_night = played_occasions(tenant, 2)
    _more_sales(small_night, tenant, 5)
    _more_sales(large_night, tenant, 50)
    login(client, inspector)
    client.get(_night_pages(small_night)[page])  # the session and caches warm up
    with CaptureQueriesContext(connection) as small:
        client.get(_night_pages(small_night)[page])
    with CaptureQueriesContext(connection) as large:
        response = client.get(_night_pages(large_night)[page])
    assert response.status_code == 200
    assert len(large) == len(small), [q["sql"][:120] for q in large.captured_queries]
    print(f"{page}: {len(small)} queries at 5 and 50 more receipts")


@pytest.mark.parametrize("page", list(COUNTED))
def test_a_closed_night_with_nothing_kept_asks_once(client, inspector, nights, page):
    """Nothing kept is an answer too: the page that asked for the kept figures and found none
    counts the night live without asking again."""
    unkept = nights[2]
    login(client, inspector)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(_night_pages(unkept)[page]).status_code == 200
    asked = [q for q in captured.captured_queries if "reports_keptoccasionfigures" in q["sql"]]
    assert len(asked) == 1, [q["sql"][:120] for q in asked]


def test_the_full_record_shows_the_prizes_awarded_as_kept(client, inspector, nights):
    """A closed night's prizes awarded as kept with its figures (the kept row altered here to
    tell the two apart), read with its door's counts; an open night's and a closed one not kept
    summed from its winners' shares."""
    tonight, varied, unkept, *_ = nights
    KeptOccasionFigures.objects.filter(occasion=varied).update(prizes=Decimal("49.00"))
    login(client, inspector)

    def prizes(occasion: Occasion) -> str:
        page = client.get(_night_pages(occasion)["full record"]).content.decode()
        return re.search(r"<dt>Prizes awarded</dt><dd>\$([\d,.]+)</dd>", page)[1]

    assert prizes(varied) == "49.00"
    assert prizes(unkept) == prizes(tonight) == "50.00"


def test_workers_among_winners_matches_no_winner_live_when_no_night_is_open(
    client, tenant, statewide_inspector, nights
):
    """The winners of the closed nights are read as kept; the live match (every winner checked
    against the worker lists) runs over the open nights' games only, named by their ids, and
    not at all when none is open (bench/RESULTS.md: planned from every winner of the year, it
    cost the page most of its time with no night open)."""
    tonight = nights[0]
    login(client, statewide_inspector)
    url = reverse("inspect_compliance", args=["winners"])

    def live_matches() -> list[str]:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return [
            q["sql"]
            for q in captured.captured_queries
            if q["sql"].startswith('SELECT "games_winner"') and "EXISTS" in q["sql"]
        ]

    [live] = live_matches()
    # Its nights by their ids, not the scope's subquery (organizations, their licenses).
    assert f'"id" IN ({tonight.pk})' in live and "organizations_license" not in live
    Occasion.objects.filter(pk=tonight.pk).update(status=Occasion.Status.CLOSED)
    assert live_matches() == []
