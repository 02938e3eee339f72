"""961 CMR 3.04(1)(a): charge of an open occasion. The member in charge or a qualified
designee is present continually: the worker in charge leaves only after handing over, and
charge passes only to a designee who is present. (Who may be on the floor at all is
``workers``.)"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from beano.rules.base import rule
from beano.rules.limits import Limits
from beano.rules.workers import HAND_OVER, SIGN_OUT, WorkerRole


@dataclass(frozen=True)
class SignOutFacts:
    """A worker leaving: whether the occasion is open, whether they are the one in charge now,
    and how many other members in charge (qualified designees) are present."""

    name: str
    occasion_open: bool
    in_charge: bool
    designees_present: int


@rule(
    code="W-1A-CONTINUAL-PRESENCE",
    citation="961 CMR 3.04(1)(a)",
    title="The member in charge or a qualified designee is present continually",
    guards=(SIGN_OUT,),
)
def someone_stays_in_charge(f: SignOutFacts, limits: Limits) -> Iterator[str]:
    """While the occasion is open, the worker in charge signs out only after handing over to a
    qualified designee who is present."""
    if not f.occasion_open or not f.in_charge:
        return
    if f.designees_present == 0:
        yield (
            f"{f.name} is in charge and no qualified designee is present: sign in another "
            "member in charge and hand over before signing out."
        )
    else:
        yield f"{f.name} is in charge: record the handover to a designee before signing out."


@dataclass(frozen=True)
class HandoverFacts:
    """The worker taking charge: their role for the night and whether they are present."""

    name: str
    role: str
    present: bool


@rule(
    code="W-1A-QUALIFIED-DESIGNEE",
    citation="961 CMR 3.04(1)(a)",
    title="Charge passes only to a qualified designee who is present",
    guards=(HAND_OVER,),
)
def hands_over_to_a_qualified_designee(f: HandoverFacts, limits: Limits) -> Iterator[str]:
    """A designee is qualified when the worker list names them member in charge and they are
    signed in as such (which judged them a member in good standing); they must be present."""
    if f.role != WorkerRole.MEMBER_IN_CHARGE:
        yield f"{f.name} is not signed in as member in charge and cannot take charge."
    if not f.present:
        yield f"{f.name} is not present and cannot take charge."
