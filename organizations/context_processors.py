from typing import Any

from django.http import HttpRequest

from organizations.access import commission_staff, visible_organizations


def navigation(request: HttpRequest) -> dict[str, Any]:
    """The organizations in the navigation bar and whether the user is Commission staff."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    staff = commission_staff(user)
    return {
        "nav_staff": staff,
        "nav_organizations": visible_organizations(user).only("id", "name")[:30],
    }
