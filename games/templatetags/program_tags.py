"""The occasion page's "Games" card reads the program's progress through this tag, so the
occasion page's view does not need to know about games."""

from __future__ import annotations

from django import template

from games.program_selectors import ProgramSummary, program_summary
from occasions.models import Occasion

register = template.Library()


@register.simple_tag(name="program_summary")
def program_summary_tag(occasion: Occasion) -> ProgramSummary:
    return program_summary(occasion)
