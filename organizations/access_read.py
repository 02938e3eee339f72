"""An organization's page reads its user with their roles there (``beano.accounts.backends``):
what was read is kept on the user, for ``access.resolve_access`` to take instead of a query of
its own. Kept on the user object of this request only, never across requests."""

from __future__ import annotations

from typing import Any

#: The attribute of the user that carries what was read with them.
ATTRIBUTE = "_access_read"


def organization_in_url(request: Any) -> int | None:
    """The organization the request's URL names (``org_id``), once it is resolved, or None."""
    match = getattr(request, "resolver_match", None) if request is not None else None
    value = match.kwargs.get("org_id") if match is not None else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def remember(user: Any, organization_id: int, organization: Any, roles: set[str]) -> None:
    """The user's roles in this organization (none: ``organization`` None), as read with them."""
    setattr(user, ATTRIBUTE, (organization_id, organization, frozenset(roles)))


def recalled(user: Any, organization_id: int) -> tuple[Any, frozenset[str]] | None:
    """The organization and the user's roles there, if they were read with the user for this
    organization; None if not read (then they are read as ever)."""
    kept = getattr(user, ATTRIBUTE, None)
    if kept is None or kept[0] != organization_id:
        return None
    return kept[1], kept[2]
