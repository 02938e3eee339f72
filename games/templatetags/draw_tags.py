"""The draw in templates: a ball's label and a prize as the hall reads it, an arrangement's
pictures and the flashboard's 75 balls. The last two are drawn here rather than in template loops:
the flashboard answers a poll after every ball, and a template step per square (up to 300 for
an arrangement) cost more than the rest of the answer."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

from beano.rules.cards import ball_label
from beano.rules.money import usd
from games.models import PrizePart

register = template.Library()


@register.filter
def ball(number: int) -> str:
    """42 → N42."""
    return ball_label(number)


@register.filter
def dollars(amount: Decimal) -> str:
    """$75 for a whole amount, $37.50 otherwise."""
    return usd(amount, bare_dollars=True)


@register.filter
def prize(part: PrizePart) -> str:
    if part.kind == PrizePart.Kind.MERCHANDISE:
        return f"{part.description or 'Merchandise'} ({dollars(part.amount)})"
    return dollars(part.amount)


#: The most variants a picture cycles through: "any two lines" has 66, and a hall reads the
#: idea from a dozen of them, evenly spread.
MOST_PICTURES = 12


def variant_pictures(variants: Sequence[Sequence[str]]) -> list[list[list[str]]]:
    """The 5×5 picture of each way an arrangement wins ("any single line": the five rows, the
    five columns and both diagonals), at most ``MOST_PICTURES`` of them, evenly spread."""
    from games.draw_selectors import picture

    variants = list(variants or [])
    if len(variants) > MOST_PICTURES:
        step = len(variants) / MOST_PICTURES
        variants = [variants[int(i * step)] for i in range(MOST_PICTURES)]
    return [picture([v]) for v in variants] or [picture([])]


@register.simple_tag
def pictures(arrangement: Any, size: str) -> SafeString:
    """Every way an arrangement wins, one 5×5 picture each, shown in turn by
    static/js/pictures.js (the flashboard, the caller's console), held still by focus, a pointer
    resting on it, or pressing it; a single way is a single picture."""
    variants = tuple(tuple(v) for v in (arrangement.variants or []))
    return _pictures(arrangement.name, variants, size)


@functools.lru_cache(maxsize=256)
def _pictures(name: str, variants: tuple[tuple[str, ...], ...], size: str) -> SafeString:
    """Drawn once per process for each arrangement as it stands (its name and its ways are the
    key: an arrangement changed is drawn again)."""
    drawn = variant_pictures(variants)
    if len(drawn) > 1:
        opening = format_html(
            '<div class="arr-cycle" role="button" tabindex="0" aria-pressed="false" '
            'aria-label="{}: {} ways, shown in turn; press to hold the picture shown">',
            name,
            len(drawn),
        )
    else:
        opening = format_html('<div class="arr-cycle" role="img" aria-label="{}">', name)
    size = conditional_escape(size)
    body = "".join(
        f'\n<div class="arr-pic arr-pic-{size}{" is-shown" if i == 0 else ""}" aria-hidden="true">'
        + "".join(f'<span class="arr-{square}"></span>' for row in picture for square in row)
        + "</div>"
        for i, picture in enumerate(drawn)
    )
    return mark_safe(f"{opening}{body}\n</div>")  # the name is escaped, the rest is ours


@register.simple_tag
def flash_rows(board: Any) -> SafeString:
    """The flashboard's B, I, N, G, O rows, each ball lit when called and the last one marked."""
    last = board.last.number if board.last is not None else None
    rows = []
    for letter, balls in board.rows:
        cells = "".join(
            f'<span role="cell" class="flash-ball{" is-called" if b.called else ""}'
            f'{" is-last" if b.number == last else ""}">{int(b.number)}</span>'
            for b in balls
        )
        rows.append(
            f'<div class="flash-row" role="row"><span class="flash-letter" role="rowheader">'
            f"{letter}</span>{cells}</div>"
        )
    return mark_safe("\n".join(rows))  # numbers and the five letters only
