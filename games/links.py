"""What the games add to the pages below them (``beano.links``)."""

from __future__ import annotations

from beano.links import Link, occasion_page, org_page

LINKS = (
    Link("organization_tabs", "jackpots", "Jackpots", org_page("jackpot_list"), 50),
    Link("open_occasion_actions", "console", "Caller's console", occasion_page("draw_home"), 10),
    Link("open_occasion_actions", "program", "Program", occasion_page("game_program"), 20),
)
