"""The opening checklist: what the member in charge confirms before an occasion opens, each item
with the paragraph of 961 CMR 3.04 it comes from. The checklist is data; each item is one rule
guarding ``occasion.open``, and an occasion opens only when every item is confirmed and the
records agree (a member in charge signed in, a price list posted, equipment usable)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from beano.rules.base import rule
from beano.rules.limits import Limits

OPEN = "occasion.open"


@dataclass(frozen=True)
class ChecklistItem:
    code: str  # stored on the opening check; stable
    rule_code: str
    citation: str
    title: str
    confirm: str  # what the member in charge confirms, in the words shown on the page


CHECKLIST: tuple[ChecklistItem, ...] = (
    ChecklistItem(
        "member_in_charge",
        "O-1A-MIC-PRESENT",
        "961 CMR 3.04(1)(a)",
        "The member in charge or a qualified designee is present",
        "The member in charge, or a qualified designee, is on the premises and stays there "
        "continually during the occasion.",
    ),
    ChecklistItem(
        "worker_list",
        "O-1B-WORKER-LIST",
        "961 CMR 3.04(1)(b)",
        "The worker list is available on the premises",
        "This year's list of Beano workers is at the hall, available to the Commission, the "
        "local licensing authority and the police.",
    ),
    ChecklistItem(
        "inspection",
        "O-3A-OPEN-TO-INSPECTION",
        "961 CMR 3.04(3)(a)",
        "The premises are open to inspection",
        "The premises are open to inspection by the Commission and the local licensing authority.",
    ),
    ChecklistItem(
        "visibility",
        "O-3B-DRAWING-VISIBLE",
        "961 CMR 3.04(3)(b)",
        "The drawing is visible to the majority of the players",
        "The receptacle, the person removing the balls and the caller are each visible to the "
        "majority of the players.",
    ),
    ChecklistItem(
        "accommodations",
        "O-3C-SEATS-AND-EGRESS",
        "961 CMR 3.04(3)(c)",
        "A chair and room for each player; egress marked",
        "Every player has a chair and room to play at no extra charge; the area is free of "
        "hazards and the exits are clearly marked.",
    ),
    ChecklistItem(
        "notices",
        "O-3D-NOTICES-POSTED",
        "961 CMR 3.04(3)(d)",
        "The required notices are posted",
        "The Director's notices of the rules of Beano are posted conspicuously where Beano is "
        "played and charity game tickets are sold.",
    ),
    ChecklistItem(
        "price_list",
        "O-4C-PRICES-POSTED",
        "961 CMR 3.04(4)(c)",
        "The price list is posted where admissions are sold",
        "The list of all prices is posted where admissions are sold.",
    ),
    ChecklistItem(
        "equipment_held",
        "O-4A-EQUIPMENT-HELD",
        "961 CMR 3.04(4)(a)",
        "Equipment owned or under a lease the Director approved",
        "All equipment is owned by the organization, or provided under a written lease the "
        "Director approved.",
    ),
    ChecklistItem(
        "equipment_repair",
        "O-4B-EQUIPMENT-REPAIR",
        "961 CMR 3.04(4)(b)",
        "Equipment in good repair and sound working condition",
        "All equipment is in good repair and sound working condition.",
    ),
    ChecklistItem(
        "no_alcohol",
        "O-9B-NO-ALCOHOL",
        "961 CMR 3.04(9)(b)",
        "No alcohol on the Beano portion of the premises",
        "No alcoholic beverages are sold, dispensed, consumed or awarded as a prize where "
        "Beano is played.",
    ),
    ChecklistItem(
        "no_minors",
        "O-9C-NO-MINORS",
        "961 CMR 3.04(9)(c)",
        "No one under 18 on the Beano portion of the premises",
        "No one under 18 years of age is on the portion of the premises used for Beano.",
    ),
)

ITEMS = {item.code: item for item in CHECKLIST}
ITEM_CHOICES = [(item.code, item.title) for item in CHECKLIST]


@dataclass(frozen=True)
class OpeningFacts:
    """The checklist as confirmed, and what the records say at the moment of opening."""

    confirmed: tuple[str, ...]  # the item codes confirmed
    member_in_charge_present: bool  # a signed-in worker holds the member in charge role
    price_list_posted: bool
    equipment_count: int  # registered and not retired on the day
    equipment_not_held: tuple[str, ...] = ()  # why a piece may not be used: (4)(a), (4)(e)
    equipment_out_of_repair: tuple[str, ...] = ()  # why a piece may not be used: (4)(b)


def _mic_signed_in(f: OpeningFacts) -> Iterator[str]:
    if not f.member_in_charge_present:
        yield (
            "No member in charge is signed in: sign in the member in charge, or a qualified "
            "designee named as member in charge on the worker list."
        )


def _price_list_exists(f: OpeningFacts) -> Iterator[str]:
    if not f.price_list_posted:
        yield "The occasion has no price list: post one before it opens."


def _equipment_held(f: OpeningFacts) -> Iterator[str]:
    if f.equipment_count == 0:
        yield (
            "No equipment is registered: record the receptacle and ball set the organization "
            "owns or leases."
        )
    yield from f.equipment_not_held


def _equipment_in_repair(f: OpeningFacts) -> Iterator[str]:
    yield from f.equipment_out_of_repair


EXTRA_CHECKS: dict[str, Callable[[OpeningFacts], Iterator[str]]] = {
    "member_in_charge": _mic_signed_in,
    "price_list": _price_list_exists,
    "equipment_held": _equipment_held,
    "equipment_repair": _equipment_in_repair,
}


def _register(item: ChecklistItem) -> None:
    extra = EXTRA_CHECKS.get(item.code)

    def check(f: OpeningFacts, limits: Limits) -> Iterator[str]:
        if item.code not in f.confirmed:
            yield f"Not confirmed: {item.confirm}"
        if extra is not None:
            yield from extra(f)

    check.__name__ = f"opening_{item.code}"
    check.__doc__ = f"The member in charge confirms before opening: {item.confirm}" + (
        {
            "member_in_charge": " A worker signed in as member in charge must be present.",
            "price_list": " The occasion must have a price list.",
            "equipment_held": " Every registered piece of equipment not retired must be owned "
            "with proof of ownership, or leased under an approval valid that day.",
            "equipment_repair": " No registered piece of equipment in use may be out of repair.",
        }.get(item.code, "")
    )
    rule(code=item.rule_code, citation=item.citation, title=item.title, guards=(OPEN,))(check)


for _item in CHECKLIST:
    _register(_item)
