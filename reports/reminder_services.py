"""Sending the reminders of a day (``reports.reminders``) to each organization's head and
bookkeeper: once per person and event (``SentReminder``'s unique key), listed on their
dashboard, and e-mailed unless they turned that optional reminder off."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils import timezone

from beano.accounts.models import OptionalReminder
from beano.accounts.reminder_preferences import opted_out_by_user
from organizations.models import Organization, OrganizationRole, Role
from reports.reminder_models import SentReminder
from reports.reminders import ReminderEvent, events_on

log = logging.getLogger(__name__)

#: Those who file what is owed are reminded of it.
RECIPIENT_ROLES = (Role.HEAD, Role.BOOKKEEPER)


def recipients(organizations: Iterable[Organization]) -> dict[int, list[Any]]:
    """Each organization's active heads and bookkeepers (a person once): one query."""
    out: dict[int, dict[int, Any]] = {}
    for role in OrganizationRole.objects.filter(
        organization__in=list(organizations), role__in=RECIPIENT_ROLES, user__is_active=True
    ).select_related("user"):
        out.setdefault(role.organization_id, {})[role.user_id] = role.user
    return {org_id: list(users.values()) for org_id, users in out.items()}


def reminder_message(event: ReminderEvent, user: Any) -> EmailMultiAlternatives:
    """The e-mail of one reminder, in plain text and HTML."""
    context = {
        "event": event,
        "user": user,
        "organization": event.organization,
        "url": settings.SITE_URL.rstrip("/") + event.link,
        **event.context,
    }
    body = render_to_string(f"reports/reminders/{event.kind}.txt", context)
    html = render_to_string(f"reports/reminders/{event.kind}.html", context)
    message = EmailMultiAlternatives(
        subject=event.subject, body=body, from_email=None, to=[user.email]
    )
    message.attach_alternative(html, "text/html")
    return message


def _send_one(event: ReminderEvent, user: Any, emailed: bool, now: dt.datetime) -> bool:
    """Record and send one reminder; False when it was sent before. The row and the mail go
    together: a mail that fails rolls its row back, so the next run tries again."""
    try:
        with transaction.atomic():
            SentReminder.objects.create(
                organization=event.organization,
                user=user,
                kind=event.kind,
                event_key=event.key,
                subject=event.subject[:200],
                link=event.link,
                sent_at=now,
                emailed=emailed,
            )
            if emailed:
                reminder_message(event, user).send()
    except IntegrityError:
        return False
    return True


def send_reminders(
    *, today: dt.date | None = None, organizations: Iterable[Organization] | None = None
) -> int:
    """Send today's reminders not sent before; returns how many were recorded. Idempotent."""
    today = today or timezone.localdate()
    orgs = list(organizations if organizations is not None else Organization.objects.all())
    events = events_on(orgs, today)
    if not events:
        return 0
    people = recipients(orgs)
    opted = opted_out_by_user(u.pk for users in people.values() for u in users)
    already = set(
        SentReminder.objects.filter(
            organization__in=orgs, event_key__in={e.key for e in events}
        ).values_list("user_id", "kind", "event_key")
    )
    optional = set(OptionalReminder.values)
    now = timezone.now()
    sent = 0
    for event in events:
        for user in people.get(event.organization.pk, []):
            if (user.pk, event.kind, event.key) in already:
                continue
            emailed = bool(user.email) and not (
                event.kind in optional and event.kind in opted.get(user.pk, set())
            )
            try:
                if _send_one(event, user, emailed, now):
                    sent += 1
            except OSError as error:  # the mail server: the next run tries again
                log.warning("reminder %s %s to %s not sent: %s", event.kind, event.key, user, error)
    return sent
