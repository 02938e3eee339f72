"""What the apps above organizations show on an organization's pages, without organizations
importing them (dependencies point one way: inspections → reports → games → occasions →
organizations). The app above registers a panel from its ``AppConfig.ready()``; the page's
view reads each panel's data and the template only shows it, so no template tag runs a query
behind the view.

Slots: ``home_side`` (beside the organization's details on its Overview page), ``home_bottom``
(under them); in the organization's card on a signed-in person's landing page,
``dashboard_top`` (first, for those who close a night: the head, the member in charge, the
bookkeeper), ``dashboard_floor`` (for those who run the night) and ``dashboard`` (for those who
file its reports).

``ON_LISTED``: what is written, in the same transaction, when a person is put on a worker list
(the winners kept as matched against the worker lists, ``reports.kept``).

``AT_THE_LAPTOP``: who is at the hall laptop, when the session's login has handed it to a worker
of the night (``occasions.laptop``): that user, with their roles read, or None.

``VOUCHED``: what an organization's audit chain vouches for beyond its own hashes (its
checkpoint kept outside the database, the filed reports, the money records against their trail:
``beano.integrity``), checked for the audit trail page, so that it gives the chain check's
verdict: every problem found, in words.

``LANDING``: where a Commission staff member of a kind lands instead of the organizations'
landing page (an inspector: the inspection dashboard), given by the app serving that page.

``HISTORY_PAGE``: the page of one record's history in an organization's audit trail (the
worker list's "history" links), given by the app serving it; no link without it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from organizations.models import Organization, WorkerListEntry

SLOTS = ("home_side", "home_bottom", "dashboard_top", "dashboard_floor", "dashboard")


@dataclass(frozen=True)
class Panel:
    """A panel of an organization's page: ``read`` gives the data its template shows as
    ``data``."""

    name: str
    slot: str
    template: str
    read: Callable[[Organization], Any]


PANELS: list[Panel] = []
#: Called with the entry when a person is put on (or back on) a worker list, inside the write.
ON_LISTED: list[Callable[[WorkerListEntry], None]] = []
#: Called with the request and the organization's id of its URL: the user the session's login
#: handed the hall laptop to (their roles there remembered with them, ``access_read``), or None.
AT_THE_LAPTOP: list[Callable[[Any, int], Any]] = []
#: Called with the organization: every problem found in what its chain vouches for, in words.
VOUCHED: list[Callable[[Organization], list[str]]] = []


#: A staff kind's landing page: its URL.
LANDING: dict[str, Callable[[], str]] = {}
#: The history page of a record: (organization's id, "app_label.model", record's id) -> URL.
HISTORY_PAGE: list[Callable[[int, str, Any], str]] = []


def add_landing(kind: str, url: Callable[[], str]) -> None:
    LANDING.setdefault(kind, url)


def landing(kind: str) -> str | None:
    """Where staff of ``kind`` land, or None: on the organizations' landing page."""
    url = LANDING.get(kind)
    return url() if url is not None else None


def add_history_page(page: Callable[[int, str, Any], str]) -> None:
    if page not in HISTORY_PAGE:
        HISTORY_PAGE.append(page)


def history_page(organization_id: int, target_type: str, target_id: Any) -> str:
    """The URL of a record's history in its organization's audit trail, or "" where none."""
    for page in HISTORY_PAGE:
        return page(organization_id, target_type, target_id)
    return ""


def add_vouched_check(check: Callable[[Organization], list[str]]) -> None:
    if check not in VOUCHED:
        VOUCHED.append(check)


def vouched_problems(organization: Organization) -> list[str]:
    """Every problem the apps above find in what the organization's chain vouches for."""
    return [problem for check in VOUCHED for problem in check(organization)]


def add_laptop_hook(hook: Callable[[Any, int], Any]) -> None:
    if hook not in AT_THE_LAPTOP:
        AT_THE_LAPTOP.append(hook)


def at_the_laptop(request: Any, organization_id: int) -> Any:
    """The user at the hall laptop of this session in this organization, if the session's login
    handed it to someone; None when the login is there itself."""
    for hook in AT_THE_LAPTOP:
        user = hook(request, organization_id)
        if user is not None:
            return user
    return None


def add_listed_hook(hook: Callable[[WorkerListEntry], None]) -> None:
    if hook not in ON_LISTED:
        ON_LISTED.append(hook)


def listed(entry: WorkerListEntry) -> None:
    """Run every app's hook for a person put on a worker list: called by the write."""
    for hook in ON_LISTED:
        hook(entry)


def add_panel(panel: Panel) -> None:
    if panel.slot not in SLOTS:
        raise ValueError(f"{panel.slot!r} is not a place on an organization's page: {SLOTS}")
    if all(p.name != panel.name for p in PANELS):
        PANELS.append(panel)


def panels(organization: Organization, slot: str) -> list[dict[str, Any]]:
    """The panels of ``slot``, in the order registered, each with its data read now."""
    return [
        {"name": p.name, "template": p.template, "data": p.read(organization)}
        for p in PANELS
        if p.slot == slot
    ]
