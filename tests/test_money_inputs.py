"""Every money and number field of every form reads with the shared parser (issue 14, item 4):
no form keeps Django's own number fields, which read "1e9", "1_000" and full-width or
Arabic-Indic digits; and each money field refuses those with the one message and its kind's
ceiling. The forms are found by walking the apps' form (and admin) modules, so a new form is checked
without anyone adding it here. Fields made in a form's ``__init__`` (the door's boxes, the
close-out's counts) are posted by tests/test_fuzz_forms.py instead."""

from __future__ import annotations

import importlib
import pkgutil
from decimal import Decimal

import pytest
from django import forms
from django.core.exceptions import ValidationError

from beano.rules.money import (
    NOT_AN_AMOUNT,
    TOO_LARGE,
    TOO_MANY_DECIMALS,
    HoursField,
    MoneyField,
    QuantityField,
)

APPS = ("organizations", "occasions", "equipment", "games", "reports", "inspections")
REFUSED = ["1e9", "1_000", "１２", "١٢"]


def form_classes() -> list[type[forms.BaseForm]]:
    found: dict[str, type[forms.BaseForm]] = {}
    for app in APPS:
        package = importlib.import_module(app)
        for info in pkgutil.walk_packages(package.__path__, f"{app}."):
            last = info.name.rsplit(".", 1)[-1]
            if "forms" not in last and last != "admin":
                continue
            module = importlib.import_module(info.name)
            for value in vars(module).values():
                if (
                    isinstance(value, type)
                    and issubclass(value, forms.BaseForm)
                    and value.__module__ == module.__name__
                ):
                    found[f"{module.__name__}.{value.__name__}"] = value
    return [found[k] for k in sorted(found)]


FORMS = form_classes()
MONEY_FIELDS = [
    (cls, name)
    for cls in FORMS
    for name, field in cls.base_fields.items()
    if isinstance(field, MoneyField)
]


def test_the_walk_finds_the_forms_and_their_money_fields():
    assert len(FORMS) >= 50
    assert len(MONEY_FIELDS) >= 30


@pytest.mark.parametrize("form", FORMS, ids=lambda c: f"{c.__module__}.{c.__name__}")
def test_no_form_reads_numbers_with_djangos_own_number_fields(form):
    own = (forms.DecimalField, forms.FloatField, forms.IntegerField)
    ours = (QuantityField, HoursField)
    wrong = [
        name
        for name, field in form.base_fields.items()
        if isinstance(field, own) and not isinstance(field, ours)
    ]
    assert not wrong, f"{form.__name__}: use MoneyField, QuantityField or HoursField for {wrong}"


@pytest.mark.parametrize(
    "form,name", MONEY_FIELDS, ids=lambda v: v if isinstance(v, str) else v.__name__
)
def test_every_money_field_refuses_with_one_message_and_its_ceiling(form, name):
    field = form.base_fields[name]
    for value in REFUSED:
        with pytest.raises(ValidationError) as error:
            field.clean(value)
        assert error.value.messages == [NOT_AN_AMOUNT], (value, error.value.messages)
    with pytest.raises(ValidationError) as error:
        field.clean("1.005")
    assert error.value.messages == [TOO_MANY_DECIMALS]
    kind = field.kind
    over = kind.ceiling + Decimal("0.01")
    with pytest.raises(ValidationError) as error:
        field.clean(f"{over:,.2f}")
    assert error.value.messages == [TOO_LARGE.format(noun=kind.noun, ceiling=kind.ceiling_text)]
    assert field.clean(f"${kind.ceiling:,.2f}") == kind.ceiling
