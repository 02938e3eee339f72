"""Rules, violations and the registry. A rule is a pure function of plain facts (dataclasses,
no ORM) and the limits in force, returning the messages of its violations."""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError

from beano.rules.limits import Limits

CheckFunc = Callable[[Any, Limits], Iterable[str]]


@dataclass(frozen=True)
class Rule:
    code: str
    citation: str
    title: str
    guards: tuple[str, ...]
    check: CheckFunc = field(repr=False, compare=False)
    waiver: str | None = None  # the AuthorizationKind that can waive it, if the Director may

    @property
    def waivable(self) -> bool:
        return self.waiver is not None

    @property
    def facts_type(self) -> type:
        """The dataclass the check reads (its first parameter's annotation)."""
        return _facts_type(self.check)

    @property
    def description(self) -> str:
        return (self.check.__doc__ or self.title).strip()


@functools.cache
def _facts_type(check: CheckFunc) -> type:
    """Read once per check: resolving the annotations is the costliest part of judging."""
    hints = typing.get_type_hints(check)
    first = next(iter(inspect.signature(check).parameters))
    return hints[first]


@dataclass(frozen=True)
class Violation:
    code: str
    citation: str
    message: str
    waivable: bool

    def __str__(self) -> str:
        return f"{self.citation}: {self.message}"

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "citation": self.citation, "message": self.message}


@dataclass(frozen=True)
class Waiver:
    """A rule that would have refused, passed by a Director's authorization valid on the date."""

    code: str
    citation: str
    authorization_pk: int
    reference: str


@dataclass
class Decision:
    action: str
    violations: list[Violation] = field(default_factory=list)
    waivers: list[Waiver] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)

    @property
    def allowed(self) -> bool:
        return not self.violations

    @property
    def messages(self) -> tuple[str, ...]:
        """Each violation as the rules give it, its citation first (``Violation.__str__``)."""
        return tuple(str(v) for v in self.violations)

    @property
    def authorization_pks(self) -> list[int]:
        return sorted({w.authorization_pk for w in self.waivers})


class RuleViolation(ValidationError):
    """One refusal carrying every violation; each message starts with its citation."""

    def __init__(self, decision: Decision, refusal: dict[str, Any] | None = None) -> None:
        self.decision = decision
        self.violations = list(decision.violations)
        self.refusal = refusal
        self.recorded = False
        super().__init__(list(decision.messages))

    @property
    def citations(self) -> list[str]:
        return sorted({v.citation for v in self.violations})


REGISTRY: dict[str, Rule] = {}


def rule(
    *, code: str, citation: str, title: str, guards: Iterable[str], waiver: str | None = None
) -> Callable[[CheckFunc], CheckFunc]:
    """Register a check function as a rule. Codes are stable: reports and logs refer to them."""

    def register(check: CheckFunc) -> CheckFunc:
        if code in REGISTRY:
            raise ValueError(f"rule code {code} is registered twice")
        if not (citation.startswith("961 CMR 3.0") or citation.startswith("M.G.L. c. 10 §")):
            raise ValueError(f"rule {code}: citation {citation!r} is not in the house form")
        REGISTRY[code] = Rule(code, citation, title, tuple(guards), check, waiver)
        return check

    return register


def rules_for(action: str) -> list[Rule]:
    return [r for r in REGISTRY.values() if action in r.guards]


def all_rules() -> list[Rule]:
    return sorted(REGISTRY.values(), key=lambda r: (_citation_key(r.citation), r.code))


def _citation_key(citation: str) -> list[Any]:
    import re

    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", citation)]
