"""Amendments of a filed report: the old version kept and the changes listed, a withdrawn
amendment putting back every figure of the filed version, a reason required."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError

from beano import rules
from equipment import paper_services
from organizations.models import (
    AuditEvent,
)
from reports import services
from reports.models import CloseOut, Expense, FinancialReport
from tests.conftest import PASSWORD
from tests.reports.conftest import COUNTS, at
from tests.reports.test_services import D, kind

# --- Amendments --------------------------------------------------------------------------------


def test_an_amendment_keeps_the_old_version_and_says_what_changed(filed_report, tenant):
    occasion = filed_report.occasion
    with pytest.raises(ValidationError):
        services.open_amendment(occasion=occasion, reason="typo", by=tenant.bookkeeper)
    services.open_amendment(
        occasion=occasion,
        reason="The hall rent invoice arrived after filing.",
        by=tenant.bookkeeper,
    )
    services.record_expense(
        occasion=occasion,
        kind=kind("hall_rent"),
        payee="Knights Hall Corp.",
        amount=D("100.00"),
        by=tenant.bookkeeper,
    )
    amendment = services.file_report(occasion=occasion, by=tenant.bookkeeper)
    assert amendment.version == 2
    assert amendment.reason == "The hall rent invoice arrived after filing."
    changed = {c["path"]: (c["old"], c["new"]) for c in amendment.changes}
    assert changed["net.net_proceeds"] == ("118.20", "18.20")
    assert changed["expenses.total"] == ("200.00", "300.00")
    old = FinancialReport.objects.get(pk=filed_report.pk)
    assert old.figures["net"]["net_proceeds"] == "118.20"  # kept as filed
    assert AuditEvent.objects.filter(action="reports.report.amended").count() == 1
    # Once filed, the close-out is sealed again.
    with pytest.raises(ValidationError, match="open an amendment"):
        services.record_expense(
            occasion=occasion,
            kind=kind("other"),
            payee="X",
            amount=D("1.00"),
            by=tenant.bookkeeper,
        )


def test_a_withdrawn_amendment_leaves_the_filed_version(filed_report, tenant):
    occasion = filed_report.occasion
    services.open_amendment(occasion=occasion, reason="Checking the count again.", by=tenant.head)
    services.withdraw_amendment(occasion=occasion, by=tenant.head)
    assert services.file_report(occasion=occasion, by=tenant.head).pk == filed_report.pk


def _filed_figures_now(report: FinancialReport) -> dict:
    """The figures computed now, as they were computed when ``report`` was filed: its due date
    and the days it was late decide the interest."""
    from reports.figures import compute_figures, to_json

    filed_on = report.due_on + dt.timedelta(days=report.days_late)
    return to_json(compute_figures(report.occasion, filed_on=filed_on, due_on=report.due_on))


def test_a_withdrawn_amendment_restores_every_figure_of_the_filed_version(
    counted, tenant, card_purchase
):
    """Issue 14 (5): an expense added in an amendment that was then withdrawn stayed in the
    close-out. Everything the amendment changed is undone: the expenses added and removed,
    the counts, the cash, the opening bank, the explanation and the cards taken from stock."""
    from beano.backup.trail import differences
    from equipment.models import CardUsage
    from organizations.audit import verify_chain

    rent = services.record_expense(
        occasion=counted,
        kind=kind("hall_rent"),
        payee="Knights Hall Corp.",
        amount=D("180.00"),
        by=tenant.bookkeeper,
        description="December",
        invoice_reference="INV-12",
    )
    services.record_stock_used(
        occasion=counted,
        purchase=card_purchase,
        quantity_used=90,
        quantity_voided=2,
        by=tenant.bookkeeper,
    )
    # Only admission paper came out of the inventory: the door's other counts disagree with it.
    paper_services.explain_paper(
        occasion=counted,
        explanation="The extra, bonus and special paper were sold from last season's box.",
        by=tenant.bookkeeper,
    )
    filed = services.file_report(occasion=counted, by=tenant.bookkeeper)
    rent_row = Expense.objects.filter(pk=rent.pk).values().get()
    cash_count = (
        CloseOut.objects.filter(occasion=counted)
        .values("cash_counted", "cash_counted_by", "cash_verified_by", "cash_verified_at")
        .get()
    )

    services.open_amendment(
        occasion=counted, reason="The supplies invoice arrived late.", by=tenant.bookkeeper
    )
    services.record_expense(
        occasion=counted,
        kind=kind("other"),
        payee="Supplies Co.",
        amount=D("6.10"),
        by=tenant.bookkeeper,
    )
    services.remove_expense(expense=rent, by=tenant.bookkeeper)
    services.save_closeout(
        occasion=counted,
        opening_bank=D("150.00"),
        cash_counted=D("500.00"),
        counts=COUNTS | {"admission": 97, "bonus": None},
        explanation="Three admissions missing from the stock.",
        cash_verified_by=tenant.head,
        cash_verifier_secret=PASSWORD,
        by=tenant.bookkeeper,
    )
    services.record_stock_used(
        occasion=counted,
        purchase=card_purchase,
        quantity_used=3,
        quantity_voided=0,
        by=tenant.bookkeeper,
    )
    assert _filed_figures_now(filed) != filed.figures

    services.withdraw_amendment(occasion=counted, by=tenant.bookkeeper)

    assert _filed_figures_now(filed) == filed.figures
    # The expense taken back during the amendment is the same row again, every field of it.
    assert Expense.objects.filter(pk=rent.pk).values().get() == rent_row
    assert CardUsage.objects.filter(purchase=card_purchase).count() == 1
    assert not CloseOut.objects.get(occasion=counted).amendment_open
    # The cash as filed, with the two who counted it (not the amendment's verifier).
    assert CloseOut.objects.filter(occasion=counted).values(*cash_count).get() == cash_count
    assert services.file_report(occasion=counted, by=tenant.bookkeeper).pk == filed.pk
    # Through audited writes: the chain holds and every record agrees with its last event.
    assert verify_chain(tenant.organization).ok
    # (The known night's sales and games are made by factories, without events: only what the
    # amendment wrote and undid is reconciled here.)
    touched = {"reports.closeout", "reports.closingcount", "reports.expense"}
    touched |= {"equipment.cardusage"}
    assert [d for d in differences(tenant.organization) if d.target_type in touched] == []


def test_an_amendment_opened_without_its_filed_state_is_not_withdrawn(filed_report, tenant):
    """One opened before the filed state was kept cannot be put back: it is refused, and the
    amendment stays open to be corrected and filed."""
    occasion = filed_report.occasion
    CloseOut.objects.filter(occasion=occasion).update(
        amendment_reason="Opened before the state was kept.", amendment_opened_at=at(23, 40)
    )
    with pytest.raises(ValidationError, match="file the amendment instead"):
        services.withdraw_amendment(occasion=occasion, by=tenant.bookkeeper)
    assert CloseOut.objects.get(occasion=occasion).amendment_open


def test_an_amendment_reason_rule_refuses_a_missing_reason(db):
    facts = rules.reporting.FilingFacts(
        status="closed",
        played=True,
        missing_counts=(),
        cash_counted=True,
        variance_above_threshold=False,
        explanation_given=False,
        amendment=True,
        reason=" ",
    )
    decision = rules.judge("report.file", facts, on=dt.date(2026, 12, 4))
    assert [v.code for v in decision.violations] == ["R-305-1A-AMENDMENT-REASON"]
    assert decision.violations[0].citation == "961 CMR 3.05(1)(a)"
