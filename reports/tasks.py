"""The report PDFs, made by the Celery worker, and the nightly record of the reports owed.
Tasks take ids and reload; rendering a version twice leaves one current file (same name, same
figures); only transient errors are retried."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from celery.signals import worker_ready
from django.core.files.base import ContentFile
from django.db import DatabaseError, InterfaceError, OperationalError, transaction
from django.db.models import Q
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from beano import locking
from organizations.models import Organization
from reports import pdf, reminder_services, services
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


#: Sending a render: one quick retry (it reopens a pooled connection the broker dropped); the
#: broker's connect and socket timeouts (beano/broker.py) bound each try, so filing a report
#: waits a few seconds at most when the broker is down or hung, and then says it is queued.
SEND_RETRY = {"max_retries": 1, "interval_start": 0.2, "interval_step": 0.5, "interval_max": 0.5}
NOT_SENT = "Waiting for the task queue; it will be sent again."


def enqueue_render(document: Any) -> bool:
    """Send the render task; if the broker cannot be reached the version stays queued with no
    task id, and is sent again by beat's ``reports.resend_unsent`` (every minute) or by
    ``requeue_reports``. The pages that poll its progress only read it."""
    model = type(document)
    try:
        result = render_document.apply_async(
            args=[kind_of(document), document.pk], retry=True, retry_policy=SEND_RETRY
        )
    except (BrokerError, OSError) as error:
        log.warning("report %s %s not queued: %s", kind_of(document), document.pk, error)
        # No task id: an earlier try's id (a version queued again) would hide it from resending.
        model.objects.filter(pk=document.pk, render_status=RenderStatus.QUEUED).update(
            render_task_id="", render_error=NOT_SENT
        )
        return False
    model.objects.filter(pk=document.pk).update(render_task_id=result.id, render_error="")
    return True


def unfinished(*, rendering: bool = False, stuck: bool = False) -> list[Any]:
    """Filed versions whose PDF is still to be made: queued with no task id (the broker could
    not be reached); with ``rendering`` also those being made (their worker may be gone); with
    ``stuck`` every version queued or being made, task id or not."""
    statuses = [RenderStatus.QUEUED]
    if rendering or stuck:
        statuses.append(RenderStatus.RENDERING)
    documents: list[Any] = []
    for model in MODELS.values():
        rows = model.objects.filter(render_status__in=statuses)
        if not stuck:
            rows = rows.filter(Q(render_task_id="") | Q(render_status=RenderStatus.RENDERING))
        documents.extend(rows.order_by("pk"))
    return documents


def resend(*, rendering: bool = False, stuck: bool = False) -> tuple[int, int]:
    """Send the render of every ``unfinished`` version again: (sent, not sent). Harmless when
    one is in fact on its way: the task makes a version's PDF once, and returns at once after."""
    sent = failed = 0
    for document in unfinished(rendering=rendering, stuck=stuck):
        if document.render_status == RenderStatus.RENDERING:
            type(document).objects.filter(
                pk=document.pk, render_status=RenderStatus.RENDERING
            ).update(render_status=RenderStatus.QUEUED)
            document.render_status = RenderStatus.QUEUED
        if enqueue_render(document):
            sent += 1
        else:
            failed += 1
    return sent, failed


@worker_ready.connect
def _resend_lost_on_the_file_system(sender: Any = None, **kwargs: Any) -> None:
    """kombu's file-system transport (the embedded default) takes a message off its folder when
    a worker fetches it, and a worker killed before acknowledging it loses it for good (Redis
    gives it back after the visibility timeout). So when a worker starts on that transport, the
    versions left being made, and any never sent, are sent again. Versions queued under a task
    id are left alone: their message is still in the folder."""
    app = getattr(sender, "app", None)
    if app is None or not str(app.conf.broker_url).startswith("filesystem://"):
        return
    sent, failed = resend(rendering=True)
    if sent or failed:
        log.warning("reports unmade at worker start: %s sent again, %s not sent", sent, failed)


def _progress(task: Any, model: type, pk: int, percent: int, step: str) -> None:
    model.objects.filter(pk=pk).exclude(render_status=RenderStatus.READY).update(
        render_progress=percent
    )
    if task is not None and getattr(task.request, "id", None):
        task.update_state(state="PROGRESS", meta={"percent": percent, "step": step})


def _made(document: Any, name: str) -> bool:
    return (
        document.render_status == RenderStatus.READY
        and document.pdf.name == name
        and document.pdf.storage.exists(name)
    )


def render(kind: str, pk: int, task: Any = None) -> str:
    """Make the PDF of one filed version. Returns the status.

    Idempotent, also when two runs of it overlap (a message handed out again while its first
    worker was still at it, or sent twice): the PDF is made outside any transaction, then
    published with the version's row locked: the first to publish writes the file and marks it
    ready, a later one finds it made and leaves it. One file per version, whatever the runs."""
    model = MODELS[kind]
    document = model.objects.select_related("filed_by").get(pk=pk)
    name = file_name(document)
    if _made(document, name):
        return RenderStatus.READY
    model.objects.filter(pk=pk).exclude(render_status=RenderStatus.READY).update(
        render_status=RenderStatus.RENDERING, render_error=""
    )
    _progress(task, model, pk, 10, "figures")
    data = pdf.render_pdf(document)
    _progress(task, model, pk, 70, "pdf")
    authority = None
    if kind == "annual":
        authority = pdf.render_pdf(document, authority_copy=True)
    _progress(task, model, pk, 90, "saving")
    storage = document.pdf.storage
    with transaction.atomic():
        current = locking.lock(model.objects).get(pk=pk)
        if _made(current, name):
            return RenderStatus.READY
        # A file left under this name by a run killed before it could record it is replaced.
        for target in (name, file_name(document, "-authority")) if authority else (name,):
            if storage.exists(target):
                storage.delete(target)
        fields: dict[str, Any] = {
            "pdf": storage.save(name, ContentFile(data)),
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
        model.objects.filter(pk=pk).exclude(render_status=RenderStatus.READY).update(
            render_status=RenderStatus.FAILED, render_error=f"{type(error).__name__}: {error}"[:500]
        )
        return {"kind": kind, "id": pk, "status": RenderStatus.FAILED}
    return {"kind": kind, "id": pk, "status": status}


@shared_task(
    name="reports.resend_unsent", autoretry_for=TRANSIENT, max_retries=3, ignore_result=True
)
def resend_unsent() -> dict[str, int]:
    """Send again every version queued while the broker could not be reached (sent each minute
    by beat, one process for the whole installation, so however many web servers poll a
    version's progress, it is sent from one place). Harmless when the broker is still down: the
    versions stay queued with no task id for the next run. No result row: it runs every minute."""
    sent, failed = resend()
    if sent or failed:
        log.warning("reports queued unsent: %s sent again, %s not sent", sent, failed)
    return {"sent": sent, "not_sent": failed}


@shared_task(name="reports.record_obligations", autoretry_for=TRANSIENT, max_retries=3)
def record_obligations() -> int:
    """Record every organization's report obligations up to today (sent each night by beat).
    The pages read the days not recorded yet as owed too, so they are right between runs; the
    record keeps what was owed when a license later changes. Idempotent."""
    return services.ensure_obligations(Organization.objects.all(), timezone.localdate())


@shared_task(name="reports.send_reminders", autoretry_for=TRANSIENT, max_retries=3)
def send_reminders() -> int:
    """E-mail the day's reminders to each organization's head and bookkeeper (sent each morning
    by beat). Each event is reminded once per person, however often this runs."""
    return reminder_services.send_reminders()
