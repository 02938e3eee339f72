"""Writes to occasions' calendar. Each is one transaction with its audit event; rules are
enforced before anything is saved."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError

from beano import rules
from occasions.models import Occasion, ResumptionNotice
from occasions.selectors import authorized_license
from organizations.audit import record_event
from organizations.models import Organization


@rules.atomic()
def occasion_for_day(*, organization: Organization, day: dt.date, by: Any) -> Occasion:
    """The occasion of an authorized day, recorded the first time anyone acts on it."""
    existing = Occasion.objects.filter(organization=organization, date=day).first()
    if existing is not None:
        return existing
    license = authorized_license(organization, day)
    if license is None:
        raise ValidationError(f"{day:%A, %B %-d, %Y} is not a day the license authorizes.")
    occasion = Occasion.objects.create(organization=organization, license=license, date=day)
    record_event(
        organization=organization,
        actor=by,
        action="occasions.occasion.scheduled",
        target=occasion,
        new={"date": day, "license": license.number},
    )
    return occasion


@rules.atomic()
def mark_not_played(*, occasion: Occasion, reason: str, by: Any) -> Occasion:
    """Record that Beano was not played on an authorized day: its report is still owed."""
    occasion = Occasion.objects.select_for_update().get(pk=occasion.pk)
    reason = " ".join(reason.split())
    if occasion.status != Occasion.Status.SCHEDULED:
        raise ValidationError(
            f"This occasion is {occasion.get_status_display().lower()}; only a scheduled one "
            "can be marked not played."
        )
    if not reason:
        raise ValidationError({"reason": "Say why Beano was not played."})
    occasion.status = Occasion.Status.NOT_PLAYED
    occasion.not_played_reason = reason[:300]
    occasion.save(update_fields=["status", "not_played_reason"])
    record_event(
        organization=occasion.organization,
        actor=by,
        action="occasions.occasion.not_played",
        target=occasion,
        old={"status": Occasion.Status.SCHEDULED},
        new={"status": occasion.status, "reason": occasion.not_played_reason},
    )
    return occasion


@rules.atomic()
def record_resumption_notice(
    *, organization: Organization, sent_on: dt.date, reference: str, by: Any
) -> ResumptionNotice:
    """The written notice to the Commission before play resumes (961 CMR 3.05(1)(b))."""
    reference = reference.strip()
    if not reference:
        raise ValidationError({"reference": "Give the letter's or e-mail's reference."})
    notice = ResumptionNotice(
        organization=organization, sent_on=sent_on, reference=reference[:100], recorded_by=by
    )
    notice.full_clean()
    notice.save()
    record_event(
        organization=organization,
        actor=by,
        action="occasions.resumption_notice.recorded",
        target=notice,
        new={"sent_on": sent_on, "reference": notice.reference},
    )
    return notice
