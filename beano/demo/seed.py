"""The whole demo, in the order its parts build on each other, in one transaction."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model

from beano import locking
from beano.demo import bank, last_year, occasions, reports
from beano.demo.api_tokens import seed_api_tokens
from beano.demo.authenticators import seed_demo_devices
from beano.demo.mail import give_emails, send_demo_reminders
from beano.demo.organizations import Seeder
from beano.demo.people import seed_pending_invitations
from beano.demo.practice_hall import seed_practice_hall
from beano.demo.practice_night import seed_practice_night
from occasions.models import Occasion
from organizations.verification import verify_unverified


@dataclass(frozen=True)
class Seeded:
    logins: list[tuple[str, str]]  # (username, what it is)
    practice: Occasion | None  # today's practice occasion
    devices: list[tuple[str, Any]]  # (username, demo TOTP device) of the Commission's logins
    api_tokens: list[tuple[str, str]]  # (the published plain token, what it is)


def seed(today: dt.date, *, pdfs: bool = True) -> Seeded:
    """Loads the demo as of ``today`` (idempotent). ``pdfs=False`` leaves the filed reports'
    PDFs unrendered: they take most of the time, and only the PDFs' own tests need them."""
    with locking.alone():  # one transaction, on an empty database: no other writer waits
        logins = Seeder().seed(today)
        logins += seed_practice_hall(today)
        occasions.seed(today)
        reports.seed(today, pdfs=pdfs)
        last_year.seed()  # a night of 2025 whose $1,500 jackpot needed a W-2G
        bank.seed(today)
        practice = seed_practice_night(today)
        api_tokens = seed_api_tokens()  # its floor tokens act as the night's signed-in workers
        give_emails(u for u, _ in logins)
        send_demo_reminders(today)
        seed_pending_invitations()
        users = get_user_model().objects.filter(username__in=[u for u, _ in logins])
        devices = seed_demo_devices(list(users.order_by("username")))
    # The closes and filings above kept their figures (reports.kept); each chain not yet
    # checked whole through its last event is checked now, so that the audit trail page shows
    # its checkpoint (a second seeding, which writes nothing, finds none to check).
    verify_unverified()
    return Seeded(logins, practice, devices, api_tokens)
