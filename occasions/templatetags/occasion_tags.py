"""``{% status_badge status label %}``: an occasion's status as a badge (``occasions.badges``);
``request|hands_laptop``: whether the floor bar offers the hall laptop's hand-over."""

from __future__ import annotations

from django import template
from django.http import HttpRequest

from occasions.badges import status_badge
from occasions.laptop import HANDS_IT

register = template.Library()
register.simple_tag(status_badge)


@register.filter
def hands_laptop(request: HttpRequest) -> bool:
    """Whether this session's login hands the hall laptop over (``occasions.laptop.HANDS_IT``),
    as the page the floor bar's "Laptop" link opens demands: a worker's own session is not
    offered a link that answers 403. A session whose laptop was handed is its login's, who
    handed it (and the worker at the laptop hands it back)."""
    if getattr(request, "laptop_login", None) is not None:
        return True
    access = getattr(request, "access", None)
    return access is not None and access.has_role(*HANDS_IT)
