"""The organization's people: logins given by invitation, their roles changed, a login
deactivated. Every write is one transaction with its audit events on the organization's chain
(and the Commission's, when a Commission admin acts); the invitation's e-mail leaves on commit.

A login belongs to one person. The same login may hold roles in several organizations only when
it is the same person in each (``_shared_login``): an address already used by someone of
another organization is refused unless the invitation names that same person.

``invite`` is the entry point for the organization's head (members in charge, bookkeepers,
workers) and for the Commission (the head of a new licensee)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.auth.password_validation import validate_password
from django.contrib.sessions.models import Session
from django.core import signing
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from beano import locking, rules
from beano.actors import Actor
from organizations.access import commission_staff
from organizations.audit import current_request, record_event
from organizations.models import (
    CommissionStaff,
    Invitation,
    Membership,
    Organization,
    OrganizationRole,
    Person,
    Role,
)
from organizations.people_mail import send_invitation
from organizations.services import assign_role

#: The roles a head of organization gives; the head's own role is the Commission's to give.
ROLES_A_HEAD_GIVES = (Role.MEMBER_IN_CHARGE, Role.BOOKKEEPER, Role.WORKER)
_SALT = "organizations.invitation"


def token_for(invitation: Invitation) -> str:
    """The invitation's link token: its id, signed with the installation's secret key."""
    return signing.dumps({"invitation": invitation.pk}, salt=_SALT)


def link_for(invitation: Invitation) -> str:
    """The absolute address of the invitation's link (the login page for a login that already
    has its password): on the host of the request being answered, or on ``settings.SITE_URL``
    when none is (a command)."""
    if invitation.accepted_at is not None:
        path = reverse("login")
    else:
        path = reverse("invitation_accept", kwargs={"token": token_for(invitation)})
    request = current_request()
    if request is not None:
        return request.build_absolute_uri(path)
    return settings.SITE_URL.rstrip("/") + path


def _is_commission_admin(by: Actor) -> bool:
    staff = commission_staff(by)
    return staff is not None and staff.kind == CommissionStaff.Kind.ADMIN


def _check_roles(roles: Collection[str], by: Actor) -> list[str]:
    chosen = sorted(set(roles))
    if not chosen:
        raise ValidationError({"roles": "Choose at least one role."})
    unknown = set(chosen) - set(Role.values)
    if unknown:
        raise ValidationError({"roles": f"Not a role: {', '.join(sorted(unknown))}."})
    if Role.HEAD in chosen and not _is_commission_admin(by):
        raise ValidationError(
            {"roles": "The head of organization is invited by the Commission, not here."}
        )
    return chosen


def _check_person(organization: Organization, person: Person | None) -> None:
    if (
        person is not None
        and not Membership.objects.filter(organization=organization, person=person).exists()
    ):
        raise ValidationError({"person": f"{person} is not on this organization's member list."})


def _shared_login(user: Any, organization: Organization, person: Person | None) -> None:
    """An existing login may take roles here only as the same person it is elsewhere."""
    if commission_staff(user) is not None:
        raise ValidationError({"email": "This address is a Commission staff login."})
    held = OrganizationRole.objects.filter(user=user)
    if held.filter(organization=organization).exists():
        raise ValidationError(
            {"email": "This address already has a login here: change its roles instead."}
        )
    people = set(held.values_list("person_id", flat=True))
    if people and (person is None or people != {person.pk}):
        raise ValidationError(
            {
                "email": "This address is the login of someone at another organization. A "
                "login is shared only by the same person: choose them from the member list as "
                "the person they are there, or use another address."
            }
        )


def _user_for(email: str, organization: Organization, person: Person | None) -> Any:
    User = get_user_model()
    user = (
        locking.lock(User.objects).filter(email__iexact=email).order_by("pk").first()
        or locking.lock(User.objects).filter(username__iexact=email).first()
    )
    if user is not None:
        _shared_login(user, organization, person)
        if not OrganizationRole.objects.filter(user=user).exists():
            user.is_active = True  # a login deactivated everywhere, invited again
            user.set_unusable_password()
            user.save(update_fields=["is_active", "password"])
        return user
    first, _, last = person.legal_name.partition(" ") if person else ("", "", "")
    user = User(username=email, email=email, first_name=first[:150], last_name=last[:150])
    user.set_unusable_password()
    user.save()
    return user


def _audit(invitation: Invitation, by: Actor, action: str, **new: Any) -> None:
    values = {
        "email": invitation.email,
        "roles": invitation.roles,
        "person": invitation.person_id,
        "expires_at": invitation.expires_at,
        **new,
    }
    record_event(
        organization=invitation.organization, actor=by, action=action, target=invitation, new=values
    )
    if commission_staff(by) is not None:
        record_event(organization=None, actor=by, action=action, target=invitation, new=values)


@rules.atomic()
def invite(
    *,
    organization: Organization,
    email: str,
    roles: Collection[str],
    person: Person | None = None,
    by: Actor,
) -> Invitation:
    """Give ``email`` a login with ``roles`` in ``organization`` and send the invitation. A new
    login chooses its password through the link; a login this person already has elsewhere
    takes the roles at once (the mail then only tells them)."""
    email = get_user_model().objects.normalize_email(email.strip()).lower()
    chosen = _check_roles(roles, by)
    organization = locking.lock(Organization.objects).get(pk=organization.pk)
    _check_person(organization, person)
    user = _user_for(email, organization, person)
    if user.email != email:
        user.email = email
        user.save(update_fields=["email"])
    for role in chosen:
        assign_role(organization=organization, by=by, user=user, role=role, person=person)
    now = timezone.now()
    invitation = Invitation.objects.create(
        organization=organization,
        email=email,
        roles=chosen,
        person=person,
        user=user,
        invited_by=by if getattr(by, "is_authenticated", False) else None,
        created_at=now,
        expires_at=now + dt.timedelta(days=settings.INVITATION_VALID_DAYS),
        accepted_at=now if user.has_usable_password() else None,
    )
    _audit(
        invitation,
        by,
        "organizations.invitation.sent",
        existing_login=invitation.accepted_at is not None,
    )
    link = link_for(invitation)
    transaction.on_commit(lambda: send_invitation(invitation, link))
    return invitation


@rules.atomic()
def send_again(*, invitation: Invitation, by: Actor) -> Invitation:
    """A new link for a login whose password was never chosen (the last one expired or was
    lost): the earlier links are withdrawn, the roles stay as they are now."""
    user = locking.lock(get_user_model().objects).get(pk=invitation.user_id)
    if user.has_usable_password():
        raise ValidationError(f"{user.email} already chose a password: they log in with it.")
    organization = invitation.organization
    roles = sorted(
        OrganizationRole.objects.filter(user=user, organization=organization).values_list(
            "role", flat=True
        )
    )
    if not roles:
        raise ValidationError("This login holds no role here any more.")
    now = timezone.now()
    Invitation.objects.filter(user=user, accepted_at=None, withdrawn_at=None).update(
        withdrawn_at=now
    )
    fresh = Invitation.objects.create(
        organization=organization,
        email=user.email,
        roles=roles,
        person=invitation.person,
        user=user,
        invited_by=by if getattr(by, "is_authenticated", False) else None,
        created_at=now,
        expires_at=now + dt.timedelta(days=settings.INVITATION_VALID_DAYS),
    )
    _audit(fresh, by, "organizations.invitation.sent_again")
    link = link_for(fresh)
    transaction.on_commit(lambda: send_invitation(fresh, link))
    return fresh


def _when(moment: dt.datetime) -> str:
    return f"{timezone.localtime(moment):%B %-d, %Y at %-I:%M %p}"


def invitation_from_token(token: str) -> Invitation:
    """The invitation a link names, if it can still be used; a clear refusal otherwise."""
    try:
        pk = signing.loads(token, salt=_SALT)["invitation"]
        invitation = Invitation.objects.select_related("organization", "user").get(pk=pk)
    except (signing.BadSignature, KeyError, TypeError, Invitation.DoesNotExist) as error:
        raise ValidationError(
            "This link is not a valid invitation. Open the whole link from the e-mail, or ask "
            "the head of your organization to send a new one."
        ) from error
    refuse_spent(invitation, timezone.now())
    return invitation


def refuse_spent(invitation: Invitation, now: dt.datetime) -> None:
    if invitation.accepted_at is not None:
        raise ValidationError(
            f"This invitation was already used on {_when(invitation.accepted_at)}: a link sets "
            "a password once. Log in with that password, or use “Forgot your password?” on "
            "the login page."
        )
    if invitation.withdrawn_at is not None:
        raise ValidationError(
            "This invitation was withdrawn: a newer link was sent, or the login was "
            "deactivated. Use the newest e-mail, or ask the head of your organization."
        )
    if now >= invitation.expires_at:
        raise ValidationError(
            f"This invitation expired on {_when(invitation.expires_at)}. Ask the head of "
            f"{invitation.organization} to send you a new link."
        )


@rules.atomic()
def accept(*, invitation: Invitation, password: str) -> Any:
    """The invited person chooses their password; the link is spent."""
    invitation = locking.lock(Invitation.objects).get(pk=invitation.pk)
    refuse_spent(invitation, timezone.now())
    user = invitation.user
    validate_password(password, user)
    user.set_password(password)
    user.save(update_fields=["password"])
    invitation.accepted_at = timezone.now()
    invitation.save(update_fields=["accepted_at"])
    record_event(
        organization=invitation.organization,
        actor=user,
        action="organizations.invitation.accepted",
        target=invitation,
        new={"email": invitation.email, "accepted_at": invitation.accepted_at},
    )
    return user


def _held_here(organization: Organization, user: Any) -> list[str]:
    return sorted(
        OrganizationRole.objects.filter(organization=organization, user=user).values_list(
            "role", flat=True
        )
    )


def _not_yourself_nor_a_head(user: Any, held: list[str], by: Actor, what: str) -> None:
    if getattr(by, "pk", None) == user.pk:
        raise ValidationError(f"You cannot {what} your own login.")
    if Role.HEAD in held and not _is_commission_admin(by):
        raise ValidationError(f"Only the Commission can {what} the head of organization's login.")
    if not held:
        raise ValidationError("This login holds no role in this organization.")


@rules.atomic()
def change_roles(
    *, organization: Organization, user: Any, roles: Collection[str], by: Actor
) -> list[str]:
    """Set the roles ``user`` holds here to ``roles`` (at least one: to take them all away,
    deactivate the login)."""
    organization = locking.lock(Organization.objects).get(pk=organization.pk)
    held = _held_here(organization, user)
    _not_yourself_nor_a_head(user, held, by, "change the roles of")
    chosen = _check_roles(roles, by)
    if not set(chosen) <= set(ROLES_A_HEAD_GIVES):
        raise ValidationError({"roles": "Choose among member in charge, bookkeeper and worker."})
    if chosen == held:
        return held
    person = (
        OrganizationRole.objects.filter(organization=organization, user=user)
        .exclude(person=None)
        .values_list("person", flat=True)
        .first()
    )
    OrganizationRole.objects.filter(organization=organization, user=user).exclude(
        role__in=chosen
    ).delete()
    for role in set(chosen) - set(held):
        OrganizationRole.objects.create(
            organization=organization, user=user, role=role, person_id=person
        )
    record_event(
        organization=organization,
        actor=by,
        action="organizations.roles.changed",
        target=user,
        old={"roles": held},
        new={"roles": chosen},
    )
    return chosen


def end_sessions(user: Any) -> int:
    """End every session signed in as ``user``: their next request is anonymous."""
    mine = [
        session.pk
        for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator()
        if str(session.get_decoded().get(SESSION_KEY)) == str(user.pk)
    ]
    # Through the session engine, so a session kept in the cache too (cached_db) goes from both.
    store = import_module(settings.SESSION_ENGINE).SessionStore
    for key in mine:
        store(session_key=key).delete()
    return len(mine)


@rules.atomic()
def deactivate(*, organization: Organization, user: Any, by: Actor) -> None:
    """Take every role ``user`` holds here and end their sessions now. A login with no role
    left anywhere is switched off; one this person uses at another organization stays there."""
    organization = locking.lock(Organization.objects).get(pk=organization.pk)
    held = _held_here(organization, user)
    _not_yourself_nor_a_head(user, held, by, "deactivate")
    OrganizationRole.objects.filter(organization=organization, user=user).delete()
    now = timezone.now()
    Invitation.objects.filter(
        organization=organization, user=user, accepted_at=None, withdrawn_at=None
    ).update(withdrawn_at=now)
    elsewhere = OrganizationRole.objects.filter(user=user).exists()
    if not elsewhere:
        user.is_active = False
        user.save(update_fields=["is_active"])
    ended = end_sessions(user)
    record_event(
        organization=organization,
        actor=by,
        action="organizations.login.deactivated",
        target=user,
        old={"roles": held, "is_active": True},
        new={"roles": [], "is_active": elsewhere, "sessions_ended": ended},
    )
