"""The invitation's e-mail, plain text and HTML, sent through Django's mail (whatever
``EMAIL_BACKEND`` the installation configured). A mail that cannot leave is logged, not
raised: the invitation stands, and "Send a new link" on the people page tries again."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.utils import timezone

from organizations.models import Invitation, Role

logger = logging.getLogger(__name__)


def invitation_message(invitation: Invitation, link: str) -> EmailMultiAlternatives:
    context = {
        "invitation": invitation,
        "organization": invitation.organization,
        "roles": [Role(role).label for role in invitation.roles],
        "link": link,
        "expires": timezone.localtime(invitation.expires_at),
        "existing_login": invitation.accepted_at is not None,
        "inviter": invitation.invited_by.get_full_name() or invitation.invited_by.get_username()
        if invitation.invited_by
        else "",
        "username": invitation.user.get_username(),
    }
    subject = f"Your login to Beano occasions for {invitation.organization}"
    message = EmailMultiAlternatives(
        subject=subject,
        body=render_to_string("organizations/mail/invitation.txt", context),
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[invitation.email],
    )
    message.attach_alternative(
        render_to_string("organizations/mail/invitation.html", context), "text/html"
    )
    return message


def send_invitation(invitation: Invitation, link: str) -> bool:
    try:
        invitation_message(invitation, link).send()
    except OSError:
        logger.exception(
            "The invitation %s could not be sent to %s", invitation.pk, invitation.email
        )
        return False
    return True
