"""The PDFs of filed reports: PDF/A-3a made by WeasyPrint from one template per kind, with page
numbers and the figures embedded as a JSON attachment. The HTML is rendered from the figures
frozen in the filed row, so the PDF always shows what was filed; those figures are verified first
(reports.integrity), and a PDF of figures that do not check says so on its first page.

Readable by everyone (docs/ACCESSIBILITY.md): a tagged PDF, its structure made by WeasyPrint from
the template's HTML (headings, tables with their column and row headers, lists, the reading
order of the page), in the document's language, its title shown as the window's title."""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone

from reports.integrity import document_problems
from reports.models import AnnualReport, FinancialReport
from reports.templatetags.report_tags import isodate

#: WeasyPrint tells each step of its work at INFO; the worker's log has no use for it.
logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)

#: A filed report is an archived record and must be readable by everyone: PDF/A and PDF/UA
#: together would be the aim, but WeasyPrint makes one variant per document (``pdf_variant`` takes
#: one name; combining them is an open request, Kozea/WeasyPrint#2783). PDF/A-3 at its level "a"
#: is the closest it gives: the archival file (fonts embedded, colours defined, the figures'
#: JSON attached, which PDF/A-3 allows and PDF/UA-1 alone would not keep as PDF/A), tagged with
#: the same structure WeasyPrint writes for PDF/UA-1, with the language and the title shown. What
#: PDF/UA asks of the content itself (table headers with their scope, headings in order, no
#: picture without its words) is the template's part, checked in tests/reports/test_pdf_tags.py.
#: No PDF/UA identification is written: it would claim a conformance WeasyPrint does not make
#: for a PDF/A file.
PDF_VARIANT = "pdf/a-3a"
ATTACHMENT_NAME = "figures.json"

Document = FinancialReport | AnnualReport


def payload(document: Document) -> dict[str, Any]:
    """What is embedded: the filing's identity and the figures exactly as filed."""
    return {
        "document": "financial_report"
        if isinstance(document, FinancialReport)
        else "annual_report",
        "report_id": document.pk,
        "version": document.version,
        "reason": document.reason,
        "filed_at": document.filed_at.isoformat(),
        "filed_by": document.filed_by.get_username() if document.filed_by_id else "system",
        "due_on": document.due_on.isoformat(),
        "days_late": document.days_late,
        "audit_chain": {"through_event": document.chain_length, "head": document.chain_head_hash},
        "figures_sha256": document.figures_sha256,
        "changes": document.changes,
        "figures": document.figures,
    }


def _context(document: Document, *, authority_copy: bool = False) -> dict[str, Any]:
    f = document.figures
    org = f["organization"]
    filed_at = timezone.localtime(document.filed_at)
    filed_by = ""
    if document.filed_by_id:
        user = document.filed_by
        filed_by = user.get_full_name() or user.get_username()
    version = "original" if document.version == 1 else f"amendment {document.version - 1}"
    if isinstance(document, FinancialReport):
        day = isodate(f["occasion"]["date"])
        header_right = f"Occasion of {day:%B %-d, %Y} · {version}"
    else:
        header_right = f"Annual report {document.year} · {version}"
        if authority_copy:
            header_right += " · copy for the Local Licensing Authority"
    return {
        "doc": document,
        "f": f,
        "occasion_date": isodate(f["occasion"]["date"]) if "occasion" in f else None,
        "filed_at": filed_at,
        "filed_by": filed_by,
        "authority_copy": authority_copy,
        "header_left": f"{org['name']} · License {org['license_number']}",
        "header_right": header_right,
        "footer_left": f"Filed {filed_at:%Y-%m-%d %H:%M} · figures {document.figures_sha256[:16]}",
        "problems": document_problems(document),
    }


def render_html(document: Document, *, authority_copy: bool = False) -> str:
    template = (
        "reports/pdf/financial_report.html"
        if isinstance(document, FinancialReport)
        else "reports/pdf/annual_report.html"
    )
    return render_to_string(template, _context(document, authority_copy=authority_copy))


def _declare_conformance(document: Any, pdf: Any) -> None:
    """Name the PDF/A part in the document information dictionary too, where poppler's
    ``pdfinfo`` (and tools built on it) look for it; the XMP metadata already declares it."""
    import pydyf

    pdf.info["GTS_PDFA1Version"] = pydyf.String("PDF/A-3a")


def html_to_pdf(html: str, attachment: dict[str, Any] | None = None) -> bytes:
    """WeasyPrint, PDF/A-3a (tagged), the JSON attached as associated data. WeasyPrint reads
    nothing but the application's static files (``StaticFilesOnly``): a filed report's names and
    explanations are typed by its organization, and whatever slipped into the HTML must never
    make the worker fetch a URL or read another file of the server into the PDF."""
    from weasyprint import HTML, Attachment

    from reports.static_fetcher import StaticFilesOnly, static_base_url

    attachments = []
    if attachment is not None:
        data = json.dumps(attachment, indent=2, sort_keys=True, ensure_ascii=False).encode()
        attachments.append(
            Attachment(
                string=data,
                name=ATTACHMENT_NAME,
                description="The report's figures, machine-readable (JSON)",
                relationship="Data",
            )
        )
    return HTML(string=html, base_url=static_base_url(), url_fetcher=StaticFilesOnly()).write_pdf(
        pdf_variant=PDF_VARIANT,
        attachments=attachments,
        pdf_identifier=b"beano-occasions",
        finisher=_declare_conformance,
    )


def render_pdf(document: Document, *, authority_copy: bool = False) -> bytes:
    return html_to_pdf(render_html(document, authority_copy=authority_copy), payload(document))


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
