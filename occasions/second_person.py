"""The second person of a two-person act (a void's witness, a payout's verifier, the cash
count's verifier), as the rules judge them: they confirmed with their own password or PIN on
the same laptop, they are a user of the organization and not the first person, they were signed
in on the floor that night (at that moment, for an act of the night) as a worker of the list,
and they are not barred from assisting (a compensated bookkeeper or accountant, 961 CMR
3.04(1)(g), unless the Director authorized them in writing). A name typed or picked from a list
is not a second person; the lists offer only those who could confirm (``who_can_confirm``)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from beano.accounts.pins import confirms, paused_among, paused_until
from beano.actors import Actor
from beano.rules.authorizations import AuthorizationKind
from beano.rules.bookkeepers import SecondPersonFacts
from beano.rules.charges import NO_REASON
from beano.rules.confirmations import about_the_secret
from occasions import floor_selectors as floor
from occasions.models import Occasion, WorkerPresence
from organizations.forms import show_refusal
from organizations.models import OrganizationRole
from organizations.selectors import authorization_facts

#: What each second person does, as a (1)(g) refusal says it ("they cannot ...").
WITNESS_THE_VOID = "witness the void"
VERIFY_THE_PAYOUT = "verify the payout"
VERIFY_THE_CASH_COUNT = "verify the cash count"

#: The rules that judge a second person: their refusals are put on the fields of the form.
RULES_OF_THE_SECOND_PERSON = frozenset(
    {
        "W-1G-NOT-A-SECOND-PERSON",
        "C-4D2-VOID-WITNESSED",
        "C-6E-PAYOUT-VERIFIED",
        "R-1E-CASH-COUNTED-BY-TWO",
    }
)


def facts_of(presence: WorkerPresence | None, act: str) -> SecondPersonFacts:
    """What (1)(g) judges of the second person: the worker of the list they signed in as."""
    if presence is None:
        return SecondPersonFacts(act=act)
    entry = presence.entry
    return SecondPersonFacts(
        act=act,
        person_id=entry.person_id,
        name=entry.person.legal_name,
        compensated=entry.compensated,
    )


@dataclass(frozen=True)
class SecondPerson:
    user: Any
    presence: WorkerPresence | None
    in_organization: bool
    confirmed: bool
    #: While too many wrong tries pause them: when that ends, in the hall's time.
    paused_until: dt.datetime | None
    on_floor: bool

    @property
    def label(self) -> str:
        if self.presence is not None:
            return self.presence.entry.person.legal_name
        return self.user.get_full_name() or self.user.get_username() if self.user else ""

    def facts(self, act: str) -> SecondPersonFacts:
        return facts_of(self.presence, act)


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
    """Everything the rules judge of a second person; the credential checked once. Whether
    they are paused is read after it: the wrong try that pauses them says so, and until when."""
    if user is None:
        return SecondPerson(None, None, False, False, None, False)
    in_organization = OrganizationRole.objects.filter(
        user=user, organization_id=occasion.organization_id
    ).exists()
    presence = presence_of(occasion, user, moment) if in_organization else None
    confirmed = in_organization and confirms(user, secret)
    until = paused_until(user)
    return SecondPerson(
        user=user,
        presence=presence,
        in_organization=in_organization,
        confirmed=confirmed,
        paused_until=timezone.localtime(until) if until is not None else None,
        on_floor=presence is not None,
    )


def who_can_confirm(occasion: Occasion, first: Actor, moment: dt.datetime | None) -> list[Any]:
    """The users who could confirm as the second person now, by name: of the organization, their
    person signed in on the floor at ``moment`` (with none: at any time that night, the cash
    count's), other than ``first``, not a compensated bookkeeper or accountant without the
    Director's written authorization, and not paused. One query (two when a compensated
    bookkeeper or accountant is on the floor: the authorizations) and one read of the cache,
    however many are on the floor."""
    presences = WorkerPresence.objects.filter(occasion_id=occasion.pk)
    if moment is not None:
        presences = presences.filter(signed_in_at__lte=moment).filter(
            Q(signed_out_at__isnull=True) | Q(signed_out_at__gte=moment)
        )
    roles = (
        OrganizationRole.objects.filter(
            organization_id=occasion.organization_id,
            person_id__in=presences.values("entry__person_id"),
            user__is_active=True,
        )
        .exclude(user_id=getattr(first, "pk", None))
        .annotate(
            compensated=Exists(
                presences.filter(entry__person_id=OuterRef("person_id"), entry__compensated=True)
            )
        )
        .select_related("user")
        .order_by("user__first_name", "user__last_name", "user__username", "pk")
    )
    found: dict[int, tuple[Any, int, bool]] = {}
    for role in roles:
        found.setdefault(role.user_id, (role.user, role.person_id, role.compensated))
    if any(compensated for _, _, compensated in found.values()):
        kind = AuthorizationKind.BOOKKEEPER_OTHER_CAPACITY
        granted = authorization_facts(occasion.organization, kinds=(kind,))
        found = {
            pk: row
            for pk, row in found.items()
            if not row[2] or any(a.covers(kind, occasion.date, row[1]) for a in granted)
        }
    paused = paused_among(list(found))
    return [user for pk, (user, _, _) in found.items() if pk not in paused]


def users_of(organization_id: int) -> QuerySet[Any]:
    """The organization's users: what a second person's field accepts (the rules judge the one
    chosen), while its list offers ``who_can_confirm``."""
    return (
        get_user_model()
        .objects.filter(org_roles__organization_id=organization_id)
        .distinct()
        .order_by("first_name", "last_name", "username")
    )


def offer(field: Any, people: list[Any], label: Callable[[Any], str]) -> None:
    """A second person's field lists ``people`` (who could confirm now) and still accepts any
    user of its queryset, so that one chosen a moment ago is judged by the rules, not refused
    as an unknown choice."""
    field.widget.choices = [("", field.empty_label or "")] + [(u.pk, label(u)) for u in people]


def put_on_fields(
    form: Any, error: ValidationError, *, person: str, secret: str, reason: str = ""
) -> None:
    """A refusal of a two-person act put on the fields it is about, so that the form comes back
    with the cursor there: what the rules say of the second person on ``person``, or on
    ``secret`` when it is about the password or PIN typed; a void's missing reason on
    ``reason``; anything else on the form."""
    violations = getattr(error, "violations", None)
    if violations is None:  # not the rules': as the service named its fields, if it did
        show_refusal(form, error)
        return
    for violation in violations:
        field = None
        if violation.code in RULES_OF_THE_SECOND_PERSON:
            if reason and violation.message == NO_REASON:
                field = reason
            elif about_the_secret(violation.message):
                field = secret
            else:
                field = person
        form.add_error(field, str(violation))
