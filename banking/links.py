"""What banking adds to the pages below it (``beano.links``): the gaming account's tab of an
organization's pages, and the drawer's page from the close-out's counts and cash."""

from __future__ import annotations

from beano.links import Link, occasion_page, org_page

LINKS = (
    Link("organization_tabs", "bank", "Gaming account", org_page("bank_account"), 40),
    Link(
        "closeout_cash",
        "drawer",
        "The drawer counted by denomination",
        occasion_page("report_drawer"),
    ),
)
