"""961 CMR 3.04(1)(g) on the night's floor: a compensated bookkeeper or accountant signs in as
bookkeeper or accountant, and is no one's second person (a void's witness (4)(d), a payout's
verifier (6)(e), the cash count's verifier (1)(e)). Apart from ``workers`` because it guards
the acts of three other parts, whose modules each judge the rest of their second person (their
own confirmation, their presence on the floor); the list's own (1)(g) rules are in
``workers``."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from beano.rules.authorizations import AuthorizationKind
from beano.rules.base import rule
from beano.rules.charges import VOID_SALE
from beano.rules.claims import RECORD_PAYOUT
from beano.rules.limits import Limits
from beano.rules.reporting import COUNT_CASH
from beano.rules.workers import SIGN_IN, SignInFacts, WorkerRole, paid_bookkeeper_in_another_role


@dataclass(frozen=True)
class SecondPersonFacts:
    """The second person of a two-person act (a void's witness, a payout's verifier, the cash
    count's verifier) as the worker list has them, or no one yet (no ``person_id``); ``act``
    says what they would do ("witness the void")."""

    act: str
    person_id: int | None = None
    name: str = ""
    compensated: bool = False


@rule(
    code="W-1G-NOT-A-SECOND-PERSON",
    citation="961 CMR 3.04(1)(g)",
    title="A compensated bookkeeper or accountant is no one's second person",
    guards=(VOID_SALE, RECORD_PAYOUT, COUNT_CASH),
    waiver=AuthorizationKind.BOOKKEEPER_OTHER_CAPACITY,
)
def paid_bookkeeper_is_no_second_person(f: SecondPersonFacts, limits: Limits) -> Iterator[str]:
    """A bookkeeper or accountant receiving compensation shall not participate or assist in any
    other capacity, except as authorized by the Director in writing: not as a void's witness,
    a payout's verifier or the cash count's verifier. The act's own rule judges the rest of
    the second person (their confirmation, their presence)."""
    if f.compensated:
        yield (
            f"{f.name} is a compensated bookkeeper or accountant, who assists in no other "
            f"capacity: they cannot {f.act}."
        )


@rule(
    code="W-1G-SIGNS-IN-AS-BOOKKEEPER",
    citation="961 CMR 3.04(1)(g)",
    title="A compensated bookkeeper or accountant signs in as bookkeeper or accountant",
    guards=(SIGN_IN,),
)
def paid_bookkeeper_signs_in_as_such(f: SignInFacts, limits: Limits) -> Iterator[str]:
    """A bookkeeper or accountant receiving compensation shall not participate or assist in any
    other capacity, except as authorized by the Director in writing. That authorization is
    given through the worker list: the list names them in the other role (W-1G-BOOKKEEPER-ONLY
    waived there, and judged again at the sign-in), so that the role's own rules judge them
    in it (a caller's, (1)(i)). Signed in for a role the list does not give them, they are
    refused here."""
    if paid_bookkeeper_in_another_role(f):
        role = WorkerRole(f.role).label.lower()
        yield (
            f"{f.name} is a compensated bookkeeper or accountant, who assists in no other "
            f"capacity: sign them in as bookkeeper, not as {role}. A Director's written "
            f"authorization can allow another role, given to them on the worker list."
        )
