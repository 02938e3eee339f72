"""Entering a night, or part of one, after the fact from its paper control sheets.

``begin`` records which part of the night comes from paper (a ``PaperRecord``). Each act read
from its sheets is then given to the services with its moment from paper
(``occasions.moments.from_paper``): the time written on the sheet, which ``moment_of`` requires
inside the record's period, judged by the same rules as a live act as of that moment, and each
audit event carrying the provenance (entered after the fact, from which sheet, by whom and
when)."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.utils import timezone

from beano import rules
from beano.actors import Actor
from beano.text import text
from occasions.models import Occasion, PaperRecord
from organizations.audit import acting_user, record_event

TEXT_LENGTH = 300


@rules.atomic()
def begin(
    *,
    occasion: Occasion,
    sheets: str,
    reason: str,
    by: Actor,
    starts_at: dt.datetime | None = None,
    ends_at: dt.datetime | None = None,
    source: str = PaperRecord.Source.PAGES,
    file_name: str = "",
) -> PaperRecord:
    """Say which part of the night is entered from paper: the whole night (no times: an
    authorized day with nothing recorded), or from one time to another (an outage, a paper
    door). Refused for a sealed occasion; a whole night only while nothing of it is recorded."""
    from occasions.services import lock_occasion

    occasion = lock_occasion(occasion)
    if occasion.status == Occasion.Status.NOT_PLAYED:
        raise ValidationError("This day is recorded as not played: nothing of it is entered.")
    sheets = text(
        sheets, "sheets", limit=TEXT_LENGTH, missing="Name the control sheets being entered."
    )
    reason = text(
        reason, "reason", limit=TEXT_LENGTH, missing="Say why the night was not recorded live."
    )
    if (starts_at is None) != (ends_at is None):
        raise ValidationError("Give both the time the paper part starts and when it ends.")
    now = timezone.now()
    if occasion.date > timezone.localdate(now):
        raise ValidationError("A night still to come is not entered from paper.")
    if starts_at is None:
        scope = PaperRecord.Scope.WHOLE
        if occasion.status != Occasion.Status.SCHEDULED:
            raise ValidationError(
                "Part of this night is already recorded: enter the part kept on paper, from "
                "one time to another."
            )
    else:
        scope = PaperRecord.Scope.PART
        assert ends_at is not None
        if timezone.is_naive(starts_at) or timezone.is_naive(ends_at):
            raise ValidationError("Give the times with their time zone.")
        if ends_at < starts_at:
            raise ValidationError({"ends_at": "The paper part ends after it starts."})
        if ends_at > now:
            raise ValidationError({"ends_at": "A part of the night still to come is not paper."})
        for moment in (starts_at, ends_at):
            if not occasion.records_on(timezone.localtime(moment).date()):
                raise ValidationError(
                    f"{timezone.localtime(moment):%B %-d, %Y at %-I:%M %p} is not during the "
                    f"occasion of {occasion.date:%A, %B %-d, %Y}."
                )
    record = PaperRecord.objects.create(
        occasion=occasion,
        scope=scope,
        starts_at=starts_at,
        ends_at=ends_at,
        sheets=sheets,
        reason=reason,
        source=source,
        file_name=file_name[:200],
        entered_by=acting_user(by),
        created_at=now,
    )
    record_event(
        organization=occasion.organization,
        actor=by,
        action="occasions.paper_record.begun",
        target=record,
        new={
            "scope": scope,
            "starts_at": starts_at,
            "ends_at": ends_at,
            "sheets": sheets,
            "reason": reason,
            "source": source,
            "file_name": record.file_name,
        },
    )
    return record
