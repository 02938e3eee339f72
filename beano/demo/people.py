"""The demo's people part: every demo login has an e-mail address at example.org, and each
organization's head has invited a member with no login yet as a worker (Joseph Rebello at Post
171, Mary Gallagher at St. Anne's). The invitations stay pending whatever the day the demo is
run: one that expired is sent again, so its mail (under the data folder's ``mail/`` with the
embedded settings) always holds a working link."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils import timezone

from organizations import people
from organizations.models import Invitation, Organization, Person, Role

INVITED_EMAIL = "joseph.rebello@example.org"
#: (organization, head who invites, member invited, their address)
INVITATIONS = (
    ("American Legion Post 171", "post171-head", "Joseph Rebello", INVITED_EMAIL),
    ("St. Anne's Parish", "stanne-head", "Mary Gallagher", "mary.gallagher@example.org"),
)


def demo_email(username: str) -> str:
    return f"{username}@example.org"


def seed_emails(usernames: list[str]) -> None:
    """``username@example.org`` for each demo login without an address."""
    for user in get_user_model().objects.filter(username__in=usernames, email=""):
        user.email = demo_email(user.get_username())
        user.save(update_fields=["email"])


def seed_pending_invitations() -> list[Invitation]:
    return [seed_pending_invitation(*spec) for spec in INVITATIONS]


def seed_pending_invitation(
    organization_name: str = INVITATIONS[0][0],
    head_username: str = INVITATIONS[0][1],
    name: str = INVITATIONS[0][2],
    email: str = INVITED_EMAIL,
) -> Invitation:
    """A head's pending invitation of a member (a worker), sent again if it lapsed."""
    organization = Organization.objects.get(name=organization_name)
    head = get_user_model().objects.get(username=head_username)
    latest = (
        Invitation.objects.filter(organization=organization, email=email)
        .order_by("-created_at")
        .first()
    )
    if latest is None:
        person = Person.objects.get(legal_name=name, memberships__organization=organization)
        return people.invite(
            organization=organization, email=email, roles=[Role.WORKER], person=person, by=head
        )
    if latest.is_pending(timezone.now()) or latest.user.has_usable_password():
        return latest  # still good, or accepted by someone trying the demo
    return people.send_again(invitation=latest, by=head)
