"""Links and parts a page of a lower app shows from the apps above it, without naming their
pages (dependencies point one way: inspections → reports → games → occasions → organizations).

A lower app's template names a *place* ("organization_tabs", "occasion_actions", ...); an app
above fills it from its ``AppConfig.ready()`` with a ``Link`` (a label and a function giving the
URL for the page's context, or None where it is not offered) or an ``Include`` (a template of
its own, drawn with the page's context). The template reads them with the builtin tags
``{% links "place" name=value as var %}`` and ``{% includes "place" as var %}``
(``beano.templatetags.links``). A link's function reads only what the page's view put in its
context: it runs no query. With the app above gone, its links and parts are simply not shown."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.urls import reverse

#: Every place a template offers, and what it is.
PLACES = {
    "organization_tabs": "the tabs of an organization's pages (organizations/_org_nav.html)",
    "commission_admin": "the Commission administration card of an admin's landing page",
    "commission_organization": "an organization's row on Commission staff's landing page",
    "authorized_day": "a coming authorized day on an organization's card of the landing page",
    "audit_trail_actions": "beside the chain's state on the audit trail page",
    "card_inventory_actions": "the card inventory page's buttons",
    "open_occasion_actions": "the occasion open now, on the landing page",
    "occasion_actions": "above the occasion page's sections",
    "calendar_day": "a past authorized day with nothing recorded, on the calendar (``d``)",
    "late_close": "the close page of an occasion whose night has passed",
    "left_open": "an occasion left open on an earlier day, at the top of the landing page",
    "integrity_warning_actions": "the page of a document whose PDF does not check",
    "floor_notes": "(parts) under the floor bar of the pages of a night",
    "floor_banner": "(parts) at the top of the floor's pages that keep working offline",
    "floor_scripts": "(parts) at the end of the floor's pages kept offline, the flashboard's too",
    "closeout_cash": "the counts and cash card of an occasion's close-out page",
    "reports_actions": "beside the title of the Reports page (the reports owed)",
}


@dataclass(frozen=True)
class Link:
    """A link a place shows: ``href`` gives its URL for the page's context (a template
    ``Context``, read with ``[]`` and ``get``), or None where the page does not offer it."""

    place: str
    key: str
    label: str
    href: Callable[[Any], str | None]
    order: int = 100
    new_tab: bool = False


@dataclass(frozen=True)
class Shown:
    key: str
    label: str
    href: str
    new_tab: bool


@dataclass(frozen=True)
class Include:
    """A template drawn at a place, with the page's context."""

    place: str
    template: str
    order: int = 100


LINKS: dict[str, list[Link]] = {}
INCLUDES: dict[str, list[Include]] = {}


def _known(place: str) -> None:
    if place not in PLACES:
        raise ValueError(f"{place!r} is not a place a page offers: {sorted(PLACES)}")


def add(*links: Link) -> None:
    """Registers links (again harmlessly: a key is kept once per place)."""
    for link in links:
        _known(link.place)
        at = LINKS.setdefault(link.place, [])
        if all(existing.key != link.key for existing in at):
            at.append(link)
            at.sort(key=lambda existing: existing.order)


def add_include(*includes: Include) -> None:
    for include in includes:
        _known(include.place)
        at = INCLUDES.setdefault(include.place, [])
        if include not in at:
            at.append(include)
            at.sort(key=lambda existing: existing.order)


def shown(place: str, context: Any) -> list[Shown]:
    """The links of ``place`` the page offers, in their order."""
    _known(place)
    out = []
    for link in LINKS.get(place, ()):
        href = link.href(context)
        if href:
            out.append(Shown(link.key, link.label, href, link.new_tab))
    return out


def included(place: str) -> list[str]:
    _known(place)
    return [include.template for include in INCLUDES.get(place, ())]


def page(
    url_name: str, *objects: str, when: Callable[[Any], bool] | None = None
) -> Callable[[Any], str | None]:
    """``href`` for the page ``url_name`` of the context's ``objects`` (names in the context
    whose ids fill the URL, e.g. ``"org", "occasion"``), offered ``when`` it says, and only to
    whom it reads: the context's ``access`` (an organization's page) answers by the matrix of
    who sees what (``organizations.access_matrix``), so no link leads to a refusal."""

    def href(context: Any) -> str | None:
        if when is not None and not when(context):
            return None
        access = context.get("access")
        if access is not None and hasattr(access, "offers") and not access.offers(url_name):
            return None
        return reverse(url_name, args=[context[name].pk for name in objects])

    return href


def org_page(url_name: str, when: Callable[[Any], bool] | None = None) -> Callable[[Any], Any]:
    """A page of the context's organization (``org``)."""
    return page(url_name, "org", when=when)


def occasion_page(url_name: str, when: Callable[[Any], bool] | None = None) -> Callable[[Any], Any]:
    """A page of the context's occasion (``org`` and ``occasion``)."""
    return page(url_name, "org", "occasion", when=when)
