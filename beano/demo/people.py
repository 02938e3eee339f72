"""The demo's people part: every demo login has an e-mail address at example.org, and Post
171's head has invited Joseph Rebello, a member with no login yet, as a worker. The invitation
stays pending whatever the day the demo is run: one that expired is sent again, so its mail
(under the data folder's ``mail/`` with the embedded settings) always holds a working link."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils import timezone

from organizations import people
from organizations.models import Invitation, Organization, Person, Role

INVITED_EMAIL = "joseph.rebello@example.org"
INVITED_NAME = "Joseph Rebello"
INVITED_BY = "post171-head"
ORGANIZATION = "American Legion Post 171"


def demo_email(username: str) -> str:
    return f"{username}@example.org"


def seed_emails(usernames: list[str]) -> None:
    """``username@example.org`` for each demo login without an address."""
    for user in get_user_model().objects.filter(username__in=usernames, email=""):
        user.email = demo_email(user.get_username())
        user.save(update_fields=["email"])


def seed_pending_invitation() -> Invitation:
    """Post 171's pending invitation of Joseph Rebello (a worker), sent again if it lapsed."""
    organization = Organization.objects.get(name__startswith=ORGANIZATION)
    head = get_user_model().objects.get(username=INVITED_BY)
    latest = (
        Invitation.objects.filter(organization=organization, email=INVITED_EMAIL)
        .order_by("-created_at")
        .first()
    )
    if latest is None:
        person = Person.objects.get(legal_name=INVITED_NAME, memberships__organization=organization)
        return people.invite(
            organization=organization,
            email=INVITED_EMAIL,
            roles=[Role.WORKER],
            person=person,
            by=head,
        )
    if latest.is_pending(timezone.now()) or latest.user.has_usable_password():
        return latest  # still good, or accepted by someone trying the demo
    return people.send_again(invitation=latest, by=head)
