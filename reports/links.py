"""What the reports add to the pages below them (``beano.links``): their tabs, the paper path
under the floor bar of a night's pages, the control sheets and the close after the fact."""

from __future__ import annotations

from typing import Any

from beano.links import Include, Link, occasion_page, org_page


def _before_close(context: Any) -> bool:
    return context["occasion"].status in ("scheduled", "open")


def _may_close_late(context: Any) -> bool:
    return bool(context.get("can_close_late"))


LINKS = (
    Link("organization_tabs", "reports", "Reports", org_page("reports_home"), 30),
    Link("organization_tabs", "bank", "Gaming account", org_page("bank_account"), 40),
    Link("card_inventory_actions", "paper", "Paper by serial", org_page("paper_stock")),
    Link(
        "occasion_actions",
        "control_sheets",
        "Print the night's control sheets",
        occasion_page("control_sheets", _before_close),
        order=10,
        new_tab=True,
    ),
    Link(
        "late_close",
        "close_late",
        "Close after the fact",
        occasion_page("occasion_close_late", _may_close_late),
    ),
)
INCLUDES = (Include("floor_notes", "reports/paper/_floor_notes.html"),)
