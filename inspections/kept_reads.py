"""The compliance pages' reads of the kept figures (``reports.kept``): a closed occasion's prizes
by game and its winners matched against the worker lists as kept at its close and filing, an
open occasion's (tonight's few) computed now by the same code. A fixed number of queries
whatever the number of occasions, and only one page of them made into rows."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.core.paginator import Page, Paginator
from django.db.models import Q, QuerySet

from beano.rules.limits import limits_history
from occasions.models import Occasion
from reports.kept import KEPT_STATUS
from reports.kept_models import KeptWinnerMatch
from reports.prize_review import GamePrizes, OccasionPrizes, prize_review
from reports.winner_matches import WinningWorker, WorkerMatch, workers_among_winners

LIVE_STATUS = Occasion.Status.OPEN


def open_ones(occasions: QuerySet[Occasion]) -> QuerySet[Occasion]:
    """The open ones of ``occasions`` (tonight's few, whose figures are not kept yet), named by
    their ids: one small query. Given the ids, the database starts from those nights' games; given
    the subquery, PostgreSQL planned from every winner of the year (each checked against the worker
    lists, then the open nights semi-joined last), at a cost high enough to JIT-compile the plan
    too, even when no night was open (bench/RESULTS.md, workers among winners)."""
    return Occasion.objects.filter(
        pk__in=list(occasions.filter(status=LIVE_STATUS).values_list("pk", flat=True))
    )


@dataclass(frozen=True)
class PrizeList:
    total: int
    flagged: int
    page: Page


def _kept_prizes(occasion: Occasion, limits: object) -> OccasionPrizes:
    """An occasion's prizes as kept (or none, for one not closed and not open)."""
    row = OccasionPrizes(occasion, limits)  # type: ignore[arg-type]
    kept = getattr(occasion, "kept_figures", None)
    if kept is None:
        return row
    row.games = [
        GamePrizes(g["number"], g["kind"], Decimal(g["regular"]), Decimal(g["bonus"]))
        for g in kept.prize_games
    ]
    row.door_prizes = kept.door_prizes
    row.problems = list(kept.prize_problems)
    return row


def prize_list(
    occasions: QuerySet[Occasion], *, only_flagged: bool, page: str | None, per_page: int
) -> PrizeList:
    """Every occasion of ``occasions`` (played or not) with its prizes against the limits in
    force on its date, newest first; ``only_flagged``: those over a limit. A fixed number of
    queries, three more when a night is open."""
    live = {p.occasion.pk: p for p in prize_review(open_ones(occasions))}
    over = Q(kept_figures__flagged=True) | Q(pk__in=[pk for pk, p in live.items() if p.problems])
    chosen = occasions.filter(over) if only_flagged else occasions
    ordered = chosen.select_related("organization", "kept_figures").order_by(
        "-date", "organization__name", "pk"
    )
    shown = Paginator(ordered, per_page).get_page(page)
    limits_on = limits_history()
    shown.object_list = [live.get(o.pk) or _kept_prizes(o, limits_on(o.date)) for o in shown]
    return PrizeList(total=occasions.count(), flagged=occasions.filter(over).count(), page=shown)


def winners(occasions: QuerySet[Occasion]) -> list[WinningWorker]:
    """Winners at ``occasions`` on a worker list of the occasion's year, newest first: the
    closed occasions' as kept, the open ones' matched now. Two queries, and up to two more
    when a night is open."""
    kept = (
        KeptWinnerMatch.objects.filter(
            figures__occasion__in=occasions.filter(status=KEPT_STATUS).values("pk")
        )
        .select_related(
            "winner__claim__game__occasion__organization",
            "winner__authorization",
            "entry__person",
            "entry__worker_list__organization",
        )
        .order_by(
            "-winner__claim__game__occasion__date",
            "winner__claim__game__number",
            "winner_id",
            "entry__worker_list__organization__name",
        )
    )
    found: dict[int, WinningWorker] = {}
    for match in kept:
        occasion = match.winner.claim.game.occasion
        row = found.setdefault(match.winner_id, WinningWorker(match.winner))
        row.matches.append(WorkerMatch(match.entry, match.certain, occasion.organization_id))
    for row in found.values():
        row.matches.sort(key=lambda m: (not m.same_organization, not m.certain))
    rows = [*found.values(), *workers_among_winners(open_ones(occasions))]
    return sorted(
        rows, key=lambda w: (-w.occasion.date.toordinal(), w.winner.claim.game.number, w.winner.pk)
    )
