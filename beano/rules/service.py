"""``enforce``: judge an action before it is saved; ``atomic``: the transaction a service runs in,
which records a refusal after the refused write has rolled back."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import threading
from collections.abc import Callable, Hashable, Sequence
from contextlib import ContextDecorator
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction

from beano.rules.authorizations import AuthorizationFact
from beano.rules.base import Decision, Rule, RuleViolation, Violation, Waiver, rules_for
from beano.rules.limits import Limits, limits_in_force


def judge(
    action: str,
    facts: Any,
    *,
    on: dt.date,
    authorizations: Sequence[AuthorizationFact] = (),
    limits: Limits | None = None,
    require_all: bool = False,
) -> Decision:
    """Every rule guarding ``action`` over the facts of its kind; a waivable rule's violations
    pass when an authorization of its kind (for the person, where granted to a person) is valid
    on ``on``. ``facts`` is one dataclass or a sequence of them; a rule whose kind of facts is
    not given is skipped, unless ``require_all`` (as ``enforce`` asks), which refuses to judge."""
    rules = rules_for(action)
    if not rules:
        raise LookupError(f"no rule guards the action {action!r}")
    given = list(facts) if isinstance(facts, list | tuple) else [facts]
    by_type = {type(f): f for f in given}
    limits = limits if limits is not None else limits_in_force(on)
    decision = Decision(action=action)
    for rule in rules:
        fact = by_type.get(rule.facts_type)
        if fact is None:
            if require_all:
                raise LookupError(
                    f"{action}: rule {rule.code} needs {rule.facts_type.__name__}, not given"
                )
            continue
        decision.checked.append(rule.code)
        messages = list(rule.check(fact, limits))
        if not messages:
            continue
        if rule.waiver is not None:
            person_id = getattr(fact, "person_id", None)
            granted = next(
                (a for a in authorizations if a.covers(rule.waiver, on, person_id)), None
            )
            if granted is not None:
                decision.waivers.append(
                    Waiver(rule.code, rule.citation, granted.pk, granted.reference)
                )
                continue
        decision.violations.extend(
            Violation(rule.code, rule.citation, _way_out(rule, m), rule.waivable) for m in messages
        )
    if not decision.checked:
        raise LookupError(f"{action}: none of the facts given is judged by its rules")
    return decision


WAY_OUT = "A Director's written authorization can allow this."


def _way_out(rule: Rule, message: str) -> str:
    """A refusal the Director may waive says so, where its own words do not already."""
    if rule.waiver is None or "Director" in message:
        return message
    return f"{message.rstrip()} {WAY_OUT}"


def _plain(value: Any) -> Any:
    """JSON-ready copy of facts: dataclasses (at any depth) become dicts."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = dataclasses.asdict(value)
    elif isinstance(value, dict):
        value = {k: _plain(v) for k, v in value.items()}
    elif isinstance(value, list | tuple):
        value = [_plain(v) for v in value]
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder, default=str))


def enforce(
    action: str,
    facts: Any,
    *,
    on: dt.date,
    actor: Any,
    organization: Any = None,
    authorizations: Sequence[AuthorizationFact] = (),
    limits: Limits | None = None,
) -> Decision:
    """Judge the action and raise one RuleViolation with every violation, or return the decision
    (with any waivers, which the service records on what it saves)."""
    decision = judge(
        action, facts, on=on, authorizations=authorizations, limits=limits, require_all=True
    )
    if decision.allowed:
        return decision
    user = actor if getattr(actor, "is_authenticated", False) else None
    refusal = {
        "user": user,
        "username": user.get_username() if user else "system",
        "organization_id": getattr(organization, "pk", None),
        "organization_name": str(organization) if organization is not None else "",
        "action": action,
        "on_date": on,
        "facts": _plain({"facts": facts, "authorizations": list(authorizations)}),
        "violations": [v.as_dict() for v in decision.violations],
        "citations": ", ".join(sorted({v.citation for v in decision.violations})),
    }
    raise RuleViolation(decision, refusal)


_state = threading.local()


def record_refusal(error: RuleViolation) -> None:
    """Write the refusal once, in its own transaction."""
    from beano.rules.models import RefusedAction

    if error.recorded or error.refusal is None:
        return
    with transaction.atomic():
        RefusedAction.objects.create(**error.refusal)
    error.recorded = True


def before_commit(key: Hashable, callback: Callable[[], None]) -> bool:
    """Run ``callback`` once (for ``key``) as the outermost service's last act, inside its
    transaction and after everything it wrote, so that what is kept from the records (the kept
    figures of a closed occasion whose records a paper entry changed) is written with the write
    that changed them. A failure rolls the write back. False outside a service: nothing to run
    it before."""
    if getattr(_state, "depth", 0) == 0:
        return False
    _state.pending.setdefault(key, callback)
    return True


def _run_pending() -> None:
    done: set[Hashable] = set()
    while waiting := [k for k in _state.pending if k not in done]:
        for key in waiting:
            done.add(key)
            _state.pending[key]()


class atomic(ContextDecorator):
    """``transaction.atomic`` for services: when a RuleViolation leaves the outermost service,
    its transaction has rolled back, and the refusal is recorded then, so it survives. What the
    services asked to run ``before_commit`` runs as the outermost one ends without an error."""

    def _recreate_cm(self) -> atomic:
        return atomic()  # a fresh one per decorated call: the instance holds per-call state

    def __enter__(self) -> atomic:
        _state.depth = getattr(_state, "depth", 0) + 1
        if _state.depth == 1:
            _state.pending = {}
        self._inner = transaction.atomic()
        self._inner.__enter__()
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> bool:
        failed: BaseException | None = None
        try:
            if exc_type is None and _state.depth == 1:
                try:
                    _run_pending()
                except BaseException as error:
                    failed = error
                    exc_type, exc, tb = type(error), error, error.__traceback__
            self._inner.__exit__(exc_type, exc, tb)
        finally:
            _state.depth -= 1
            if _state.depth == 0:
                _state.pending = {}
        refused = exc if isinstance(exc, RuleViolation) else getattr(exc, "__cause__", None)
        if isinstance(refused, RuleViolation) and _state.depth == 0:
            record_refusal(refused)  # also when a caller explained it in an error of its own
        if failed is not None:
            raise failed
        return False
