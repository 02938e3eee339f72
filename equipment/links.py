"""What the card stock adds to the pages below it (``beano.links``): its tab among the
organization's, and the way from the card inventory to the paper by serial."""

from __future__ import annotations

from beano.links import Link, org_page

LINKS = (
    Link("organization_tabs", "inventory", "Card inventory", org_page("card_inventory"), 100),
    Link("card_inventory_actions", "paper", "Paper by serial", org_page("paper_stock")),
)
