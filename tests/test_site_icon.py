"""The site's icon, served at the root where browsers look for it."""

from __future__ import annotations


def test_the_site_icon_is_served_at_the_root_where_browsers_ask_for_it(client) -> None:
    """Every page's first visit asked for /favicon.ico and got a 404 in the log."""
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200
    assert b"".join(icon.streaming_content)[:4] == b"\x00\x00\x01\x00"  # an ICO file
    assert client.get("/apple-touch-icon.png").status_code == 200
