"""The ``refusal`` filter, a builtin of every template (settings.TEMPLATES): a message shown with
its plain words first and the paragraph that refused after them, in a quieter style."""

from __future__ import annotations

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from beano.refusals import plain_first

register = template.Library()


@register.filter
def refusal(message: object) -> SafeString:
    parts = plain_first(str(message))
    return format_html_join(
        " ",
        "{}{}",
        (
            (
                part.words,
                format_html(' <span class="citation">{}</span>', part.citation)
                if part.citation
                else "",
            )
            for part in parts
        ),
    )
