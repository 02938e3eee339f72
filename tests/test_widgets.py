"""``QuickSelect`` draws exactly what Django's ``Select`` draws, without a template per option."""

from __future__ import annotations

import pytest
from django import forms

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


def test_a_select_with_groups_is_drawn_by_djangos_templates():
    grouped = [("Towns", [("a", "Amherst"), ("b", "Boston")]), ("", "None")]
    assert QuickSelect(choices=grouped).render("town", "b") == forms.Select(choices=grouped).render(
        "town", "b"
    )
