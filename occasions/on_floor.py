"""Who does an act of a night's floor, as the rules judge it (961 CMR 3.04(1)(b),
``beano.rules.workers.FLOOR_ACT``): every service of the floor calls ``require`` once it holds
the occasion and knows the act's moment, before it saves anything.

Live, the person named is the one of the login acting (the person its role in the organization
names), on the floor when one of their sign-ins that night covers the moment. After the fact
(the night's paper sheets, a close recorded late) the one entering is not the one who acted:
the worker the sheet names for the act is judged where it names one, else a worker of the night
must have been on the floor then, as when the system records a past night (``by=None``). The
door's sale and the caller's ball read what is judged in the statement they already make under
the lock (``doer_annotations``): a live act's moment is now, and a sign-in is never in the
future, so on the floor now is an open sign-in."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from beano import rules
from beano.actors import Actor
from beano.rules.workers import FLOOR_ACT, FloorActFacts
from occasions import floor_selectors as floor
from occasions.models import Occasion, WorkerPresence
from occasions.second_person import presence_of
from organizations.audit import acting_user, current_provenance
from organizations.models import OrganizationRole


@dataclass(frozen=True)
class Known:
    """What a live act's locking statement read: the login's person has an open sign-in that
    night, and someone has."""

    on_floor: bool
    floor_staffed: bool


def doer_annotations(
    user_id: int, *, occasion: str = "pk", organization: str = "organization_id"
) -> dict[str, Exists]:
    """``doer_on_floor`` and ``floor_staffed`` (``Known``) for a statement over occasions (or
    over rows that name one: ``occasion`` and ``organization`` are the paths to them): the user
    (0 for none) named by one of their roles in the occasion's organization as a person with an
    open sign-in that night, and anyone with one."""
    open_sign_ins = WorkerPresence.objects.filter(
        occasion_id=OuterRef(occasion), signed_out_at__isnull=True
    )
    return {
        "doer_on_floor": Exists(
            open_sign_ins.filter(
                entry__person__organizationrole__user_id=user_id,
                entry__person__organizationrole__organization_id=OuterRef(organization),
            )
        ),
        "floor_staffed": Exists(open_sign_ins),
    }


def user_id(by: Actor) -> int:
    """The acting user's id for ``doer_annotations`` (0, no one's, for the system)."""
    return getattr(acting_user(by), "pk", None) or 0


def on_the_floor_at(occasion: Occasion, moment: dt.datetime) -> QuerySet[WorkerPresence]:
    """The night's sign-ins that cover ``moment``."""
    return WorkerPresence.objects.filter(occasion=occasion, signed_in_at__lte=moment).filter(
        Q(signed_out_at__isnull=True) | Q(signed_out_at__gte=moment)
    )


def named_by_the_login(by: Actor) -> bool:
    """Whether the login acting is the one who did the act: live, yes; entering the night's
    sheets, or a close (and the games it finishes) recorded after the night, no: the acts'
    provenance says they are entered after the fact, by the bookkeeper or the head."""
    entered = current_provenance().get("entered")
    return acting_user(by) is not None and entered != "after the fact"


def login_label(occasion: Occasion, user: Any) -> str:
    """The login as a refusal names it: the person its role names, and the login."""
    role = (
        OrganizationRole.objects.filter(user=user, organization_id=occasion.organization_id)
        .exclude(person=None)
        .select_related("person")
        .first()
    )
    username = user.get_username()
    return f"{role.person.legal_name} ({username})" if role else f"The login {username}"


def _people_of(occasion: Occasion, user: Any) -> set[int]:
    return set(
        OrganizationRole.objects.filter(user=user, organization_id=occasion.organization_id)
        .exclude(person=None)
        .values_list("person_id", flat=True)
    )


def facts(
    occasion: Occasion,
    by: Actor,
    moment: dt.datetime,
    *,
    doing: str,
    worker: WorkerPresence | None = None,
    person_id: int | None = None,
    known: Known | None = None,
) -> FloorActFacts:
    """What the rule judges of an act at ``moment``. ``worker``: the sign-in the sheet names
    as doing it. ``person_id``: the person an act signs in or out (themselves, live, when the
    login's; on a sheet or for the system, the worker who signs it). ``known``: what the live
    act's statement read."""
    at = timezone.localtime(moment)
    if worker is not None:
        on = floor.on_floor_at(worker, moment)
        return FloorActFacts(doing, at, worker.entry.person.legal_name, on_floor=on)
    if not named_by_the_login(by):
        if person_id is not None:  # the sign-in sheet is signed by the worker themselves
            return FloorActFacts(doing, at, "", themselves=True)
        if known is not None:
            return FloorActFacts(doing, at, "", floor_staffed=known.floor_staffed)
        staffed = on_the_floor_at(occasion, moment).exists()
        return FloorActFacts(doing, at, "", floor_staffed=staffed)
    if person_id is not None and person_id in _people_of(occasion, by):
        return FloorActFacts(doing, at, by.get_username(), themselves=True)
    on = known.on_floor if known is not None else presence_of(occasion, by, moment) is not None
    doer = by.get_username() if on else login_label(occasion, by)
    return FloorActFacts(doing, at, doer, on_floor=on)


def require(
    occasion: Occasion,
    by: Actor,
    moment: dt.datetime,
    *,
    doing: str,
    limits: rules.Limits | None = None,
    **named: Any,
) -> None:
    """Refuse the act unless a worker of the night does it (``facts``' keywords in ``named``):
    judged on the occasion's date, refused and logged as every refusal is. (1)(b) provides for
    no Director's authorization, so none is read."""
    rules.enforce(
        FLOOR_ACT,
        facts(occasion, by, moment, doing=doing, **named),
        on=occasion.date,
        actor=by,
        organization=occasion.organization,
        limits=limits,
    )
