"""961 CMR 3.04(4)(c), (4)(d) and (5): prices, sales and the admission charge."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal

from beano.rules.authorizations import AuthorizationKind
from beano.rules.base import rule
from beano.rules.limits import LimitName, Limits

SET_PRICES = "prices.set"


@dataclass(frozen=True)
class PriceItemFact:
    category: str
    label: str
    price: Decimal


@dataclass(frozen=True)
class PriceListFacts:
    """The price list as it would stand after the change, and whether the occasion has opened."""

    occasion_open_or_closed: bool
    items: tuple[PriceItemFact, ...]


@rule(
    code="C-4C-PRICES-FIXED",
    citation="961 CMR 3.04(4)(c)",
    title="Prices are set before the occasion and never varied during it",
    guards=(SET_PRICES,),
)
def prices_are_fixed_once_open(f: PriceListFacts, limits: Limits) -> Iterator[str]:
    """The set price may not be varied during a Beano occasion: once it opens, the list is fixed."""
    if f.occasion_open_or_closed:
        yield "The occasion has opened: its posted prices cannot be changed."


@rule(
    code="C-4C-ADMISSION-PRICED",
    citation="961 CMR 3.04(4)(c)",
    title="Every opportunity to play has a specific price, admission among them",
    guards=(SET_PRICES,),
)
def every_item_has_a_price(f: PriceListFacts, limits: Limits) -> Iterator[str]:
    """Admission, extra regular, bonus and special game cards are sold only at a specified price;
    the list must price admission, and each label once."""
    if not any(i.category == "admission" for i in f.items):
        yield "The price list must include the admission."
    labels = [i.label.casefold() for i in f.items]
    if len(labels) != len(set(labels)):
        yield "Each item appears once on the price list."
    for i in f.items:
        if i.price <= 0:
            yield f"{i.label}: a price must be more than $0.00 (no free play)."


@rule(
    code="C-5A-MIN-ADMISSION",
    citation="961 CMR 3.04(5)(a)",
    title="Admission costs at least the minimum in force ($1.00)",
    guards=(SET_PRICES,),
)
def admission_at_least_minimum(f: PriceListFacts, limits: Limits) -> Iterator[str]:
    """No less than one dollar is charged for admission (the figure in force on the date)."""
    minimum = limits.get(LimitName.MIN_ADMISSION)
    if minimum is None:
        return
    for i in f.items:
        if i.category == "admission" and i.price < minimum:
            yield f"{i.label} is ${i.price:.2f}; admission must be at least ${minimum:.2f}."


@dataclass(frozen=True)
class PackageFacts:
    """Packages on the list; a package needs the Director's written permission."""

    package_labels: tuple[str, ...]


@rule(
    code="C-5A-PACKAGES",
    citation="961 CMR 3.04(5)(a)",
    title="Packages of cards only with the Director's written permission",
    guards=(SET_PRICES,),
    waiver=AuthorizationKind.PACKAGES,
)
def packages_need_permission(f: PackageFacts, limits: Limits) -> Iterator[str]:
    """The Director may in writing permit packages of regular, extra regular and special cards."""
    for label in f.package_labels:
        yield f"{label}: packages need the Director's written permission."
