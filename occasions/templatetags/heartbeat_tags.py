"""The heartbeat of a night's pages (the console, the door) for those who run the night."""

from __future__ import annotations

from typing import Any

from django import template

from occasions.models import Occasion
from occasions.views import RUNS_THE_NIGHT

register = template.Library()


@register.inclusion_tag("occasions/_heartbeat.html", takes_context=True)
def night_heartbeat(context: Any, occasion: Occasion) -> dict[str, Any]:
    """The marker ``static/js/idle.js`` beats on, for the head or a member in charge while the
    occasion is open; the heartbeat's view checks both again."""
    access = context.get("access")
    runs = access is not None and access.has_role(*RUNS_THE_NIGHT)
    return {"occasion": occasion, "beat": runs and occasion.status == Occasion.Status.OPEN}
