"""The acts the hall laptop queued while offline, received in order and judged one by one, each
in its own transaction, by the same form and the same service the live page uses, as of the
moment the laptop claims for it (``moments.from_queue``), that moment first judged by the rule
on claimed times (``beano.rules.queue``). Every act sent is kept as a ``QueuedAct`` with what was
answered: the same key sent again (from any laptop) records nothing and gets the same answer.

The act's form is the live form's (its path resolved to one of ``ACTS``, whose organization and
occasion must be this one's); the acting user is the session's, as the live page's is, and may
do through the queue only what the access matrix lets them do on the live page. A second
person's act (a void's witness, a payout's verifier) is judged exactly as live: their password
or PIN is in the fields, typed once the laptop was online again, and never kept here."""

from __future__ import annotations

import contextlib
import datetime as dt
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.db import IntegrityError, transaction
from django.http import Http404, QueryDict
from django.urls import Resolver404, resolve
from django.utils import timezone

from beano import rules
from beano.actors import Actor
from beano.refusals import plain_first
from beano.rules.queue import QUEUED_ACT, ClaimedTimeFacts
from occasions import moments
from occasions.models import Occasion
from offline import queue_acts
from offline.models import QueuedAct
from organizations.access import OrgAccess
from organizations.audit import provenance

#: The code of the rule on claimed times (``beano.rules.queue``).
TIME_CODE = "H-7-QUEUED-TIME"
#: What the member in charge is told to do with an act refused.
SAY_AGAIN = "Enter it again from the paper sheet, with the time written there."
SAY_CLOCK = "Check the laptop's clock, then enter it from the paper sheet with the time written."
SAY_SIGN = "Have the witness or verifier type their password or PIN, then send it again."
#: Fields whose values are never kept with the act (secrets, the W-2G payee's details).
SECRET_FIELDS = frozenset(
    {
        "witness_secret",
        "verifier_secret",
        "tin",
        "id1_number",
        "id2_number",
        "w2g_legal_name",
        "w2g_address",
        "group",
        "csrfmiddlewaretoken",
    }
)
MASK = "•••"
#: The fields of a second person's confirmation: a refusal of such an act is signed again.
SECOND_PERSON = frozenset({"witness_secret", "verifier_secret"})


@dataclass(frozen=True)
class Act:
    """One act as the laptop sent it (the contract's §2)."""

    seq: int
    key: uuid.UUID
    path: str
    fields: tuple[tuple[str, str], ...]
    done_at: dt.datetime
    laptop_at: dt.datetime | None = None
    offset_ms: int = 0


@dataclass
class Refused(Exception):
    """An act refused before its service ran (a path not of this occasion, bad input)."""

    message: str
    code: str = ""
    todo: str = SAY_AGAIN


@dataclass
class Result:
    """What is answered for one act (and kept with it)."""

    seq: int
    key: str
    state: str
    said: str = ""
    refusal: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    claimed_at: str = ""
    received_at: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "key": self.key,
            "state": self.state,
            "said": self.said,
            "refusal": self.refusal,
            **self.extra,
            "claimed_at": self.claimed_at,
            "received_at": self.received_at,
        }


def _iso(moment: dt.datetime | None) -> str:
    if moment is None:
        return ""
    return timezone.localtime(moment).isoformat(timespec="milliseconds")


def kept_fields(pairs: Sequence[tuple[str, str]]) -> list[list[str]]:
    """The pairs as kept with the act: a secret's value masked."""
    return [
        [name, MASK if _bare(name) in SECRET_FIELDS and value else value] for name, value in pairs
    ]


def _bare(name: str) -> str:
    """A field's name without its form's prefix ("payout12-verifier_secret")."""
    return name.rsplit("-", 1)[-1]


def refusal_of(message: str, *, code: str = "", todo: str = SAY_AGAIN) -> dict[str, Any]:
    """A refusal as the laptop shows it: the sentence, its parts (words, then citation)."""
    parts = plain_first(message)
    return {
        "message": message,
        "parts": [{"words": p.words, "citation": p.citation} for p in parts],
        "code": code,
        "todo": todo,
    }


def _error_message(error: ValidationError) -> tuple[str, str]:
    """A service's refusal as one sentence, and the rule's code when a rule refused."""
    cause = error if isinstance(error, rules.RuleViolation) else error.__cause__
    code = ""
    if isinstance(cause, rules.RuleViolation):
        code = ", ".join(v.code for v in cause.decision.violations)
    if hasattr(error, "error_dict"):
        messages = [m for errors in error.message_dict.values() for m in errors]
    else:
        messages = list(error.messages)
    return " ".join(messages) or "Refused.", code


def _judge_time(
    occasion: Occasion, act: Act, device: str, received: dt.datetime, by: Actor
) -> None:
    """The rule on claimed times (raises its RuleViolation, recorded as every refusal is)."""
    previous = (
        QueuedAct.objects.filter(occasion=occasion, device=device, seq__lt=act.seq)
        # An act refused for its own claimed time does not hold back the ones after it.
        .exclude(refusal_code=TIME_CODE)
        .order_by("-seq")
        .values_list("done_at", flat=True)
        .first()
    )
    local = timezone.localtime
    rules.enforce(
        QUEUED_ACT,
        ClaimedTimeFacts(
            claimed=local(act.done_at),
            received=local(received),
            opened=local(occasion.opened_at) if occasion.opened_at else None,
            previous=local(previous) if previous else None,
        ),
        on=occasion.date,
        actor=by,
        organization=occasion.organization,
    )


def _stored(row: QueuedAct) -> Result:
    answer = dict(row.answer or {})
    return Result(
        seq=answer.get("seq", row.seq),
        key=str(row.key),
        state=row.state,
        said=row.said,
        refusal=answer.get("refusal"),
        extra=answer.get("extra", {}),
        claimed_at=_iso(row.done_at),
        received_at=_iso(row.received_at),
    )


def _target(access: OrgAccess, occasion: Occasion, path: str) -> tuple[str, dict[str, Any]]:
    """The url name and arguments of the live form at ``path``, one of ``ACTS``, of this
    organization and occasion, and written by the acting user on the live page too."""
    try:
        match = resolve(path.split("?", 1)[0])
    except Resolver404:
        raise Refused(f"No page of this application is at {path[:100]}.", "path") from None
    name = match.url_name or ""
    if name not in queue_acts.ACTS:
        raise Refused("This kind of act cannot be sent from the laptop's queue.", "path")
    kwargs = dict(match.kwargs)
    if kwargs.get("org_id") != occasion.organization_id or kwargs.get("pk") != occasion.pk:
        raise Refused("This act is of another occasion than the one it was sent to.", "path")
    if not access.may_write(name):
        raise Refused("You may not do this act on the floor.", "role")
    return name, kwargs


def _run(
    occasion: Occasion, access: OrgAccess, act: Act, device: str, by: Actor, received: dt.datetime
) -> tuple[Result, tuple[str, int | None]]:
    """Judge and record one act; raise ``Refused`` or ValidationError when it is refused."""
    name, kwargs = _target(access, occasion, act.path)
    _judge_time(occasion, act, device, received, by)
    # Within the clocks' slack, a moment claimed after the act was received is the receipt's.
    moment = moments.from_queue(
        min(act.done_at, received),
        device=device,
        queued_at=act.laptop_at or act.done_at,
        received_at=received,
    )
    data = QueryDict(mutable=True)
    for key, value in act.fields:
        data.appendlist(key, value)
    data["request_key"] = str(act.key)
    doing = queue_acts.Doing(
        occasion=occasion, access=access, by=by, at=moment, key=act.key, data=data, kwargs=kwargs
    )
    with provenance(moment.provenance):
        done = queue_acts.ACTS[name](doing)
    result = Result(
        seq=act.seq,
        key=str(act.key),
        state=QueuedAct.State.RECORDED,
        said=done.said,
        extra=dict(done.extra),
        claimed_at=_iso(act.done_at),
        received_at=_iso(received),
    )
    return result, (done.target_type, done.target_id)


def receive(
    *,
    occasion: Occasion,
    device: str,
    acts: Sequence[Act],
    by: Actor,
    access: OrgAccess,
    received_at: dt.datetime | None = None,
) -> list[Result]:
    """Each act in ``seq`` order, in its own transaction: answered from its ``QueuedAct`` when
    its key was received before, else judged and recorded (or refused) and kept."""
    received = received_at or timezone.now()
    return [
        _receive_one(occasion, access, act, device, by, received)
        for act in sorted(acts, key=lambda a: a.seq)
    ]


def _receive_one(
    occasion: Occasion, access: OrgAccess, act: Act, device: str, by: Actor, received: dt.datetime
) -> Result:
    try:
        with transaction.atomic():
            return _answer(occasion, access, act, device, by, received)
    except IntegrityError:
        # The same key kept meanwhile by another request: its answer is this one's.
        row = QueuedAct.objects.filter(occasion=occasion, key=act.key).first()
        if row is None:
            raise
        return _stored(row)


def _answer(
    occasion: Occasion, access: OrgAccess, act: Act, device: str, by: Actor, received: dt.datetime
) -> Result:
    row = QueuedAct.objects.filter(occasion=occasion, key=act.key).first()
    if row is not None:
        return _stored(row)
    target: tuple[str, int | None] = ("", None)
    try:
        result, target = _run(occasion, access, act, device, by, received)
    except Refused as refused:
        result = _refused(
            act, received, refusal_of(refused.message, code=refused.code, todo=refused.todo)
        )
    except (Http404, ObjectDoesNotExist):
        result = _refused(
            act,
            received,
            refusal_of("What this act names is not at this occasion.", code="not_found"),
        )
    except ValidationError as error:
        if isinstance(error, rules.RuleViolation):
            rules.record_refusal(error)  # the claimed time's, judged outside any service
        message, code = _error_message(error)
        todo = SAY_CLOCK if code == TIME_CODE else SAY_AGAIN
        signed = any(_bare(name) in SECOND_PERSON for name, _ in act.fields)
        if signed and ("password" in message.lower() or "PIN" in message):
            todo = SAY_SIGN
        result = _refused(act, received, refusal_of(message, code=code, todo=todo))
    _keep(occasion, act, device, by, received, result, target)
    return result


def _refused(act: Act, received: dt.datetime, refusal: dict[str, Any]) -> Result:
    return Result(
        seq=act.seq,
        key=str(act.key),
        state=QueuedAct.State.REFUSED,
        refusal=refusal,
        claimed_at=_iso(act.done_at),
        received_at=_iso(received),
    )


def _keep(
    occasion: Occasion,
    act: Act,
    device: str,
    by: Actor,
    received: dt.datetime,
    result: Result,
    target: tuple[str, int | None],
) -> None:
    refusal = result.refusal or {}
    parts = refusal.get("parts") or []
    name = ""
    with contextlib.suppress(Resolver404):
        name = resolve(act.path.split("?", 1)[0]).url_name or ""
    QueuedAct.objects.create(
        occasion=occasion,
        device=device[:64],
        seq=act.seq,
        key=act.key,
        action=name[:40],
        path=act.path[:300],
        fields=kept_fields(act.fields),
        done_at=act.done_at,
        laptop_at=act.laptop_at,
        offset_ms=act.offset_ms,
        received_at=received,
        user=by if getattr(by, "is_authenticated", False) else None,
        state=result.state,
        target_type=target[0],
        target_id=target[1],
        said=result.said,
        answer={"seq": act.seq, "refusal": result.refusal, "extra": result.extra},
        refusal_message=refusal.get("message", ""),
        refusal_citation=", ".join(sorted({p["citation"] for p in parts if p["citation"]})),
        refusal_code=refusal.get("code", "")[:60],
    )
