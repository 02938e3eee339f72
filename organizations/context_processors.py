from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from organizations.access import commission_staff, visible_organizations


def navigation(request: HttpRequest) -> dict[str, Any]:
    """The organizations in the navigation bar and whether the user is Commission staff: worked
    out only by a template that shows them (a whole page), not by the htmx answers of the
    night's writes, which render a part without the bar."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {
        "nav_staff": SimpleLazyObject(lambda: commission_staff(user)),
        "nav_organizations": SimpleLazyObject(
            lambda: visible_organizations(user).only("id", "name")[:30]
        ),
    }
