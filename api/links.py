"""What the token pages add to the pages below them (``beano.links``): a head's tab among the
organization's, and a Commission admin's way to the Commission's tokens."""

from __future__ import annotations

from beano.links import Link, org_page, page

LINKS = (
    # Shown to whom the matrix lets read the page: heads, and the Commission's inspectors.
    Link("organization_tabs", "api_tokens", "API tokens", org_page("api_tokens"), 115),
    Link("commission_admin", "api_tokens", "API tokens", page("commission_api_tokens"), 60),
    Link(
        "licensing_actions",
        "api_tokens",
        "The Commission's API tokens",
        page("commission_api_tokens"),
    ),
)
