"""``{% links "place" name=value as var %}`` and ``{% includes "place" as var %}``, builtins of
every template (settings.TEMPLATES): what the apps above fill a lower app's page with
(``beano.links``)."""

from __future__ import annotations

from typing import Any

from django import template

from beano import links as registry

register = template.Library()


@register.simple_tag(takes_context=True)
def links(context: template.Context, place: str, **names: Any) -> list[registry.Shown]:
    """The links of ``place`` for this page; ``names`` add to (or replace in) its context what
    the links read, e.g. the organization of a row: ``org=c.organization``."""
    with context.push(**names):
        return registry.shown(place, context)


@register.simple_tag
def includes(place: str) -> list[str]:
    return registry.included(place)
