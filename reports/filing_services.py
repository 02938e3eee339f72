"""Filing an occasion's financial report, and its amendments: filing seals the occasion; a
correction is an amendment with a reason that keeps the version before. The PDF is enqueued on
commit."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from beano import locking, rules
from beano.actors import Actor
from beano.rules.banking import DrawerFilingFacts
from beano.rules.reporting import FILE_REPORT, FilingFacts
from beano.text import text
from equipment import paper_selectors
from occasions.models import Occasion
from occasions.services import enforce_at, lock_occasion
from organizations.audit import acting_user, record_event
from organizations.models import AuditChain, Organization
from reports import amendment_state, extensions, obligations
from reports.closeout_services import cash_verified
from reports.figures import compute_figures, differences, digest, late_filing, to_json
from reports.kept import keep_occasion
from reports.models import AnnualReport, CloseOut, FinancialReport, RenderStatus


def chain_head(organization: Organization) -> tuple[int, str]:
    chain = AuditChain.objects.filter(organization=organization).first()
    return (chain.length, chain.head_hash) if chain else (0, "")


def enqueue(document: Any) -> None:
    from reports.tasks import enqueue_render

    transaction.on_commit(lambda: enqueue_render(document))


def drawer_facts(closeout: CloseOut | None) -> DrawerFilingFacts:
    """The drawer counted by denomination, if it was, against the close-out's cash counted."""
    total = extensions.cash().drawer_total(closeout) if closeout else None
    return DrawerFilingFacts(
        drawer_counted=total is not None,
        drawer_total=total,
        cash_counted=closeout.cash_counted if closeout else None,
    )


def filing_facts(
    figures: dict[str, Any],
    closeout: CloseOut | None,
    reason: str,
    amendment: bool,
    occasion: Occasion,
) -> FilingFacts:
    played = occasion.status != Occasion.Status.NOT_PLAYED
    return FilingFacts(
        status=occasion.status,
        played=played,
        missing_counts=tuple(c["label"].lower() for c in figures["counts"] if c["counted"] is None),
        cash_counted=figures["cash"]["counted"] is not None
        and (not closeout or closeout.cash_counted is None or cash_verified(closeout)),
        variance_above_threshold=bool(figures["variance"]["above_threshold"]),
        explanation_given=bool(closeout and closeout.explanation.strip()),
        amendment=amendment,
        reason=reason,
    )


def _end_amendment(closeout: CloseOut) -> None:
    """The amendment just filed is no longer open: the close-out is sealed again."""
    closeout.amendment_reason = ""
    closeout.amendment_opened_at = None
    closeout.amendment_opened_by = None
    closeout.save(
        update_fields=[
            "amendment_reason",
            "amendment_opened_at",
            "amendment_opened_by",
            "updated_at",
        ]
    )


@rules.atomic()
def file_report(*, occasion: Occasion, by: Actor) -> FinancialReport:
    """File the occasion's financial report, or the amendment that is open. Filing seals the
    occasion. Filing twice (two bookkeepers, a double click) yields one filing."""
    occasion = lock_occasion(occasion, related=("organization", "license"), sealed_ok=True)
    closeout = locking.lock(CloseOut.objects).filter(occasion=occasion).first()
    latest = FinancialReport.objects.filter(occasion=occasion).order_by("-version").first()
    amendment = latest is not None
    if amendment and not (closeout and closeout.amendment_open):
        return latest  # already filed: the same filing, not a second one
    reason = closeout.amendment_reason if amendment and closeout else ""
    now = timezone.now()
    due = latest.due_on if latest else obligations.due_on(occasion.date)
    # An amendment corrects figures; the tax was due, and late or not, when first filed.
    filed_on = timezone.localtime(latest.filed_at if latest else now).date()
    figures = compute_figures(occasion, filed_on=filed_on, due_on=due)
    played = occasion.status != Occasion.Status.NOT_PLAYED
    paper = paper_selectors.occasion_paper(occasion, paper_selectors.door_counts(figures))
    enforce_at(
        FILE_REPORT,
        [
            filing_facts(figures, closeout, reason, amendment, occasion),
            paper.facts(played=played),
            drawer_facts(closeout),
        ],
        occasion,
        by,
    )
    figures_json = to_json(figures)
    version = (latest.version + 1) if latest else 1
    late = late_filing(due, filed_on, occasion.date)
    report = FinancialReport(
        organization=occasion.organization,
        occasion=occasion,
        version=version,
        reason=reason,
        changes=differences(latest.figures, figures_json) if latest else [],
        figures=figures_json,
        figures_sha256=digest(figures_json),
        filed_at=now,
        filed_by=acting_user(by),
        due_on=due,
        days_late=late.days_late,
        chain_length=0,
        chain_head_hash="",
        render_status=RenderStatus.QUEUED,
    )
    report.save()
    if occasion.sealed_at is None:
        occasion.sealed_at = now
        occasion.save(update_fields=["sealed_at"])
    if closeout and closeout.amendment_open:
        _end_amendment(closeout)
    record_event(
        organization=occasion.organization,
        actor=by,
        action="reports.report.filed" if version == 1 else "reports.report.amended",
        target=report,
        new={
            "version": version,
            "reason": reason,
            "figures_sha256": report.figures_sha256,
            "gross_receipts": figures_json["receipts"]["gross_receipts"],
            "tax": figures_json["tax"]["total_due"],
            "net_proceeds": figures_json["net"]["net_proceeds"],
            "changes": len(report.changes),
        },
    )
    # The head printed on the report is the chain through this filing's own event.
    report.chain_length, report.chain_head_hash = chain_head(occasion.organization)
    report.save(update_fields=["chain_length", "chain_head_hash"])
    keep_occasion(occasion)  # the net proceeds of this version, kept with the filing
    enqueue(report)
    return report


@rules.atomic()
def open_amendment(*, occasion: Occasion, reason: str, by: Actor) -> CloseOut:
    """Open a correction of a filed report: the close-out can change until the amendment is
    filed; the night's records stay sealed."""
    occasion = lock_occasion(occasion, sealed_ok=True)
    if occasion.sealed_at is None:
        raise ValidationError("This report is not filed yet: correct the close-out and file it.")
    closeout, _ = CloseOut.objects.get_or_create(occasion=occasion)
    closeout = locking.lock(CloseOut.objects).get(pk=closeout.pk)
    if closeout.amendment_open:
        raise ValidationError("An amendment is already open: file it or take it back first.")
    reason = text(reason, "reason", limit=2000)
    if len(reason) < 10:
        raise ValidationError({"reason": "Say why the filed report is corrected (a sentence)."})
    state = amendment_state.filed_state(occasion, closeout)
    closeout.amendment_reason = reason
    closeout.amendment_opened_at = timezone.now()
    closeout.amendment_opened_by = acting_user(by)
    closeout.save()
    record_event(
        organization=occasion.organization,
        actor=by,
        action=amendment_state.OPENED,
        target=closeout,
        new={"reason": reason, amendment_state.STATE_KEY: state},
    )
    return closeout


@rules.atomic()
def withdraw_amendment(*, occasion: Occasion, by: Actor) -> None:
    """Take back an open amendment that will not be filed: the close-out is put back exactly as
    filed (its counts, cash, opening bank and explanation, the drawer counted by denomination,
    the expenses added or removed, the cards taken from stock), each change undone an audit
    event, so the page, the next amendment and the filed version agree again. What was changed
    meanwhile stays in the trail."""
    occasion = lock_occasion(occasion, sealed_ok=True)
    closeout = locking.lock(CloseOut.objects).filter(occasion=occasion).first()
    if closeout is None or not closeout.amendment_open:
        raise ValidationError("No amendment is open.")
    undone = amendment_state.restore_filed_state(occasion, closeout, by)
    old = {"reason": closeout.amendment_reason}
    closeout.amendment_reason = ""
    closeout.amendment_opened_at = None
    closeout.amendment_opened_by = None
    closeout.save()
    record_event(
        organization=occasion.organization,
        actor=by,
        action="reports.amendment.withdrawn",
        target=closeout,
        old=old,
        new={"undone": undone},
    )
    keep_occasion(occasion)


@rules.atomic()
def rerender(*, document: FinancialReport | AnnualReport, by: Actor) -> None:
    """Queue the PDF of a filed version again (after a failure, or a broker that was down).
    The figures do not change; the task makes the same file."""
    model = type(document)
    document = locking.lock(model.objects).get(pk=document.pk)
    if document.render_status == RenderStatus.READY and document.pdf:
        return
    document.render_status = RenderStatus.QUEUED
    document.render_error = ""
    document.render_task_id = ""  # the earlier task's id; the new one is set once sent
    document.save(update_fields=["render_status", "render_error", "render_task_id"])
    enqueue(document)
