"""Loads every rule module so that the registry is complete."""

import importlib

RULE_MODULES = (
    "beano.rules.workers",
    "beano.rules.charge",
    "beano.rules.equipment",
    "beano.rules.paper",
    "beano.rules.reporting",
    "beano.rules.charges",
    "beano.rules.facilities",
    "beano.rules.prizes",
    "beano.rules.prohibited",
    "beano.rules.opening",
    "beano.rules.hours",
    "beano.rules.jackpots",
    "beano.rules.operation",
    "beano.rules.claims",
    "beano.rules.close",
    "beano.rules.draw",
    "beano.rules.banking",
    "beano.rules.bookkeepers",
    "beano.rules.queue",
)


def load_all() -> None:
    for name in RULE_MODULES:
        importlib.import_module(name)
