"""The kinds of the Director's written authorizations: one for every place 961 CMR 3.04 says
"except as authorized by the Director in writing" or requires the Director's approval."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db import models


class AuthorizationKind(models.TextChoices):
    MORE_THAN_FOUR_ORGANIZATIONS = "1c_four_orgs", "Serve more than four organizations (3.04(1)(c))"
    BOOKKEEPER_OTHER_CAPACITY = (
        "1g_bookkeeper",
        "Compensated bookkeeper/accountant absent or in another capacity (3.04(1)(g))",
    )
    WORKER_AS_PLAYER = "1h_worker_player", "Worker on the list playing (3.04(1)(h))"
    SUPPLIER_PERSON = "2_supplier", "Person connected with a supplier (3.04(2))"
    EQUIPMENT_LEASE = "4a_lease", "Equipment lease and its rental fee (3.04(4)(a))"
    PACKAGES = "5a_packages", "Packages of cards (3.04(5)(a))"
    WINNING_ARRANGEMENT = "6c_arrangement", "Permissible winning arrangements (3.04(6)(c))"
    FREE_PLAY_OR_GIFTS = "8e_gifts", "Free play or gifts (3.04(8)(e))"
    TRANSPORTATION = "9d_transport", "Transportation of patrons (3.04(9)(d))"


#: Kinds that are granted to one person, so they only waive a rule for that person.
PERSON_KINDS = frozenset(
    {
        AuthorizationKind.MORE_THAN_FOUR_ORGANIZATIONS,
        AuthorizationKind.BOOKKEEPER_OTHER_CAPACITY,
        AuthorizationKind.WORKER_AS_PLAYER,
        AuthorizationKind.SUPPLIER_PERSON,
    }
)


@dataclass(frozen=True)
class AuthorizationFact:
    """A Director's authorization as the rules see it (no ORM)."""

    pk: int
    kind: str
    reference: str
    valid_from: dt.date
    valid_to: dt.date | None
    person_id: int | None = None
    revoked_on: dt.date | None = None

    def valid_on(self, day: dt.date) -> bool:
        if self.revoked_on is not None and self.revoked_on <= day:
            return False
        return self.valid_from <= day and (self.valid_to is None or day <= self.valid_to)

    def covers(self, kind: str, day: dt.date, person_id: int | None) -> bool:
        if self.kind != kind or not self.valid_on(day):
            return False
        if kind in PERSON_KINDS:
            return person_id is not None and self.person_id == person_id
        return True
