"""The summaries shown before the bookkeeper's final acts (``occasions.confirm``): filing the
report or its amendment (what is filed, its totals, the due date, what becomes read-only, how
it is amended, and what the rules would refuse now), and withdrawing an open amendment (what
goes back as filed). Nothing is saved here; the rules judge the filing when it is confirmed."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from beano import rules
from beano.rules.money import usd
from beano.rules.reporting import FILE_REPORT
from equipment import paper_selectors
from equipment.models import CardUsage
from occasions.confirm import Confirmation
from occasions.models import Occasion
from organizations.selectors import authorization_facts
from reports import amendment_state, obligations
from reports.figures import compute_figures, differences, late_filing, to_json
from reports.filing_services import drawer_facts, filing_facts
from reports.models import CloseOut, Expense, FinancialReport


def _url(name: str, occasion: Occasion) -> str:
    return reverse(name, kwargs={"org_id": occasion.organization_id, "pk": occasion.pk})


def _day(day: dt.date) -> str:
    return f"{day:%A, %B %-d, %Y}"


def _totals(f: dict[str, Any]) -> str:
    tax = f["tax"]
    interest = f" (with {usd(tax['interest'])} interest)" if tax.get("interest") else ""
    return (
        f"gross receipts {usd(f['receipts']['gross_receipts'])}, Beano tax "
        f"{usd(tax['total_due'])}{interest}, prizes {usd(f['prizes']['expensed'])}, expenses "
        f"{usd(f['expenses']['total'])}, net proceeds {usd(f['net']['net_proceeds'])}"
    )


def _refused(
    occasion: Occasion, figures: dict[str, Any], closeout: CloseOut | None, amendment: bool
) -> tuple[str, ...]:
    """What the rules would refuse if the filing were confirmed now (judged, never logged)."""
    played = occasion.status != Occasion.Status.NOT_PLAYED
    paper = paper_selectors.occasion_paper(occasion, paper_selectors.door_counts(figures))
    reason = closeout.amendment_reason if amendment and closeout else ""
    decision = rules.judge(
        FILE_REPORT,
        [
            filing_facts(figures, closeout, reason, amendment, occasion),
            paper.facts(played=played),
            drawer_facts(closeout),
        ],
        on=occasion.date,
        authorizations=authorization_facts(occasion.organization),
    )
    return decision.messages


def _unfinished(occasion: Occasion, figures: dict[str, Any]) -> list[str]:
    lines = []
    if not figures["expenses"]["lines"]:
        lines.append("No expense is entered for this occasion (rent, supplies, a police detail…).")
    attendance = figures.get("attendance") or {}
    if occasion.status != Occasion.Status.NOT_PLAYED and attendance.get("difference"):
        lines.append(
            f"The attendance announced ({attendance['announced']}) and the admissions sold "
            f"({attendance['admissions_sold']}) differ by {attendance['difference']}."
        )
    return lines


def file_summary(occasion: Occasion) -> Confirmation:
    """Before filing the report (version 1) or the amendment that is open."""
    closeout = CloseOut.objects.filter(occasion=occasion).first()
    latest = FinancialReport.objects.filter(occasion=occasion).order_by("-version").first()
    amendment = latest is not None
    due = latest.due_on if latest else obligations.due_on(occasion.date)
    filed_on = timezone.localtime(latest.filed_at if latest else timezone.now()).date()
    figures = compute_figures(occasion, filed_on=filed_on, due_on=due)
    night = _day(occasion.date)
    if amendment:
        version = latest.version + 1
        changed = len(differences(latest.figures, to_json(figures)))
        reason = closeout.amendment_reason if closeout else ""
        does = [
            f"File amendment {version - 1} of the report of {night} as version {version}, for "
            f"the reason “{reason}”: {_totals(figures)}. {changed} of its figures "
            f"{'differs' if changed == 1 else 'differ'} from version {latest.version}; the "
            "Versions page lists each once it is filed.",
            f"The report was due {due:%B %-d, %Y} and first filed {filed_on:%B %-d, %Y}: the "
            "amendment keeps that filing date for the tax and any interest.",
            "Close the amendment: the close-out is read-only again.",
        ]
        title, button = f"File amendment {version - 1}?", f"Yes, file amendment {version - 1}"
    else:
        late = late_filing(due, filed_on, occasion.date)
        interest = figures["tax"]["interest"]
        when = (
            f"filed today, {late.days_late} day{'s' if late.days_late != 1 else ''} late"
            + (f", with {usd(interest)} interest on the tax" if interest else "")
            if late.days_late
            else "filed today, it is on time"
        )
        does = [
            f"File the financial report of {night} as version 1, these figures frozen: "
            f"{_totals(figures)}.",
            f"It is due {due:%B %-d, %Y}: {when}.",
            "Seal the occasion: its games, sales, claims, payouts and this close-out can no "
            "longer be changed.",
        ]
        title, button = "File the report?", "Yes, file the report"
    does.append("The PDF is made afterwards; it appears on the Versions page.")
    if occasion.license.practice:
        does.append(
            "A practice occasion owes no report: this tries the whole path and no figure counts it."
        )
    return Confirmation(
        title=title,
        button=button,
        action=_url("report_file", occasion),
        back=_url("report_closeout", occasion),
        does=tuple(does),
        unfinished=tuple(_unfinished(occasion, figures)),
        refused=_refused(occasion, figures, closeout, amendment),
        corrections=(
            "A filed report is never edited: a mistake is corrected by an amendment opened on "
            "this page with its reason and filed as a new version. Every version is kept and "
            "the Commission sees each.",
        ),
    )


# Withdrawing an amendment


def _money(value: Any) -> str:
    return usd(Decimal(value)) if value is not None else "blank"


def _closeout_back(closeout: CloseOut, state: dict[str, Any], labels: dict[str, str]) -> list[str]:
    """The close-out's figures changed in the amendment, each going back to the one filed."""
    now, filed = amendment_state.closeout_values(closeout), state["closeout"]
    lines = [
        f"{label} goes back from {_money(now[name])} to {_money(filed.get(name))}."
        for name, label in (
            ("opening_bank", "The opening bank"),
            ("cash_counted", "The cash counted"),
        )
        if now[name] != filed.get(name)
    ]
    if now["explanation"] != filed.get("explanation"):
        lines.append("The explanation goes back to the one filed.")
    people = ("cash_counted_by", "cash_verified_by", "cash_verified_by_worker", "cash_verified_at")
    if any(now[p] != filed.get(p) for p in people):
        lines.append("Who counted and verified the cash goes back as filed.")
    counts = {c.category: c.counted for c in closeout.counts.all()}
    for category, was in state["counts"].items():
        if counts.get(category) != was:
            lines.append(
                f"The {labels.get(category, category)} counted go back from "
                f"{counts.get(category, 'blank')} to {was}."
            )
    return lines


def _expenses_back(occasion: Occasion, state: dict[str, Any]) -> list[str]:
    filed = {row["id"]: row for row in state["expenses"]}
    lines = []
    present = set()
    for e in Expense.objects.filter(occasion=occasion).select_related("kind"):
        present.add(e.pk)
        if e.pk not in filed:
            lines.append(
                f"The expense added in the amendment, {e.kind.name} to {e.payee} "
                f"{usd(e.amount)}, is taken away."
            )
    for pk, row in filed.items():
        if pk not in present:
            lines.append(
                f"The expense to {row.get('payee', '')} of {_money(row.get('amount'))}, taken "
                "back in the amendment, is put back."
            )
    return lines


def withdraw_summary(occasion: Occasion) -> Confirmation:
    """Before withdrawing the open amendment: what goes back as filed."""
    closeout = CloseOut.objects.filter(occasion=occasion).prefetch_related("counts").first()
    latest = FinancialReport.objects.filter(occasion=occasion).order_by("-version").first()
    refused: tuple[str, ...] = ()
    back: list[str] = []
    if closeout is None or not closeout.amendment_open or latest is None:
        refused = ("No amendment is open.",)
    else:
        try:
            state = amendment_state.state_at_opening(closeout)
        except ValidationError as error:
            refused = tuple(error.messages)
        else:
            labels = {c["category"]: c["label"].lower() for c in latest.figures.get("counts", [])}
            back = _closeout_back(closeout, state, labels) + _expenses_back(occasion, state)
            usages = CardUsage.objects.filter(occasion=occasion).exclude(pk__in=state["stock"])
            back += [
                f"The cards taken from stock in the amendment ({u}) go back to the inventory."
                for u in usages
            ]
    opened = (
        date_format(timezone.localtime(closeout.amendment_opened_at), "M j, g:i A")
        if closeout is not None and closeout.amendment_opened_at
        else ""
    )
    reason = closeout.amendment_reason if closeout is not None else ""
    does = [f"Withdraw the amendment opened {opened} (“{reason}”): it is not filed."]
    if not refused:
        does += back or ["Nothing was changed in it: the close-out is already as filed."]
        does.append(
            f"Version {latest.version}, filed {timezone.localtime(latest.filed_at):%B %-d, %Y}, "
            "stays the report on record; the close-out is read-only again."
        )
    return Confirmation(
        title="Withdraw the amendment?",
        button="Yes, withdraw the amendment",
        action=_url("report_withdraw_amendment", occasion),
        back=_url("report_closeout", occasion),
        does=tuple(does),
        refused=refused,
        corrections=(
            "A withdrawn amendment is not kept as a version; each change it made and undid stays "
            "in the record's history. To correct the report after all, open a new amendment.",
        ),
    )
