"""961 CMR 3.05(1): the reports owed for authorized days, and the notice before play resumes."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass

from beano.rules.base import rule
from beano.rules.limits import Limits

OPEN = "occasion.open"


@dataclass(frozen=True)
class ResumptionFacts:
    """The two authorized days before this one, whether each was played, and the latest written
    notice of resumption sent to the Commission (if any)."""

    previous_two_not_played: bool
    last_not_played_on: dt.date | None
    notice_sent_on: dt.date | None


@rule(
    code="R-305-1B-RESUMPTION-NOTICE",
    citation="961 CMR 3.05(1)(b)",
    title="After two occasions in a row not played, the Commission is told before play resumes",
    guards=(OPEN,),
)
def notice_before_resuming(f: ResumptionFacts, limits: Limits) -> Iterator[str]:
    """An organization that does not conduct Beano for two consecutive occasions notifies the
    Commission in writing before it resumes."""
    if not f.previous_two_not_played:
        return
    if f.notice_sent_on is None or (
        f.last_not_played_on is not None and f.notice_sent_on < f.last_not_played_on
    ):
        yield (
            "The last two occasions were not played; record the written notice to the "
            "Commission before play resumes."
        )
