"""The dashboard's table of organizations: each row's links, and the row itself drawn in Python.

A statewide inspector's dashboard lists every licensee, 150 rows on every view of it (a page of
nights, a month, a search). Drawn by the template, each row's fifty-odd variables and tests cost
about 0.3 ms, 45 ms a view; drawn here in Python, as Django's admin draws the rows of its change
lists, the table costs a tenth of that. The HTML is the template's, escaped the same way (by
``beano.quick_html``: ``format_html`` without the check of each of the table's 2,000 values
for a lazy string); the row's figures come from the selectors (``OrganizationRow``) and the
reports' counts (``ReportIssues``)."""

from __future__ import annotations

import datetime as dt
from functools import lru_cache

from django.utils.formats import date_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from beano.quick_html import format_html_quick
from beano.url_formats import url_format
from inspections.selectors import OrganizationRow
from occasions.badges import status_badge

#: The pages each organization's row of the dashboard links, with how many ids each takes:
#: the row's organization, and for "last" its last occasion too.
ROW_PAGES = {
    "home": ("organization_home", 1),
    "last": ("occasion_record", 2),
    "compliance": ("org_compliance_prizes", 1),
    "audit": ("audit_log", 1),
    "chain": ("chain_check", 1),
    "refused": ("commission_refused_actions", 0),
    "reports": ("commission_reports", 0),
    "year": ("organization_year", 1),
}
#: What the Commission-wide pages are asked for the row's organization (the reports list's
#: status is added by the badge that links it).
ROW_QUERIES = {"refused": "?organization={0}", "reports": "?organization={0}&status="}

VARIANCES_TITLE = "Filed reports whose counts or cash differed from the records above the threshold"


def dashboard_links(rows: list[OrganizationRow]) -> None:
    """Each row's links, each page reversed once for the table (``url_format``)."""
    formats = {
        key: url_format(name, ids) + ROW_QUERIES.get(key, "")
        for key, (name, ids) in ROW_PAGES.items()
    }
    for row in rows:
        ids = [row.organization.pk]
        if row.last_occasion is not None:
            ids.append(row.last_occasion.pk)
        row.links = {
            key: fmt.format(*ids)
            for key, fmt in formats.items()
            if key != "last" or row.last_occasion is not None
        }


def organization_row(row: OrganizationRow) -> SafeString:
    """The row's seven cells: the organization, its town, its license in force, its last
    occasion, its refused actions, its open report issues, and the pages to review it."""
    links = row.links
    return format_html_quick(
        '<tr><td><a href="{}">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>'
        '<td class="small">{}</td><td class="no-print text-nowrap small"><a href="{}">The year</a>'
        ' · <a href="{}">Compliance</a> · <a href="{}">Audit</a> · <a href="{}">Check chain</a>'
        "</td></tr>",
        links["home"],
        row.organization.name,
        row.organization.town,
        _license(row),
        _last_occasion(row),
        _refused(row),
        _issues(row),
        links["year"],
        links["compliance"],
        links["audit"],
        links["chain"],
    )


def _license(row: OrganizationRow) -> SafeString:
    if row.license is None:
        return mark_safe('<span class="badge text-bg-danger">No license in force</span>')
    return format_html_quick(
        '{} <span class="badge {}">{}</span><div class="small text-secondary">to {}</div>',
        row.license.number,
        "text-bg-success" if row.license_ok else "text-bg-danger",
        row.license.get_status_display(),
        _day(row.license.valid_to, "M j, Y", get_language()),
    )


def _last_occasion(row: OrganizationRow) -> SafeString:
    last = row.last_occasion
    if last is None:
        return mark_safe('<span class="text-secondary">None yet</span>')
    return format_html_quick(
        '<a href="{}">{}</a> {}',
        row.links["last"],
        _day(last.date, "D M j, Y", get_language()),
        status_badge(last.status, last.get_status_display()),
    )


def _refused(row: OrganizationRow) -> SafeString:
    if not row.refused:
        return mark_safe('<span class="text-secondary">0</span>')
    return format_html_quick(
        '<a class="badge text-bg-warning text-decoration-none fs-6" href="{}">{}</a>',
        row.links["refused"],
        row.refused,
    )


def _issues(row: OrganizationRow) -> SafeString:
    """The report issues' badges: late, missing and due link the reports' list with that
    status; the differences and the amendments are counts."""
    issues = row.issues
    if issues is None:
        return mark_safe("")
    badges = [
        format_html_quick(
            '<a class="badge {} text-decoration-none" href="{}{}">{} {}</a>',
            css,
            row.links["reports"],
            status,
            count,
            status,
        )
        for count, status, css in (
            (issues.late, "late", "text-bg-danger"),
            (issues.missing, "missing", "text-bg-danger"),
            (issues.due, "due", "text-bg-warning"),
        )
        if count
    ]
    if issues.variances:
        badges.append(
            format_html_quick(
                '<span class="badge text-bg-warning" title="{}">{} with a difference</span>',
                VARIANCES_TITLE,
                issues.variances,
            )
        )
    if issues.amendments:
        badges.append(
            format_html_quick(
                '<span class="badge text-bg-secondary">{} amendment{}</span>',
                issues.amendments,
                "" if issues.amendments == 1 else "s",
            )
        )
    if not badges:
        return mark_safe('<span class="text-secondary">up to date</span>')
    return mark_safe(" ".join(badges))


@lru_cache(maxsize=2048)
def _day(day: dt.date, fmt: str, language: str) -> str:
    """A date as the ``date`` filter writes it, in the active language: 36 microseconds each
    through Django's formatter, while the table's 300 dates are a few dozen different days."""
    return date_format(day, fmt)
