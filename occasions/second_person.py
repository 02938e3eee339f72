"""The second person of a two-person act (a void's witness, a payout's verifier, the cash
count's verifier), as the rules judge them: they confirmed with their own password or PIN on
the same laptop, they are a user of the organization and not the first person, they were signed
in on the floor that night (at that moment, for an act of the night) as a worker of the list,
and they are not barred from assisting (a compensated bookkeeper or accountant, 961 CMR
3.04(1)(g)). A name typed or picked from a list is not a second person."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from beano.accounts.pins import confirms, paused
from occasions import floor_selectors as floor
from occasions.models import Occasion, WorkerPresence
from organizations.models import OrganizationRole


@dataclass(frozen=True)
class SecondPerson:
    user: Any
    presence: WorkerPresence | None
    in_organization: bool
    confirmed: bool
    paused: bool
    on_floor: bool
    barred: bool

    @property
    def label(self) -> str:
        if self.presence is not None:
            return self.presence.entry.person.legal_name
        return self.user.get_full_name() or self.user.get_username() if self.user else ""


def presence_of(occasion: Occasion, user: Any, moment: dt.datetime | None) -> WorkerPresence | None:
    """The user's sign-in at the occasion, through the person their role names: on the floor at
    ``moment``, or (with no moment: the close-out's count) at any time that night."""
    people = OrganizationRole.objects.filter(
        user=user, organization_id=occasion.organization_id
    ).exclude(person=None)
    person_ids = list(people.values_list("person_id", flat=True))
    if not person_ids:
        return None
    presences = (
        WorkerPresence.objects.filter(occasion=occasion, entry__person_id__in=person_ids)
        .select_related("entry__person")
        .order_by("-signed_in_at")
    )
    for presence in presences:
        if moment is None or floor.on_floor_at(presence, moment):
            return presence
    return None


def second_person(
    occasion: Occasion, user: Any, secret: str, moment: dt.datetime | None
) -> SecondPerson:
    """Everything the rules judge of a second person; the credential checked once."""
    if user is None:
        return SecondPerson(None, None, False, False, False, False, False)
    in_organization = OrganizationRole.objects.filter(
        user=user, organization_id=occasion.organization_id
    ).exists()
    presence = presence_of(occasion, user, moment) if in_organization else None
    was_paused = paused(user)
    return SecondPerson(
        user=user,
        presence=presence,
        in_organization=in_organization,
        confirmed=in_organization and confirms(user, secret),
        paused=was_paused,
        on_floor=presence is not None,
        barred=presence is not None and floor.barred_from_assisting(presence),
    )
