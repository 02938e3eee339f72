"""Do the records still say what their audit trail last recorded?

The hash chain proves that no audit event was changed or removed; it says nothing of the rows
themselves. Every service write records the new values of the fields it changed, so folding an
organization's events in order gives, for each record and field the trail mentions, the value it
should hold now. A record that holds another value was changed behind the services' back: by
hand in the database, or in an archive on its way to a restore.

Only plain values are compared (money, counts, times, text, flags, JSON): an event may name a
foreign key by something readable (a game's number, an arrangement's code), so relations are
left out, and so are files and sealed values. Events keep times to the millisecond, so times are
compared to the millisecond.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.apps import apps
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime, parse_time

from beano.backup import scope
from organizations.audit import MASK
from organizations.models import AuditEvent, Organization

CHUNK = 500
NUMBERS = (models.DecimalField, models.IntegerField, models.FloatField)
TEXT = (models.CharField, models.TextField)


@dataclass(frozen=True)
class Difference:
    target_type: str
    target_id: str
    field: str
    recorded: Any
    current: Any
    sequence: int

    def __str__(self) -> str:
        return (
            f"{self.target_type} #{self.target_id}: {self.field} is {self.current!r}, but audit "
            f"event {self.sequence} recorded {self.recorded!r}"
        )


def differences(organization: Organization) -> list[Difference]:
    """Every field of the organization's records that differs from its last recorded value
    (shared rows, such as a person several organizations know, are not compared)."""
    latest: dict[str, dict[str, dict[str, tuple[Any, int]]]] = defaultdict(
        lambda: defaultdict(dict)
    )
    events = (
        AuditEvent.objects.filter(organization=organization)
        .order_by("sequence")
        .values_list("sequence", "target_type", "target_id", "new_values")
    )
    for sequence, target_type, target_id, new in events.iterator(chunk_size=2000):
        for name, value in (new or {}).items():
            latest[target_type][target_id][name] = (value, sequence)
    found: list[Difference] = []
    for target_type, records in latest.items():
        found += _compare(target_type, records)
    return sorted(found, key=lambda d: d.sequence)


def _compare(target_type: str, records: dict[str, dict[str, tuple[Any, int]]]) -> list[Difference]:
    try:
        model = apps.get_model(target_type)
    except (LookupError, ValueError):
        return []
    if not scope.organization_paths(model):
        # A shared row (a person) changes under other organizations' events too.
        return []
    fields = {
        f.name: f
        for f in model._meta.concrete_fields
        if not f.is_relation and not f.primary_key and not isinstance(f, models.FileField)
    }
    wanted = sorted({name for values in records.values() for name in values} & set(fields))
    if not wanted:
        return []
    pks: dict[Any, str] = {}
    for target_id in records:
        try:
            pks[model._meta.pk.to_python(target_id)] = target_id
        except ValidationError:
            continue
    found: list[Difference] = []
    keys = list(pks)
    for start in range(0, len(keys), CHUNK):
        rows = model._base_manager.filter(pk__in=keys[start : start + CHUNK]).values("pk", *wanted)
        for row in rows:
            target_id = pks[row["pk"]]
            for name, (recorded, sequence) in records[target_id].items():
                if name not in fields:
                    continue
                if agrees(fields[name], recorded, row[name]) is False:
                    found.append(
                        Difference(
                            target_type, target_id, name, recorded, _shown(row[name]), sequence
                        )
                    )
    return found


def agrees(field: models.Field, recorded: Any, current: Any) -> bool | None:
    """Whether the value an event recorded is the value the field holds; None when the two
    cannot be compared (a masked secret, a count recorded for a list)."""
    if recorded == MASK:
        return None
    if isinstance(field, TEXT):
        if recorded is None or isinstance(recorded, str):
            return (recorded or "") == (current or "")
        return None
    if recorded is None or current is None:
        return recorded is None and current is None
    if isinstance(field, models.BooleanField):
        return recorded == current if isinstance(recorded, bool) else None
    if isinstance(field, NUMBERS):
        if isinstance(recorded, bool):
            return None
        try:
            return Decimal(str(recorded)) == Decimal(str(current))
        except InvalidOperation:
            return None
    if isinstance(field, models.DateTimeField):
        when = parse_datetime(recorded) if isinstance(recorded, str) else None
        if when is None:
            return None
        if timezone.is_naive(when):
            when = timezone.make_aware(when)
        return when == current.replace(microsecond=current.microsecond // 1000 * 1000)
    if isinstance(field, models.DateField):
        day = parse_date(recorded) if isinstance(recorded, str) else None
        return None if day is None else day == current
    if isinstance(field, models.TimeField):
        moment = parse_time(recorded) if isinstance(recorded, str) else None
        if moment is None:
            return None
        return moment == current.replace(microsecond=current.microsecond // 1000 * 1000)
    plain = json.loads(json.dumps(current, cls=DjangoJSONEncoder))
    if type(plain) is not type(recorded):
        return None
    if recorded == plain:
        return True
    return False if isinstance(field, models.JSONField) else None


def _shown(value: Any) -> Any:
    if isinstance(value, Decimal | dt.date | dt.time):
        return str(value)
    return value
