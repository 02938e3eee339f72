"""A filed report's figures are checked whenever they are shown (its versions page, the
inspector's record and dashboard, the annual report page), printed (the PDF, its download, the
financial_report command) or zipped (the Commission's ZIP): figures that are not what was filed
come with a clear warning, never silently."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.core.management import call_command
from django.urls import reverse

from reports import pdf
from reports.figures import digest
from reports.models import AnnualReport, FinancialReport
from tests.conftest import login

WARNING = "Warning: these figures are not what was filed"


def tamper(report, *, rehash: bool = False) -> None:
    """The net proceeds raised in the table, the SHA-256 recomputed too if ``rehash``."""
    model = type(report)
    figures = model.objects.get(pk=report.pk).figures
    if model is FinancialReport:
        figures["net"]["net_proceeds"] = "9999.00"
    else:
        figures["total"] = "9999.00"
    fields = {"figures": figures}
    if rehash:
        fields["figures_sha256"] = digest(figures)
    model.objects.filter(pk=report.pk).update(**fields)


def versions_url(report) -> str:
    return reverse("report_versions", args=[report.organization_id, report.occasion_id])


def test_a_version_that_checks_is_shown_without_a_warning(client, tenant, filed_report):
    login(client, tenant.bookkeeper)
    assert WARNING not in client.get(versions_url(filed_report)).content.decode()
    assert pdf.render_html(filed_report).count(WARNING) == 0


@pytest.mark.parametrize("rehash", [False, True], ids=["figures", "figures and their SHA-256"])
def test_changed_figures_are_shown_with_a_warning(client, tenant, inspector, filed_report, rehash):
    tamper(filed_report, rehash=rehash)
    expected = (
        "Its figures&#x27; SHA-256 is not the one its filing recorded"
        if rehash
        else "Its figures do not match their SHA-256"
    )
    login(client, tenant.bookkeeper)
    page = client.get(versions_url(filed_report)).content.decode()
    assert WARNING in page and expected in page
    login(client, inspector)
    for url in (
        versions_url(filed_report),
        reverse("occasion_record", args=[tenant.organization.pk, filed_report.occasion_id]),
    ):
        page = client.get(url).content.decode()
        assert WARNING in page and expected in page, url


def test_the_dashboards_figures_are_checked_against_their_sha256(filed_report):
    from reports.selectors import reports_of_occasions

    occasion = filed_report.occasion
    assert reports_of_occasions([occasion])[occasion.pk].intact
    tamper(filed_report)
    shown = reports_of_occasions([occasion])[occasion.pk]
    assert not shown.intact and shown.net_proceeds == "9999.00"


def test_the_pdf_of_figures_that_do_not_check_says_so_on_its_first_page(filed_report):
    tamper(filed_report)
    html = pdf.render_html(FinancialReport.objects.get(pk=filed_report.pk))
    assert html.index(WARNING) < html.index("Gross receipts")
    assert "Its figures do not match their SHA-256" in html


def test_the_annual_report_is_checked_too(client, tenant, annual_report):
    tamper(annual_report)
    login(client, tenant.bookkeeper)
    page = client.get(reverse("annual_report", args=[tenant.organization.pk, 2025])).content
    assert WARNING in page.decode()
    html = pdf.render_html(AnnualReport.objects.get(pk=annual_report.pk))
    assert WARNING in html


def test_a_pdf_that_does_not_check_is_not_downloaded_without_its_warning(
    client, tenant, rendered_report_kwargs
):
    report = FinancialReport.objects.get(pk=rendered_report_kwargs["report_id"])
    url = reverse("report_pdf", args=[tenant.organization.pk, report.pk])
    login(client, tenant.bookkeeper)
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"

    with report.pdf.open("wb") as handle:  # the file swapped for another
        handle.write(b"%PDF-1.7 another document")
    response = client.get(url)
    assert response.status_code == 409
    page = response.content.decode()
    assert WARNING in page and "The PDF file is not the one made for it" in page
    response = client.get(url, {"despite": "problems"})
    assert response.status_code == 200 and b"".join(response.streaming_content).startswith(
        b"%PDF-1.7 another"
    )


def test_the_zip_says_which_reports_do_not_check(
    client, statewide_inspector, rendered_report_kwargs, filed_report
):
    login(client, statewide_inspector)
    url = reverse("commission_reports_zip")
    dates = {"from": "2026-12-01", "to": "2026-12-31"}
    archive = zipfile.ZipFile(io.BytesIO(client.get(url, dates).content))
    assert "WARNINGS.txt" not in archive.namelist()
    assert archive.read("manifest.csv").decode().splitlines()[1].endswith(",yes")

    tamper(filed_report, rehash=True)
    archive = zipfile.ZipFile(io.BytesIO(client.get(url, dates).content))
    warnings = archive.read("WARNINGS.txt").decode()
    assert "1 report(s) in this archive do not check" in warnings
    assert "is not the one its filing recorded" in warnings
    assert ",NO: Its figures' SHA-256 is not the one" in archive.read("manifest.csv").decode()


def test_the_financial_report_command_warns_and_prints_the_warning(filed_report, tmp_path):
    tamper(filed_report)
    err = io.StringIO()
    output = tmp_path / "report.pdf"
    call_command(
        "financial_report",
        str(filed_report.occasion_id),
        "--output",
        str(output),
        stdout=io.StringIO(),
        stderr=err,
    )
    assert "Warning, printed on the PDF: Its figures do not match their SHA-256" in err.getvalue()
    assert output.read_bytes().startswith(b"%PDF-")
