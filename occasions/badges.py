"""An occasion's status as a badge, on every page that shows it (through the ``status_badge``
tag) and in the rows the inspector's dashboard draws in Python."""

from __future__ import annotations

from django.utils.html import format_html
from django.utils.safestring import SafeString

#: The badge's colour by status; any other status (scheduled) is drawn as information.
STATUS_CLASSES = {
    "open": "text-bg-success",
    "closed": "text-bg-dark",
    "not_played": "text-bg-secondary",
}


def status_badge(status: str, label: str) -> SafeString:
    return format_html(
        '<span class="badge fs-6 {}">{}</span>', STATUS_CLASSES.get(status, "text-bg-info"), label
    )
