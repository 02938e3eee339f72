"""The PDF: made by the task from the filed figures, PDF/A-3a, page numbers, the figures in its
text and the same figures embedded as JSON; the task is idempotent and retries only transient
errors; ``financial_report`` writes the same PDF."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import OperationalError

from reports import pdf, tasks
from reports.models import FinancialReport, RenderStatus

NIGHT_AFTER = dt.date(2026, 12, 7)


def pdftext(path: Path) -> str:
    return subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout


def embedded_json(path: Path, tmp_path: Path) -> dict:
    target = tmp_path / "attached.json"
    subprocess.run(
        ["pdfdetach", "-savefile", pdf.ATTACHMENT_NAME, "-o", str(target), str(path)],
        check=True,
        capture_output=True,
    )
    return json.loads(target.read_text())


@pytest.fixture
def after_the_fact(known_occasion, tenant, report_clock):
    """The known night with an hour of its door entered from paper and its close recorded
    three days later, when its report is filed: the PDF says so."""
    from occasions.models import Occasion, PaperRecord
    from tests.reports.conftest import at

    PaperRecord.objects.create(
        occasion=known_occasion,
        scope=PaperRecord.Scope.PART,
        starts_at=at(19, 0),
        ends_at=at(20, 0),
        sheets="Door tally sheet",
        reason="The Wi-Fi dropped for an hour",
        entered_by=tenant.bookkeeper,
        created_at=at(9, 14, NIGHT_AFTER),
    )
    Occasion.objects.filter(pk=known_occasion.pk).update(
        closed_by=tenant.member_in_charge,
        close_reason="The laptop was shut with the night still open",
        close_recorded_at=at(9, 20, NIGHT_AFTER),
    )
    known_occasion.refresh_from_db()
    report_clock(at(10, 0, NIGHT_AFTER))
    return known_occasion


@pytest.fixture
def rendered(after_the_fact, filed_report, media_root) -> FinancialReport:
    assert tasks.render("financial", filed_report.pk) == RenderStatus.READY
    filed_report.refresh_from_db()
    return filed_report


def test_the_pdf_holds_the_figures_in_clear_text(rendered, tenant):
    text = pdftext(Path(rendered.pdf.path))
    for expected in (
        "Beano financial report",
        tenant.organization.name,
        rendered.figures["organization"]["license_number"],
        "Friday, December 4, 2026",
        "$456.00",  # gross receipts
        "$22.80",  # tax
        "$118.20",  # net proceeds
        "$596.00",  # cash expected
        "Member in charge",
        "Head of organization",
        f"through event {rendered.chain_length}",
        rendered.chain_head_hash[:40],
    ):
        assert expected in text, expected
    # What was entered after the fact, frozen with the figures and printed.
    flat = " ".join(text.split())
    for expected in (
        "From 7:00 PM to 8:00 PM: recorded from paper (Door tally sheet). "
        "Why: The Wi-Fi dropped for an hour.",
        "The close was recorded after the fact on December 7, 2026 at 9:20 AM",
        "the night ended at 10:30 PM. Reason: The laptop was shut with the night still open",
    ):
        assert expected in flat, expected
    pages = int(
        next(
            line.split()[-1]
            for line in subprocess.run(
                ["pdfinfo", rendered.pdf.path], capture_output=True, text=True, check=True
            ).stdout.splitlines()
            if line.startswith("Pages:")
        )
    )
    assert f"Page 1 of {pages}" in text and f"Page {pages} of {pages}" in text


def test_the_embedded_json_equals_the_filed_figures(rendered, tmp_path):
    data = embedded_json(Path(rendered.pdf.path), tmp_path)
    assert data["figures"] == rendered.figures
    assert data["figures_sha256"] == rendered.figures_sha256
    assert data["audit_chain"] == {
        "through_event": rendered.chain_length,
        "head": rendered.chain_head_hash,
    }
    assert data["figures"]["net"]["net_proceeds"] == "118.20"


def test_pdfinfo_reports_pdf_a(rendered):
    info = subprocess.run(
        ["pdfinfo", rendered.pdf.path], capture_output=True, text=True, check=True
    ).stdout
    assert "PDF subtype:    PDF/A-3a" in info
    assert rendered.pdf_sha256 == pdf.sha256(Path(rendered.pdf.path).read_bytes())


def test_rendering_again_keeps_one_current_file(rendered):
    first = rendered.pdf.name
    FinancialReport.objects.filter(pk=rendered.pk).update(render_status=RenderStatus.QUEUED)
    assert tasks.render("financial", rendered.pk) == RenderStatus.READY
    rendered.refresh_from_db()
    assert rendered.pdf.name == first
    assert sorted(p.name for p in Path(rendered.pdf.path).parent.iterdir()) == [Path(first).name]
    # Ready with its file: a repeated task does nothing.
    assert tasks.render("financial", rendered.pk) == RenderStatus.READY


def test_a_fault_in_the_document_fails_it_without_retrying(filed_report, media_root, monkeypatch):
    def broken(document, **kwargs):
        raise ValueError("template error")

    monkeypatch.setattr(pdf, "render_pdf", broken)
    result = tasks.render_document.apply(args=["financial", filed_report.pk]).get()
    assert result["status"] == RenderStatus.FAILED
    filed_report.refresh_from_db()
    assert filed_report.render_status == RenderStatus.FAILED
    assert "template error" in filed_report.render_error


def test_a_transient_error_is_retried(filed_report, media_root, monkeypatch):
    calls = []

    def flaky(document, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise OperationalError("database restarting")
        return b"%PDF-1.7 test"

    monkeypatch.setattr(pdf, "render_pdf", flaky)
    monkeypatch.setattr(tasks.render_document, "retry_backoff", False)
    tasks.render_document.apply(args=["financial", filed_report.pk], throw=False)
    assert len(calls) == 2
    filed_report.refresh_from_db()
    assert filed_report.render_status == RenderStatus.READY


def test_the_command_writes_the_same_pdf(rendered, tmp_path):
    out = tmp_path / "report.pdf"
    call_command("financial_report", str(rendered.occasion_id), "--output", str(out))
    info = subprocess.run(["pdfinfo", str(out)], capture_output=True, text=True).stdout
    assert "PDF/A-3a" in info
    assert embedded_json(out, tmp_path)["figures"] == rendered.figures


def test_the_command_refuses_an_unfiled_occasion(counted, tmp_path):
    with pytest.raises(CommandError, match="not filed"):
        call_command("financial_report", str(counted.pk), "--output", str(tmp_path / "x.pdf"))
