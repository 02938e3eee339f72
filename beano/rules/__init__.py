"""The rules service: every action is judged against 961 CMR 3.04 and the Beano Law before it
is saved. Import what services need from here."""

from beano.rules.authorizations import AuthorizationFact, AuthorizationKind
from beano.rules.base import Decision, Rule, RuleViolation, Violation, all_rules, rules_for
from beano.rules.limits import LimitName, Limits, limits_in_force
from beano.rules.service import atomic, before_commit, enforce, judge, record_refusal

__all__ = [
    "AuthorizationFact",
    "AuthorizationKind",
    "Decision",
    "LimitName",
    "Limits",
    "Rule",
    "RuleViolation",
    "Violation",
    "all_rules",
    "atomic",
    "before_commit",
    "enforce",
    "judge",
    "limits_in_force",
    "record_refusal",
    "rules_for",
]
