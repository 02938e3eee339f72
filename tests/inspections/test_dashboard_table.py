"""The dashboard's organization rows, drawn in Python (``inspections.dashboard_table``): each
cell as the inspector reads it, every text escaped, every badge linking what it counts."""

from __future__ import annotations

import datetime as dt
import re

from django.template.defaultfilters import date as date_filter
from django.urls import reverse
from django.utils import translation

from inspections.dashboard_table import dashboard_links, organization_row
from inspections.selectors import OrganizationRow
from occasions.badges import status_badge
from occasions.models import Occasion
from organizations.models import License, Organization
from reports.selectors import ReportIssues


def _row(**changes) -> OrganizationRow:
    org = Organization(pk=7, name="St. Anne's <Guild> & Co", town="Lowell")
    values = {
        "organization": org,
        "license": License(
            number="BN-0007", status=License.Status.ACTIVE, valid_to=dt.date(2027, 3, 31)
        ),
        "last_occasion": Occasion(
            pk=41, date=dt.date(2026, 12, 4), status=Occasion.Status.CLOSED, organization=org
        ),
        "refused": 2,
        "issues": ReportIssues(),
    } | changes
    row = OrganizationRow(**values)
    dashboard_links([row])
    return row


def _cells(html: str) -> list[str]:
    assert html.startswith("<tr>") and html.endswith("</tr>")
    return re.findall(r"<td[^>]*>(.*?)</td>", html)


def test_a_row_has_its_seven_cells_escaped_and_linked():
    row = _row()
    html = organization_row(row)
    cells = _cells(html)
    assert len(cells) == 7
    home = reverse("organization_home", args=[7])
    assert cells[0] == f'<a href="{home}">St. Anne&#x27;s &lt;Guild&gt; &amp; Co</a>'
    assert cells[1] == "Lowell"
    assert cells[2] == (
        'BN-0007 <span class="badge text-bg-success">Active</span>'
        '<div class="small text-secondary">to Mar 31, 2027</div>'
    )
    record = reverse("occasion_record", args=[7, 41])
    assert cells[3] == (
        f'<a href="{record}">Fri Dec 4, 2026</a> '
        '<span class="badge fs-6 text-bg-dark">Closed</span>'
    )
    refused = reverse("commission_refused_actions") + "?organization=7"
    assert cells[4] == (
        f'<a class="badge text-bg-warning text-decoration-none fs-6" href="{refused}">2</a>'
    )
    assert cells[5] == '<span class="text-secondary">up to date</span>'
    for name in ("org_compliance_prizes", "audit_log", "chain_check"):
        assert f'href="{reverse(name, args=[7])}"' in cells[6]


def test_a_row_without_a_license_an_occasion_or_a_refusal_says_so():
    cells = _cells(organization_row(_row(license=None, last_occasion=None, refused=0)))
    assert cells[2] == '<span class="badge text-bg-danger">No license in force</span>'
    assert cells[3] == '<span class="text-secondary">None yet</span>'
    assert cells[4] == '<span class="text-secondary">0</span>'


def test_a_license_not_active_is_shown_in_red_with_its_status():
    suspended = License(
        number="BN-0007", status=License.Status.SUSPENDED, valid_to=dt.date(2027, 3, 31)
    )
    cells = _cells(organization_row(_row(license=suspended)))
    assert cells[2].startswith('BN-0007 <span class="badge text-bg-danger">Suspended</span>')


def test_each_report_issue_is_a_badge_and_those_owed_link_the_reports_list():
    issues = ReportIssues(due=3, late=2, missing=1, variances=1, amendments=1)
    cell = _cells(organization_row(_row(issues=issues)))[5]
    reports = reverse("commission_reports") + "?organization=7&amp;status="
    assert cell == " ".join(
        [
            f'<a class="badge text-bg-danger text-decoration-none" href="{reports}late">2 late</a>',
            f'<a class="badge text-bg-danger text-decoration-none" href="{reports}missing">'
            "1 missing</a>",
            f'<a class="badge text-bg-warning text-decoration-none" href="{reports}due">3 due</a>',
            '<span class="badge text-bg-warning" title="Filed reports whose counts or cash '
            'differed from the records above the threshold">1 with a difference</span>',
            '<span class="badge text-bg-secondary">1 amendment</span>',
        ]
    )
    assert "2 amendments</span>" in organization_row(_row(issues=ReportIssues(amendments=2)))
    only_due = _cells(organization_row(_row(issues=ReportIssues(due=1))))[5]
    assert "1 due" in only_due and "late" not in only_due and "up to date" not in only_due


def test_the_dates_are_written_as_the_date_filter_writes_them_in_the_active_language():
    day = dt.date(2026, 12, 4)
    assert "Fri Dec 4, 2026" in organization_row(_row())  # kept for English first
    with translation.override("fr"):
        french = date_filter(day, "D M j, Y")
        assert french != "Fri Dec 4, 2026"
        assert f">{french}</a>" in organization_row(_row())


def test_an_occasions_status_badge_has_its_colour():
    assert status_badge("open", "Open") == '<span class="badge fs-6 text-bg-success">Open</span>'
    assert "text-bg-dark" in status_badge("closed", "Closed")
    assert "text-bg-secondary" in status_badge("not_played", "Not played")
    assert "text-bg-info" in status_badge("scheduled", "Scheduled")
    assert "&lt;b&gt;" in status_badge("open", "<b>")
