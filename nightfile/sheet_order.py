"""A game sheet's times in the order the night runs: the balls checked and the prize announced
before the start, the balls and the claims between the start and the finish. A sheet that says
otherwise is refused in its own terms ("Game 3 sheet: the game finished at 8:05 PM, before it
started at 8:10 PM"), before any act of it is judged: replayed in the order of its times, such a
sheet would be refused for the state it left the game in ("Game 3 is planned: only a game in
play finishes"), which says nothing of the sheet."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.utils import timezone

from nightfile import format as fmt
from nightfile.acts import Act, Night


def _t(moment: dt.datetime) -> str:
    return f"{timezone.localtime(moment):%-I:%M %p}"


def faults(sheet: fmt.GameSheet) -> list[tuple[dt.datetime, str]]:
    """Each pair of the sheet's times out of order: the earlier of the two, and what is wrong."""
    start, end = sheet.started_at, sheet.finished_at
    found: list[tuple[dt.datetime, str]] = []
    if start is not None and end is not None and end < start:
        found.append((end, f"the game finished at {_t(end)}, before it started at {_t(start)}"))
    if start is not None:
        checked = sheet.balls_confirmed_at
        if checked is not None and checked > start:
            found.append(
                (
                    start,
                    f"the game started at {_t(start)}, before its 75 balls were checked at "
                    f"{_t(checked)}",
                )
            )
        first = sheet.parts[0].announced_at if sheet.parts else None
        if first is not None and first > start:
            found.append(
                (
                    start,
                    f"the game started at {_t(start)}, before its prize was announced at "
                    f"{_t(first)}",
                )
            )
    for i, ball in enumerate(sheet.balls, 1):
        if ball.at is not None and start is not None and ball.at < start:
            found.append((ball.at, f"ball {i} was called at {_t(ball.at)}, before the start"))
        if ball.at is not None and end is not None and ball.at > end:
            found.append((end, f"ball {i} was called at {_t(ball.at)}, after the finish"))
    for i, claim in enumerate(sheet.claims, 1):
        who = f"the claim of {claim.player}" if claim.player else f"claim {i}"
        if start is not None and claim.at < start:
            found.append(
                (claim.at, f"{who} is at {_t(claim.at)}, before the game started at {_t(start)}")
            )
        if end is not None and claim.at > end:
            found.append((end, f"{who} is at {_t(claim.at)}, after the game finished at {_t(end)}"))
    return found


def order_act(sheet: fmt.GameSheet, label: str) -> list[Act]:
    """An act that refuses the sheet, at the earliest time out of order, if any is."""
    found = faults(sheet)
    if not found:
        return []
    at = min(moment for moment, _ in found)
    words = "; ".join(dict.fromkeys(what for _, what in found))

    def refuse(n: Night) -> None:
        raise ValidationError(f"The sheet's times are out of order: {words}.")

    return [Act(at, "announce", label, "the sheet's times", refuse)]
