"""The hall laptop handed to a worker of the night. The member in charge (the session's login)
hands the laptop to a worker signed in on that night's floor with a login of the organization,
who confirms with their own PIN or password, as a second person does; what is recorded then is
theirs (the seller recorded is the one who sold), while the session stays the login's, who is
responsible for it (the audit names both: ``organizations.audit.in_the_session_of``). Handing it
back, or to another worker, is as quick. A login that must use a second factor (a head, a
bookkeeper, one who enrolled an authenticator) signs in on the laptop itself instead: a PIN
would open its pages without it.

Who is at the laptop is kept in the session (``SESSION_KEY``), never in the process, and lasts
while that worker is signed in on the night's floor: once they sign out, or the night closes,
the laptop is the login's again (``at_the_laptop``, which ``org_view`` asks on every page of the
organization)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef
from django.http import HttpRequest

from beano import rules
from beano.accounts.pins import confirms, paused
from beano.accounts.policy import confirmed_device, has_authenticator
from beano.actors import Actor
from beano.rules.workers import FLOOR_ACT
from occasions import on_floor
from occasions.models import Occasion, WorkerPresence
from occasions.services import lock_occasion, moment_of
from organizations import access_read
from organizations.audit import record_event
from organizations.models import OrganizationRole, Role

SESSION_KEY = "at_the_laptop"
#: Who may hand the laptop: the session's login runs the night.
HANDS_IT = (Role.HEAD, Role.MEMBER_IN_CHARGE)
#: Roles whose logins must use a second factor (``beano.accounts.policy.FILING_ROLES``).
SECOND_FACTOR_ROLES = (Role.HEAD, Role.BOOKKEEPER)


@dataclass(frozen=True)
class Taker:
    """A login that may take the laptop now: the person it names is on the night's floor."""

    user: Any
    name: str

    @property
    def label(self) -> str:
        return f"{self.name} ({self.user.get_username()})"


def _on_the_floor(occasion_id: int) -> Exists:
    return Exists(
        WorkerPresence.objects.filter(
            occasion_id=occasion_id, signed_out_at__isnull=True, entry__person_id=OuterRef("person")
        )
    )


def takers(occasion: Occasion, exclude: Any = None) -> list[Taker]:
    """The logins of the organization whose person is signed in on the night's floor now and
    who sign in without a second factor, by name (``exclude``: the one at the laptop)."""
    roles = (
        OrganizationRole.objects.filter(
            organization_id=occasion.organization_id, user__is_active=True
        )
        .exclude(person=None)
        .annotate(on_floor=_on_the_floor(occasion.pk), authenticator=has_authenticator())
        .filter(on_floor=True, authenticator=False)
        .select_related("user", "person")
        .order_by("person__legal_name", "user__username")
    )
    barred = {
        r.user_id
        for r in OrganizationRole.objects.filter(
            organization_id=occasion.organization_id, role__in=SECOND_FACTOR_ROLES
        )
    }
    found: dict[int, Taker] = {}
    for role in roles:
        if role.user_id not in barred and role.user_id != getattr(exclude, "pk", None):
            found.setdefault(role.user_id, Taker(role.user, role.person.legal_name))
    return list(found.values())


def _worker_name(occasion: Occasion, user: Any) -> str:
    role = (
        OrganizationRole.objects.filter(organization_id=occasion.organization_id, user=user)
        .exclude(person=None)
        .select_related("person")
        .first()
    )
    return role.person.legal_name if role else user.get_username()


@rules.atomic()
def hand_laptop(*, occasion: Occasion, to: Any, secret: str, at_laptop: Any, by: Actor) -> str:
    """``by``, the session's login, hands the laptop (now with ``at_laptop``) to ``to``, who
    confirms with their own PIN or password; back to ``by`` themselves, their own credential
    too. Refused for one not signed in on the night's floor ((1)(b), logged), a login that must
    use a second factor, a wrong credential (counted, as a second person's wrong tries are) and
    while their confirmations are paused. Returns the name of the one now at the laptop."""
    occasion = lock_occasion(
        occasion,
        statuses=(Occasion.Status.SCHEDULED, Occasion.Status.OPEN),
        doing="handing the laptop",
    )
    moment = moment_of(occasion, None, by=by, act="handing the laptop")
    name = _worker_name(occasion, to)
    if to.pk != getattr(by, "pk", None):
        _judge_taker(occasion, to, by, moment, name)
    if paused(to):
        raise ValidationError(
            {"secret": f"{name}'s confirmations are paused after too many wrong tries."}
        )
    if not confirms(to, secret):
        raise ValidationError({"secret": f"That is not {name}'s PIN or password."})
    record_event(
        organization=occasion.organization,
        actor=by,
        action="occasions.laptop.handed",
        target=occasion,
        old={"at_the_laptop": at_laptop.get_username()},
        new={"at_the_laptop": to.get_username(), "name": name, "at": moment},
    )
    return name


def _judge_taker(occasion: Occasion, to: Any, by: Actor, moment: Any, name: str) -> None:
    """A worker takes the laptop: a login of the organization, without a second factor, whose
    person is on the night's floor now (judged by the rule of every act of the floor)."""
    held = OrganizationRole.objects.filter(organization_id=occasion.organization_id, user=to)
    if not to.is_active or not held.exists():
        raise ValidationError({"to": "Choose a login of this organization."})
    if held.filter(role__in=SECOND_FACTOR_ROLES).exists() or confirmed_device(to) is not None:
        raise ValidationError(
            {"to": f"{name}'s login asks for a second factor: they log in on the laptop."}
        )
    rules.enforce(
        FLOOR_ACT,
        on_floor.facts(occasion, to, moment, doing="taking the hall laptop"),
        on=occasion.date,
        actor=by,
        organization=occasion.organization,
    )


def remember(request: HttpRequest, occasion: Occasion, to: Any, name: str, login: Any) -> None:
    """The session: ``to`` is at the laptop for ``occasion`` (nothing kept when it is the
    session's own ``login``)."""
    if to.pk == login.pk:
        request.session.pop(SESSION_KEY, None)
        return
    request.session[SESSION_KEY] = {
        "organization": occasion.organization_id,
        "occasion": occasion.pk,
        "user": to.pk,
        "name": name,
    }


def at_the_laptop(request: HttpRequest, organization_id: int) -> Any:
    """The user the session's login handed the laptop to, for this organization's pages, with
    their roles there remembered for ``resolve_access`` (one query); None if no one, and the
    hand-over forgotten, with a message, once they are no longer on the night's floor."""
    handed = request.session.get(SESSION_KEY) if hasattr(request, "session") else None
    if not handed or handed.get("organization") != organization_id:
        return None
    held = list(
        OrganizationRole.objects.filter(
            organization_id=organization_id, user_id=handed["user"], user__is_active=True
        )
        .annotate(on_floor=_on_the_floor(handed["occasion"]))
        .select_related("user", "organization")
    )
    if not any(role.on_floor for role in held):
        request.session.pop(SESSION_KEY, None)
        messages.info(
            request,
            f"{handed.get('name', 'The worker')} is no longer signed in on the floor: the "
            "laptop is back with you.",
        )
        return None
    user = held[0].user
    access_read.remember(user, organization_id, held[0].organization, {r.role for r in held})
    return user
