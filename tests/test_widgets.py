"""``QuickSelect`` draws exactly what Django's ``Select`` draws, without a template per option."""

from __future__ import annotations

import pytest
from django import forms
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

from beano.widgets import QuickSelect

CHOICES = [("", "Every <town>"), ("A & B", "A & B"), (3, "Three"), ('x"y', 'Quote " it')]


@pytest.mark.parametrize("value", ["", "A & B", 3, "3", 'x"y', None, "not offered"])
def test_it_draws_what_djangos_select_draws(value):
    attrs = {"class": "form-select", "id": "id_town", "required": True, "disabled": False}
    django = forms.Select(attrs=attrs, choices=CHOICES).render("town", value)
    quick = QuickSelect(attrs=attrs, choices=CHOICES).render("town", value)
    assert quick == "".join(line.strip() for line in django.splitlines())


def test_the_value_chosen_is_selected_and_everything_is_escaped():
    html = QuickSelect(choices=CHOICES).render("town", "A & B")
    assert '<option value="A &amp; B" selected>A &amp; B</option>' in html
    assert "Every &lt;town&gt;" in html and 'value="x&quot;y"' in html
    assert html.count(" selected") == 1


def test_html_and_lazy_labels_and_an_options_own_attributes_are_drawn_as_django_draws_them():
    def create_option(self: forms.Select, *args: object, **kwargs: object) -> dict:
        option = forms.Select.create_option(self, *args, **kwargs)
        if option["value"] == "x":
            option["attrs"]["disabled"] = True
            option["attrs"]["data-note"] = 'a "note"'
        return option

    WithAttributes = type("WithAttributes", (QuickSelect,), {"create_option": create_option})
    DjangoWithAttributes = type("DjangoWith", (forms.Select,), {"create_option": create_option})

    choices = [
        ("", gettext_lazy("Every status")),
        ("s", mark_safe("<b>Safe</b> & sound")),
        ("x", "X"),
    ]
    for value in ("", "s", "x"):
        quick = WithAttributes(choices=choices).render("status", value)
        django = DjangoWithAttributes(choices=choices).render("status", value)
        assert quick == "".join(line.strip() for line in django.splitlines())
    drawn = WithAttributes(choices=choices).render("status", "x")
    assert "<b>Safe</b> &amp; sound" not in drawn and "<b>Safe</b> & sound" in drawn
    assert 'value="x" selected disabled data-note="a &quot;note&quot;"' in drawn


def test_a_select_with_groups_is_drawn_by_djangos_templates():
    grouped = [("Towns", [("a", "Amherst"), ("b", "Boston")]), ("", "None")]
    assert QuickSelect(choices=grouped).render("town", "b") == forms.Select(choices=grouped).render(
        "town", "b"
    )
