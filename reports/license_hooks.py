"""The reports owed brought up to date when a license changes, besides beat's nightly
``reports.record_obligations``: licenses are changed in the admin and by commands, not by one
service, so the hook is the model's signals.

Before the change is saved, the days owed under the license as it stood are recorded in the same
transaction (a license revoked or shortened today keeps the reports its past days owe); once the
change commits, the days the license now authorizes up to today are recorded too. Both are
writes of the request or command that changes the license, never of a page that reads.
The same once the organization's start of records (``reports_from``) changes: a start moved
earlier owes the days between (``ensure_obligations`` fills every gap), one moved later leaves the
days before it recorded but owed no more (the reads count from the start).
Deleting a license records nothing: a license entered by mistake leaves no reports owed (one
whose days were recorded is protected from deletion by them)."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction
from django.db.models.signals import post_save, pre_save
from django.utils import timezone

from organizations.models import License, Organization
from reports.obligations import ensure_obligations


def bring_up_to_date(organization_id: int) -> int:
    """Record the organization's obligations up to today; how many were added."""
    organizations = Organization.objects.filter(pk=organization_id)
    return ensure_obligations(organizations, timezone.localdate())


def _before_change(sender: type, instance: License, **kwargs: Any) -> None:
    if instance.pk is not None and instance.organization_id is not None:
        bring_up_to_date(instance.organization_id)


def _after_change(sender: type, instance: License, **kwargs: Any) -> None:
    if kwargs.get("raw"):  # loaddata, a backup restored: the records come with it
        return
    transaction.on_commit(partial(bring_up_to_date, instance.organization_id), robust=True)


def _start_moved(sender: type, instance: Organization, **kwargs: Any) -> None:
    if instance.pk is None or kwargs.get("raw"):
        return
    before = Organization.objects.filter(pk=instance.pk).values_list("reports_from", flat=True)
    if before and before[0] != instance.reports_from:
        transaction.on_commit(partial(bring_up_to_date, instance.pk), robust=True)


def connect() -> None:
    """Called from ``ReportsConfig.ready``."""
    pre_save.connect(_start_moved, sender=Organization, dispatch_uid="reports-records-begin")
    pre_save.connect(_before_change, sender=License, dispatch_uid="reports-license-before")
    post_save.connect(_after_change, sender=License, dispatch_uid="reports-license-after")
