"""The Commission's reads across organizations: commission_read tokens only, the figures the
pages and the PDF give (compared with the same functions' output), personal data withheld,
filters held to their values (400 naming the parameter), and lists of a constant cost."""

from __future__ import annotations

import copy
import datetime as dt
import json
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from api import commission_serializers
from api.models import ApiToken
from beano.rules.models import RefusedAction
from organizations import verification
from organizations.access import visible_organizations
from organizations.models import AuditChain, AuditEvent, License
from organizations.selectors import licensees
from reports import integrity, pdf
from reports import selectors as report_selectors
from reports.models import FinancialReport
from tests.api.conftest import api_client, token_for
from tests.conftest import make_tenant
from tests.reports import conftest as report_fixtures
from tests.reports.conftest import at

# The known night of tests/reports, filed, and its clock.
known_occasion = report_fixtures.known_occasion
counted = report_fixtures.counted
filed_report = report_fixtures.filed_report
report_clock = report_fixtures.report_clock

pytestmark = pytest.mark.django_db

LISTS = (
    "api_commission_reports",
    "api_commission_reports_owed",
    "api_commission_refused_actions",
    "api_commission_audit_chains",
)
OPERATIONS = [(name, {}) for name in LISTS] + [("api_commission_report", {"report_id": 1})]


@pytest.mark.parametrize(("name", "kwargs"), OPERATIONS)
def test_only_a_commission_token_reads_across_organizations(
    name, kwargs, tenant, read_token, floor_token, other_read_token, commission_token
):
    url = reverse(name, kwargs=kwargs)
    assert api_client(None).get(url).status_code == 401
    for plain in (read_token, floor_token, other_read_token):
        answer = api_client(plain).get(url)
        assert answer.status_code == 403
        assert answer["Content-Type"].startswith("application/problem+json")
    night_files = token_for(
        ApiToken.Scope.NIGHT_FILES,
        by=tenant.head,
        organization=tenant.organization,
        acts_as=tenant.bookkeeper,
    )
    assert api_client(night_files).get(url).status_code == 403
    assert api_client(commission_token).get(url).status_code in (200, 404)
    assert api_client(commission_token).post(url, {}, format="json").status_code == 403


def test_the_views_answer_the_scopes_of_the_matrix():
    from django.urls import resolve

    from organizations.access_matrix import API_ENDPOINTS

    for name, kwargs in OPERATIONS:
        view = resolve(reverse(name, kwargs=kwargs)).func.view_class
        assert view.read_scopes == API_ENDPOINTS[name].read
        assert view.write_scopes == API_ENDPOINTS[name].write


# --- Filed reports -------------------------------------------------------------------------


def _get(plain: str, name: str, params: dict | None = None, **kwargs: Any) -> Any:
    return api_client(plain).get(reverse(name, kwargs=kwargs), params or {})


def test_a_filed_report_is_the_json_its_pdf_embeds(commission_token, filed_report):
    listed = _get(commission_token, "api_commission_reports").json()
    assert listed["count"] == 1
    (item,) = listed["results"]
    filed_report.refresh_from_db()  # its times as read back, as the PDF's worker reads them
    embedded = pdf.payload(filed_report)
    for key, value in embedded.items():
        assert item[key] == json.loads(json.dumps(value)), key
    assert item["figures"] == filed_report.figures  # nothing personal in this night's figures
    assert item["withheld"] == []
    assert item["checks"] is True and item["problems"] == []
    assert item["organization"] == {
        "id": filed_report.organization_id,
        "name": filed_report.organization.name,
    }
    one = _get(commission_token, "api_commission_report", report_id=filed_report.pk)
    assert one.status_code == 200 and one.json() == item


def test_a_report_that_no_longer_checks_says_so_as_the_pages_do(commission_token, filed_report):
    figures = copy.deepcopy(filed_report.figures)
    figures["net"]["net_proceeds"] = "999999.00"
    FinancialReport.objects.filter(pk=filed_report.pk).update(figures=figures)
    filed_report.refresh_from_db()
    item = _get(commission_token, "api_commission_report", report_id=filed_report.pk).json()
    assert item["checks"] is False
    assert item["problems"] == integrity.document_problems(filed_report) != []


def _w2g(report: FinancialReport) -> str:
    """Make a winner of ``report``'s figures one paid with a W-2G and a group's Form 5754."""
    figures = copy.deepcopy(report.figures)
    for game in figures["games"]:
        for part in game["parts"]:
            for winner in part["winners"]:
                winner.update(
                    name="Zebulon Quackenbush",
                    w2g=True,
                    form5754=[{"name": "Philomena Grubb", "share": "600.00"}],
                )
                FinancialReport.objects.filter(pk=report.pk).update(
                    figures=figures,
                    changes=[
                        {
                            "path": "games[0].parts[0].winners[0].name",
                            "old": "Zebulon Quackenbush",
                            "new": "Philomena Grubb",
                        },
                        {"path": "net.net_proceeds", "old": "1.00", "new": "2.00"},
                    ],
                )
                return json.dumps(figures)
    raise AssertionError("The known night has no winner.")


def test_personal_data_never_leaves(commission_token, filed_report):
    _w2g(filed_report)
    for answer in (
        _get(commission_token, "api_commission_reports"),
        _get(commission_token, "api_commission_report", report_id=filed_report.pk),
    ):
        text = answer.content.decode()
        assert "Quackenbush" not in text and "Grubb" not in text
    item = answer.json()
    assert any(p.endswith(".form5754[0].name") for p in item["withheld"])
    assert "changes[0]" in item["withheld"] and "changes[1]" not in item["withheld"]
    assert item["changes"][1]["new"] == "2.00"


def test_changes_summed_up_by_a_winners_name_are_withheld():
    embedded = {
        "figures": {"games": []},
        "changes": [
            {"path": "games[2].parts[0].winners", "old": None, "new": "Ann Smith · 50.00"},
            {"path": "games[2].parts", "old": '{"winners": [{"name": "Ann"}]}', "new": None},
            {"path": "expenses.lines", "old": None, "new": "Hall rent · 100.00"},
        ],
    }
    out, withheld = commission_serializers.without_personal_data(embedded)
    assert withheld == ["changes[0]", "changes[1]"]
    assert out["changes"][2]["new"] == "Hall rent · 100.00"
    assert embedded["changes"][0]["new"] == "Ann Smith · 50.00"  # the filed row untouched


def test_the_reports_filters(commission_token, filed_report, other_tenant):
    day = filed_report.occasion.date.isoformat()
    count = lambda **p: _get(commission_token, "api_commission_reports", p).json()["count"]  # noqa: E731
    assert count(organization=filed_report.organization_id) == 1
    assert count(organization=other_tenant.organization.pk) == 0
    assert count(organization=987654) == 0  # outside the reach: filtered out, not 404
    assert count(**{"from": day, "to": day}) == 1
    assert count(**{"from": "2027-01-01"}) == 0
    assert count(**{"from": day, "to": "2026-12-01"}) == 0  # a range ending before it starts
    assert count(since="0001-01-01T00:00:00+14:00") == 1  # before every record
    assert count(since="9999-12-31T23:59:59-12:00") == 0  # after every record
    since = filed_report.filed_at
    assert count(since=since.isoformat()) == 1
    assert count(since=(since + dt.timedelta(seconds=1)).isoformat()) == 0


@pytest.mark.parametrize(
    ("name", "params", "field"),
    [
        ("api_commission_reports", {"from": "yesterday"}, "from"),
        ("api_commission_reports", {"since": "soon"}, "since"),
        ("api_commission_reports", {"organization": "Post One"}, "organization"),
        ("api_commission_reports", {"limit": "all"}, "limit"),
        ("api_commission_reports", {"offset": "-1"}, "offset"),
        ("api_commission_reports_owed", {"status": "overdue"}, "status"),
        ("api_commission_reports_owed", {"to": "2026-13-01"}, "to"),
        ("api_commission_refused_actions", {"since": "2026-12-32T00:00"}, "since"),
        ("api_commission_refused_actions", {"organization": "-3"}, "organization"),
        ("api_commission_audit_chains", {"organization": "x"}, "organization"),
        ("api_commission_audit_chains", {"organisation": "1"}, "organisation"),
        ("api_commission_reports_owed", {"to": ""}, "to"),
    ],
)
def test_bad_values_are_400_naming_the_parameter(commission_token, name, params, field):
    answer = _get(commission_token, name, params)
    assert answer.status_code == 400
    assert answer["Content-Type"].startswith("application/problem+json")
    assert list(answer.json()["errors"]) == [field]


def test_a_report_outside_the_reach_is_404(commission_token, filed_report):
    assert _get(commission_token, "api_commission_report", report_id=987654).status_code == 404
    # A practice organization's reports are not the Commission's lists' (licensees only).
    License.objects.filter(organization=filed_report.organization).update(practice=True)
    answer = _get(commission_token, "api_commission_report", report_id=filed_report.pk)
    assert answer.status_code == 404
    assert answer["Content-Type"].startswith("application/problem+json")
    assert _get(commission_token, "api_commission_reports").json()["count"] == 0


def _queries(plain: str, name: str, params: dict | None = None) -> int:
    _get(plain, name, params)  # the token's first use of the minute is recorded once
    with CaptureQueriesContext(connection) as ctx:
        answer = _get(plain, name, params)
    assert answer.status_code == 200
    return len(ctx.captured_queries)


def _copies(report: FinancialReport, organization: Any, versions: range) -> None:
    for version in versions:
        FinancialReport.objects.create(
            **{
                f.attname: getattr(report, f.attname)
                for f in FinancialReport._meta.concrete_fields
                if f.attname not in ("id", "organization_id", "version", "reason")
            },
            organization=organization,
            version=version,
            reason="Amended for the test.",
        )


def test_the_reports_cost_a_constant_number_of_queries(
    commission_token, filed_report, other_tenant
):
    small = _queries(commission_token, "api_commission_reports")
    _copies(filed_report, filed_report.organization, range(2, 5))
    _copies(filed_report, other_tenant.organization, range(5, 8))
    assert _get(commission_token, "api_commission_reports").json()["count"] == 7
    assert _queries(commission_token, "api_commission_reports") == small


# --- Reports owed --------------------------------------------------------------------------


def _owing(*tenants: Any) -> None:
    for t in tenants:
        t.organization.reports_from = dt.date(2026, 12, 4)
        t.organization.save()


def test_the_reports_owed_are_the_commissions_list(
    commission_token, commission_admin, tenant, other_tenant, report_clock
):
    _owing(tenant, other_tenant)
    report_clock(at(12, day=dt.date(2026, 12, 16)))
    answer = _get(commission_token, "api_commission_reports_owed", {"status": "all"}).json()
    rows = report_selectors.obligations(licensees(visible_organizations(commission_admin)))
    assert [(r["organization"]["id"], r["day"], r["status"]) for r in answer["results"]] == [
        (row.obligation.organization_id, row.obligation.day.isoformat(), row.status) for row in rows
    ]
    assert answer["count"] == len(rows) > 0
    default = _get(commission_token, "api_commission_reports_owed").json()["results"]
    assert default and {r["status"] for r in default} <= set(report_selectors.OPEN_STATUSES)
    mine = _get(
        commission_token, "api_commission_reports_owed", {"organization": tenant.organization.pk}
    ).json()["results"]
    assert mine and {r["organization"]["id"] for r in mine} == {tenant.organization.pk}
    assert (
        _get(commission_token, "api_commission_reports_owed", {"organization": 987654}).json()[
            "count"
        ]
        == 0
    )


def test_the_reports_owed_cost_a_constant_number_of_queries(commission_token, tenant, report_clock):
    _owing(tenant)
    report_clock(at(12, day=dt.date(2026, 12, 16)))
    params = {"status": "all"}
    small = _queries(commission_token, "api_commission_reports_owed", params)
    _owing(*(make_tenant(f"Hall {i}") for i in range(3)))
    assert _get(commission_token, "api_commission_reports_owed", params).json()["count"] > 3
    assert _queries(commission_token, "api_commission_reports_owed", params) == small


# --- Refused actions -----------------------------------------------------------------------


def _refused(organization: Any, n: int = 1) -> None:
    for _ in range(n):
        RefusedAction.objects.create(
            username="door-seller",
            organization_id=organization.pk,
            organization_name=organization.name,
            action="sale_record",
            on_date=dt.date(2026, 12, 4),
            facts={"w2g_tin": "123-45-6789"},
            violations=[
                {"code": "SALE_NIGHT_CLOSED", "citation": "961 CMR 3.04(2)", "message": "No."}
            ],
            citations="961 CMR 3.04(2)",
        )


def test_the_refused_actions_as_the_commissions_page_lists_them(
    commission_token, tenant, other_tenant
):
    _refused(tenant.organization)
    _refused(other_tenant.organization)
    answer = _get(commission_token, "api_commission_refused_actions")
    assert "123-45-6789" not in answer.content.decode()  # the facts are not given
    results = answer.json()["results"]
    newest_first = RefusedAction.objects.order_by("-created_at", "-pk")
    assert [r["id"] for r in results] == [r.pk for r in newest_first]
    assert results[0]["refusals"] == [
        {"code": "SALE_NIGHT_CLOSED", "citation": "961 CMR 3.04(2)", "message": "No."}
    ]
    assert results[0]["who"] == "door-seller" and results[0]["action"] == "sale_record"
    mine = {"organization": tenant.organization.pk}
    assert _get(commission_token, "api_commission_refused_actions", mine).json()["count"] == 1
    later = (newest_first[0].created_at + dt.timedelta(seconds=1)).isoformat()
    since = _get(commission_token, "api_commission_refused_actions", {"since": later})
    assert since.json()["count"] == 0
    cited = {"citation": "3.05"}
    assert _get(commission_token, "api_commission_refused_actions", cited).json()["count"] == 0


def test_the_refused_actions_cost_a_constant_number_of_queries(
    commission_token, tenant, other_tenant
):
    _refused(tenant.organization)
    small = _queries(commission_token, "api_commission_refused_actions")
    _refused(tenant.organization, 3)
    _refused(other_tenant.organization, 3)
    assert _queries(commission_token, "api_commission_refused_actions") == small


# --- Audit chains --------------------------------------------------------------------------


def _chain(plain: str, organization: Any) -> dict[str, Any]:
    (row,) = _get(plain, "api_commission_audit_chains", {"organization": organization.pk}).json()[
        "results"
    ]
    return row


def test_each_chain_as_its_last_whole_check_recorded_it(commission_token, tenant, other_tenant):
    row = _chain(commission_token, tenant.organization)
    assert row["state"] == "unchecked" and row["last_check"] is None
    verification.verify_all()
    chain = AuditChain.objects.get(organization=tenant.organization)
    row = _chain(commission_token, tenant.organization)
    assert row["state"] == "intact" and row["broken_at"] is None
    assert row["length"] == chain.length > 0 and row["head_hash"] == chain.head_hash
    assert row["last_check"]["through_event"] == chain.length
    assert row["unchecked_events"] == 0
    AuditEvent.objects.filter(organization=tenant.organization, sequence=2).update(
        target_repr="Changed behind the application's back"
    )
    # Not checked again on a request: the answer is the last whole check's.
    assert _chain(commission_token, tenant.organization)["state"] == "intact"
    (recorded,) = [
        v for v in verification.verify_all() if v.chain.organization_id == tenant.organization.pk
    ]
    row = _chain(commission_token, tenant.organization)
    assert row["state"] == "broken" and row["broken_at"] == 2
    assert row["last_check"]["problem"] == recorded.problem
    assert _chain(commission_token, other_tenant.organization)["state"] == "intact"
    outside = {"organization": 987654}
    assert _get(commission_token, "api_commission_audit_chains", outside).json()["count"] == 0


def test_the_chains_cost_a_constant_number_of_queries(commission_token, tenant, other_tenant):
    verification.verify_all()
    small = _queries(commission_token, "api_commission_audit_chains")
    for i in range(3):
        make_tenant(f"Hall {i}")
    verification.verify_all()
    assert _get(commission_token, "api_commission_audit_chains").json()["count"] >= 5
    assert _queries(commission_token, "api_commission_audit_chains") == small
