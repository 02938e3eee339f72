"""The reports' writes, by use case: close-out (``closeout_services``), filing and amendments
(``filing_services``), obligations (``obligations``) and the annual report
(``annual_services``). Named here too for the many callers that take them from one place."""

from reports.annual_services import (
    annual_due_on,
    file_annual_report,
    record_disbursement,
    void_disbursement,
)
from reports.closeout_services import (
    MAX_COUNT,
    CashVerifier,
    record_expense,
    record_stock_used,
    remove_expense,
    save_closeout,
)
from reports.filing_services import (
    chain_head,
    file_report,
    open_amendment,
    rerender,
    withdraw_amendment,
)
from reports.obligations import DEFAULT_DUE_DAYS, due_dates, due_on, ensure_obligations

__all__ = [
    "DEFAULT_DUE_DAYS",
    "MAX_COUNT",
    "CashVerifier",
    "annual_due_on",
    "chain_head",
    "due_dates",
    "due_on",
    "ensure_obligations",
    "file_annual_report",
    "file_report",
    "open_amendment",
    "record_disbursement",
    "record_expense",
    "record_stock_used",
    "remove_expense",
    "rerender",
    "save_closeout",
    "void_disbursement",
    "withdraw_amendment",
]
