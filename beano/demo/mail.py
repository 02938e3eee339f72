"""The demo's mail: every demo login has an address at example.org, and the reminders the demo's
nights call for today are sent, so a new user finds them under the data folder's mail/ (the
embedded default's ``console+file://``) and on the head's and the bookkeeper's dashboards."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.contrib.auth import get_user_model

from beano.demo.licensees import ORGANIZATIONS
from organizations.models import Organization
from reports.reminder_services import send_reminders

DEMO_MAIL_DOMAIN = "example.org"


def give_emails(usernames: Iterable[str]) -> None:
    """An address for each demo login that has none (``<username>@example.org``)."""
    for user in get_user_model().objects.filter(username__in=list(usernames), email=""):
        user.email = f"{user.username}@{DEMO_MAIL_DOMAIN}"
        user.save(update_fields=["email"])


def send_demo_reminders(today: dt.date) -> int:
    """Today's reminders of the demo's organizations (a report late among them: the demo keeps
    one late, and one missing or due by the day of the week); once each, so seeding again sends
    nothing new."""
    names = [spec["name"] for spec in ORGANIZATIONS]
    return send_reminders(today=today, organizations=Organization.objects.filter(name__in=names))
