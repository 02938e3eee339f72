"""The report PDFs, made by the Celery worker. Tasks take ids and reload; rendering a version
twice leaves one current file (same name, same figures); only transient errors are retried."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.core.files.base import ContentFile
from django.db import DatabaseError, InterfaceError, OperationalError, transaction
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from reports import pdf
from reports.models import AnnualReport, FinancialReport, RenderStatus

log = logging.getLogger(__name__)

MODELS = {"financial": FinancialReport, "annual": AnnualReport}
TRANSIENT = (OperationalError, InterfaceError, ConnectionError, TimeoutError)


def kind_of(document: Any) -> str:
    return "financial" if isinstance(document, FinancialReport) else "annual"


def file_name(document: Any, suffix: str = "") -> str:
    org = document.organization_id
    if isinstance(document, FinancialReport):
        stem = f"occasion-{document.occasion_id}-v{document.version}"
    else:
        stem = f"annual-{document.year}-v{document.version}"
    return f"reports/org-{org}/{stem}{suffix}-{document.figures_sha256[:12]}.pdf"


def enqueue_render(document: Any) -> bool:
    """Send the render task; if the broker cannot be reached the version stays queued with no
    task id, and is sent again by the next look at its progress or by ``requeue_reports``."""
    try:
        result = render_document.apply_async(
            args=[kind_of(document), document.pk], retry=True, retry_policy={"max_retries": 2}
        )
    except (BrokerError, OSError) as error:
        log.warning("report %s %s not queued: %s", kind_of(document), document.pk, error)
        type(document).objects.filter(pk=document.pk, render_task_id="").update(
            render_error="Waiting for the task queue; it will be sent again."
        )
        return False
    type(document).objects.filter(pk=document.pk).update(render_task_id=result.id, render_error="")
    return True


def _progress(task: Any, model: type, pk: int, percent: int, step: str) -> None:
    model.objects.filter(pk=pk).update(render_progress=percent)
    if task is not None and getattr(task.request, "id", None):
        task.update_state(state="PROGRESS", meta={"percent": percent, "step": step})


def render(kind: str, pk: int, task: Any = None) -> str:
    """Make the PDF of one filed version. Returns the status."""
    model = MODELS[kind]
    document = model.objects.select_related("filed_by").get(pk=pk)
    name = file_name(document)
    ready = document.render_status == RenderStatus.READY and document.pdf.name == name
    if ready and document.pdf.storage.exists(name):
        return RenderStatus.READY
    model.objects.filter(pk=pk).update(render_status=RenderStatus.RENDERING, render_error="")
    _progress(task, model, pk, 10, "figures")
    data = pdf.render_pdf(document)
    _progress(task, model, pk, 70, "pdf")
    authority = None
    if kind == "annual":
        authority = pdf.render_pdf(document, authority_copy=True)
    _progress(task, model, pk, 90, "saving")
    storage = document.pdf.storage
    for target in (name, file_name(document, "-authority")) if authority else (name,):
        if storage.exists(target):
            storage.delete(target)
    saved = storage.save(name, ContentFile(data))
    fields: dict[str, Any] = {
        "pdf": saved,
        "pdf_sha256": pdf.sha256(data),
        "render_status": RenderStatus.READY,
        "render_progress": 100,
        "rendered_at": timezone.now(),
        "render_error": "",
    }
    if authority is not None:
        fields["authority_pdf"] = storage.save(
            file_name(document, "-authority"), ContentFile(authority)
        )
    with transaction.atomic():
        model.objects.filter(pk=pk).update(**fields)
    return RenderStatus.READY


@shared_task(
    bind=True,
    name="reports.render_document",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=TRANSIENT,
    retry_backoff=2,
    retry_backoff_max=60,
    max_retries=6,
)
def render_document(self: Any, kind: str, pk: int) -> dict[str, Any]:
    model = MODELS[kind]
    try:
        status = render(kind, pk, task=self)
    except TRANSIENT:
        raise
    except model.DoesNotExist:
        return {"kind": kind, "id": pk, "status": "missing"}
    except DatabaseError:
        raise
    except Exception as error:  # a fault in the document itself: retrying will not help
        log.exception("report %s %s failed", kind, pk)
        model.objects.filter(pk=pk).update(
            render_status=RenderStatus.FAILED, render_error=f"{type(error).__name__}: {error}"[:500]
        )
        return {"kind": kind, "id": pk, "status": RenderStatus.FAILED}
    return {"kind": kind, "id": pk, "status": status}
