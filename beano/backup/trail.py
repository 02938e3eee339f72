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

Two lists an event records inside its record's values are compared with the rows that hold them:
a sale's lines (each line's item, category, quantity, price and amount) and a close-out's counts
by category. And the money records (``MONEY_RECORDS``) must each have an audit event, and every
money record an event names must still be there unless its last event removed it: a payout
inserted in its table, or a sale deleted from it, is found too.
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
from equipment.models import FORMER_LABELS
from occasions.models import SaleLine
from organizations.audit import MASK
from organizations.models import AuditEvent, Organization
from reports.models import ClosingCount

CHUNK = 500
NUMBERS = (models.DecimalField, models.IntegerField, models.FloatField)
TEXT = (models.CharField, models.TextField)

#: The records that hold money, each written with an audit event by its service.
MONEY_RECORDS = (
    "occasions.sale",
    "occasions.othersale",
    "occasions.charityticketsale",
    "occasions.charityredemption",
    "occasions.raffleticketsale",
    "occasions.doorprize",
    "occasions.gift",
    "occasions.refund",
    "occasions.policedetail",
    "games.winner",
    "games.payout",
    "reports.closeout",
    "reports.drawercount",
    "reports.gamingaccount",
    "reports.deposit",
    "reports.bankentry",
    "reports.bankreconciliation",
    "reports.expense",
    "reports.lawfulpurposedisbursement",
    "reports.financialreport",
    "reports.annualreport",
)
#: What a sale's recorded lines say, and the SaleLine column holding it.
LINE_FIELDS = {
    "item": "price_item_id",
    "category": "category",
    "quantity": "quantity",
    "unit_price": "unit_price",
    "amount": "amount",
}


@dataclass(frozen=True)
class Difference:
    target_type: str
    target_id: str
    field: str
    recorded: Any
    current: Any
    sequence: int
    #: Said instead of a value that differs: a record with no event, or one gone.
    note: str = ""

    def __str__(self) -> str:
        if self.note:
            return f"{self.target_type} #{self.target_id}: {self.note}"
        return (
            f"{self.target_type} #{self.target_id}: {self.field} is {self.current!r}, but audit "
            f"event {self.sequence} recorded {self.recorded!r}"
        )


Latest = dict[str, dict[str, dict[str, tuple[Any, int]]]]


def differences(organization: Organization) -> list[Difference]:
    """Every field of the organization's records that differs from its last recorded value
    (shared rows, such as a person several organizations know, are not compared), every sale
    line and close-out count that differs, and every money record with no event or gone."""
    latest: Latest = defaultdict(lambda: defaultdict(dict))
    last_action: dict[tuple[str, str], tuple[str, int]] = {}
    events = (
        AuditEvent.objects.filter(organization=organization)
        .order_by("sequence")
        .values_list("sequence", "target_type", "target_id", "action", "new_values")
    )
    for sequence, written_as, target_id, action, new in events.iterator(chunk_size=2000):
        target_type = FORMER_LABELS.get(written_as, written_as)  # a model moved to another app
        last_action[target_type, target_id] = (action, sequence)
        for name, value in (new or {}).items():
            latest[target_type][target_id][name] = (value, sequence)
    found: list[Difference] = []
    for target_type, records in latest.items():
        found += _compare(target_type, records)
    found += _sale_lines(latest.get("occasions.sale", {}))
    found += _closeout_counts(latest.get("reports.closeout", {}))
    found += _money_records(organization, last_action)
    return sorted(found, key=lambda d: d.sequence)


def money_records_count(organization: Organization) -> int:
    """How many money records the organization holds (what ``differences`` accounts for)."""
    return sum(
        scope.organization_queryset(apps.get_model(label), organization.pk).count()
        for label in MONEY_RECORDS
    )


#: The last words of the actions that take a money record away: removed on its page, undone
#: when the amendment that added it is withdrawn (``reports/amendment_state.py``).
REMOVALS = frozenset({"removed", "undone"})


def _money_records(
    organization: Organization, last_action: dict[tuple[str, str], tuple[str, int]]
) -> list[Difference]:
    """Money records with no audit event, and money records an event names that are gone
    although no event removed them."""
    found: list[Difference] = []
    for label in MONEY_RECORDS:
        model = apps.get_model(label)
        rows = scope.organization_queryset(model, organization.pk)
        present = {str(pk) for pk in rows.values_list("pk", flat=True)}
        named = {target_id for (kind, target_id) in last_action if kind == label}
        for target_id in sorted(present - named, key=_numeric):
            if label == "reports.closeout" and _untouched_closeout(target_id):
                continue  # made empty by the first expense or amendment, nothing in it yet
            found.append(
                Difference(label, target_id, "", None, None, 0, "no audit event records it")
            )
        for target_id in sorted(named - present, key=_numeric):
            action, sequence = last_action[label, target_id]
            if action.rsplit(".", 1)[-1] in REMOVALS:
                continue
            found.append(
                Difference(
                    label,
                    target_id,
                    "",
                    None,
                    None,
                    sequence,
                    f"it is gone, but audit event {sequence} ({action}) is its last",
                )
            )
    return found


def _numeric(value: str) -> tuple[int, str]:
    return (int(value), value) if value.isdigit() else (0, value)


def _untouched_closeout(target_id: str) -> bool:
    closeout = apps.get_model("reports.closeout")._base_manager.filter(pk=target_id).first()
    return (
        closeout is not None
        and closeout.opening_bank == 0
        and closeout.cash_counted is None
        and not closeout.explanation
        and not ClosingCount.objects.filter(closeout=closeout).exists()
    )


def _sale_lines(sales: dict[str, dict[str, tuple[Any, int]]]) -> list[Difference]:
    """Each sale's lines, in the order they were sold, against the lines its event recorded."""
    recorded = {
        sid: values["lines"]
        for sid, values in sales.items()
        if "lines" in values and isinstance(values["lines"][0], list)
    }
    rows: dict[str, list[dict[str, Any]]] = defaultdict(list)
    ids = list(recorded)
    for start in range(0, len(ids), CHUNK):
        lines = SaleLine.objects.filter(sale_id__in=ids[start : start + CHUNK]).order_by("pk")
        for line in lines.values("sale_id", *LINE_FIELDS.values()):
            rows[str(line["sale_id"])].append(line)
    found: list[Difference] = []
    for sale_id, (lines, sequence) in recorded.items():
        current = rows.get(sale_id, [])
        if len(current) != len(lines):
            found.append(
                Difference(
                    "occasions.sale",
                    sale_id,
                    "lines",
                    len(lines),
                    len(current),
                    sequence,
                    f"it has {len(current)} line(s), but audit event {sequence} recorded "
                    f"{len(lines)}",
                )
            )
            continue
        for number, (line, row) in enumerate(zip(lines, current, strict=True), start=1):
            for key, column in LINE_FIELDS.items():
                if key not in line:
                    continue
                value = row[column]
                if column == "price_item_id":
                    differs = str(line[key]) != str(value)
                else:
                    differs = agrees(SaleLine._meta.get_field(column), line[key], value) is False
                if differs:
                    found.append(
                        Difference(
                            "occasions.sale",
                            sale_id,
                            f"line {number} {key}",
                            line[key],
                            _shown(value),
                            sequence,
                        )
                    )
    return found


def _closeout_counts(closeouts: dict[str, dict[str, tuple[Any, int]]]) -> list[Difference]:
    """Each close-out's counts by category against the counts its last event recorded."""
    recorded = {
        cid: values["counts"]
        for cid, values in closeouts.items()
        if "counts" in values and isinstance(values["counts"][0], dict)
    }
    current: dict[str, dict[str, int]] = defaultdict(dict)
    rows = ClosingCount.objects.filter(closeout_id__in=list(recorded))
    for closeout_id, category, counted in rows.values_list("closeout_id", "category", "counted"):
        current[str(closeout_id)][category] = counted
    found: list[Difference] = []
    for closeout_id, (counts, sequence) in recorded.items():
        now = current.get(closeout_id, {})
        for category in sorted(set(counts) | set(now)):
            if counts.get(category) != now.get(category):
                found.append(
                    Difference(
                        "reports.closeout",
                        closeout_id,
                        f"count of {category}",
                        counts.get(category),
                        now.get(category),
                        sequence,
                    )
                )
    return found


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
