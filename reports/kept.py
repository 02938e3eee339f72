"""Writing the kept figures (``reports.kept_models``): at an occasion's close, at its filing and
at each amendment, inside the same transaction, and all of them again from the records by
``rebuild_kept_figures``.

The figures kept are exactly what the Commission's pages computed on every view, computed here
by the same code (``reports.occasion_totals``, ``reports.prize_review``,
``reports.winner_matches``) for the occasions just written, a fixed number of queries for any
number of them; then the statewide median of each month they fall in is kept again from the
kept rows of that month."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet, Value
from django.db.models.functions import Lower
from django.utils import timezone

from beano import locking
from games.models import Winner
from occasions.extensions import KeptPage
from occasions.extras_selectors import extras_as_json, extras_from_json, extras_totals_of
from occasions.models import Occasion
from occasions.sales_selectors import (
    NO_SALES,
    door_as_json,
    door_counts_of,
    door_from_json,
)
from organizations.models import WorkerListEntry
from reports.kept_medians import MonthMedians, month_medians
from reports.kept_models import KeptOccasionFigures, KeptStatewideMonth, KeptWinnerMatch
from reports.occasion_totals import with_figures
from reports.prize_review import prize_review
from reports.winner_matches import workers_among_winners

#: The measures of the charts, each a column of ``KeptOccasionFigures``: the statewide median
#: of each is kept per month.
MEASURES = ("attendance", "gross_receipts", "prizes", "net_proceeds")
#: The occasions whose figures are kept: closed (sealed or not). An open night's are read live.
KEPT_STATUS = Occasion.Status.CLOSED
#: How many occasions ``rebuild`` computes at a time.
BATCH = 500


def month_start(day: dt.date) -> dt.date:
    return day.replace(day=1)


def _totals(occasions: QuerySet[Occasion]) -> dict[int, dict[str, Any]]:
    return {
        row["pk"]: row
        for row in with_figures(occasions).values(
            "pk",
            "organization_id",
            "date",
            "license__practice",
            "admissions",
            "gross_receipts",
            "prizes",
            "games_played",
            "attendance",
            "net_proceeds",
        )
    }


def figures_rows(occasions: QuerySet[Occasion]) -> tuple[list[KeptOccasionFigures], list]:
    """The kept rows of ``occasions`` computed from the records (unsaved): their figures and
    their winners matched against the worker lists. Ten queries, whatever their number."""
    now = timezone.now()
    totals = _totals(occasions)
    prizes = {p.occasion.pk: p for p in prize_review(occasions)}
    doors = door_counts_of(occasions)
    extras = extras_totals_of(occasions)
    rows = []
    for pk, t in totals.items():
        review = prizes[pk]
        rows.append(
            KeptOccasionFigures(
                occasion_id=pk,
                organization_id=t["organization_id"],
                date=t["date"],
                month=month_start(t["date"]),
                practice=bool(t["license__practice"]),
                admissions=t["admissions"],
                gross_receipts=t["gross_receipts"],
                prizes=t["prizes"],
                games_played=t["games_played"],
                attendance=t["attendance"],
                net_proceeds=t["net_proceeds"],
                door_prizes=review.door_prizes,
                games_prizes=review.games_total,
                prize_games=[
                    {
                        "number": g.number,
                        "kind": g.kind,
                        "regular": str(g.regular),
                        "bonus": str(g.bonus),
                    }
                    for g in review.games
                ],
                prize_problems=list(review.problems),
                flagged=bool(review.problems),
                door=door_as_json(doors.get(pk, NO_SALES)),
                extras=extras_as_json(extras[pk]),
                kept_at=now,
            )
        )
    matches = [
        KeptWinnerMatch(
            figures_id=found.winner.claim.game.occasion_id,
            winner_id=found.winner.pk,
            entry_id=match.entry.pk,
            certain=match.certain,
            same_organization=match.same_organization,
        )
        for found in workers_among_winners(occasions)
        for match in found.matches
    ]
    return rows, matches


def keep(occasions: QuerySet[Occasion]) -> int:
    """Write the kept figures of the closed ones of ``occasions`` again, and the statewide
    medians of their months. Inside the caller's transaction; returns how many were kept. The
    occasions' rows are locked first (in the order of their ids), so that two writes keeping
    the same occasion (a filing, a listing) keep one after the other."""
    with transaction.atomic():
        chosen = occasions.filter(status=KEPT_STATUS)
        ids = list(
            locking.lock(Occasion.objects)
            .filter(pk__in=chosen.values("pk"))
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        if not ids:  # e.g. a person listed who won nothing that year: nothing to compute
            return 0
        rows, matches = figures_rows(Occasion.objects.filter(pk__in=ids))
        KeptOccasionFigures.objects.filter(occasion_id__in=ids).delete()
        KeptOccasionFigures.objects.bulk_create(rows)
        KeptWinnerMatch.objects.bulk_create(matches)
        keep_months({r.month for r in rows})
    return len(rows)


def keep_occasion(occasion: Occasion) -> None:
    """The hook of a close, a filing, an amendment withdrawn: this occasion's figures kept."""
    keep(Occasion.objects.filter(pk=occasion.pk))


def kept_page(occasion: Occasion) -> KeptPage | None:
    """The closed occasion's door counts, extras' totals and prizes as kept
    (``occasions.extensions.KEPT_PAGE``): one query; None when not kept, and the counts and
    totals each None when kept before they were (then counted from the records)."""
    row = (
        KeptOccasionFigures.objects.filter(occasion=occasion)
        .values("door", "extras", "prizes")
        .first()
    )
    if row is None:
        return None
    door = door_from_json(row["door"]) if row["door"] else None
    return KeptPage(door=door, extras=extras_from_json(row["extras"]), prizes=row["prizes"])


def _statewide(months: list[dt.date]) -> MonthMedians:
    """Each measure's median in each of ``months`` over the kept rows of every licensee's
    closed occasions (no practice license's), with how many values it is of: one query."""
    rows = KeptOccasionFigures.objects.filter(month__in=months, practice=False)
    return month_medians(rows, MEASURES)


def statewide_medians(months: Iterable[dt.date]) -> dict[tuple[dt.date, str], Decimal | None]:
    """The statewide median of each measure in each of ``months``, computed from the kept rows
    (what ``keep_months`` keeps): one query."""
    wanted = sorted(set(months))
    found = _statewide(wanted)
    return {
        (month, measure): found[(month, measure)][0] if (month, measure) in found else None
        for month in wanted
        for measure in MEASURES
    }


def keep_months(months: Iterable[dt.date]) -> None:
    """The statewide medians of ``months`` kept again from the kept rows. The months' rows are
    made if missing and locked before the kept rows are read: two closes of the same month (a
    Friday night's) keep its medians one after the other, the second from the first's rows."""
    wanted = sorted(set(months))
    if not wanted:
        return
    now = timezone.now()
    KeptStatewideMonth.objects.bulk_create(
        [
            KeptStatewideMonth(month=month, measure=measure, kept_at=now)
            for month in wanted
            for measure in MEASURES
        ],
        ignore_conflicts=True,
    )
    kept = list(
        locking.lock(KeptStatewideMonth.objects)
        .filter(month__in=wanted)
        .order_by("month", "measure")
    )
    found = _statewide(wanted)
    for row in kept:
        row.median, row.occasions = found.get((row.month, row.measure), (None, 0))
        row.kept_at = now
    KeptStatewideMonth.objects.bulk_update(kept, ["median", "occasions", "kept_at"])


def rebuild() -> int:
    """Every kept figure written again from the records: the rows of occasions no longer
    closed (or gone) removed, every closed occasion's kept, every month's median. In one
    transaction per batch of occasions; returns how many occasions are kept."""
    with transaction.atomic():
        KeptOccasionFigures.objects.exclude(occasion__status=KEPT_STATUS).delete()
        KeptStatewideMonth.objects.all().delete()
    ids = list(
        Occasion.objects.filter(status=KEPT_STATUS).order_by("pk").values_list("pk", flat=True)
    )
    kept = 0
    for start in range(0, len(ids), BATCH):
        with transaction.atomic():
            kept += keep(Occasion.objects.filter(pk__in=ids[start : start + BATCH]))
    return kept


def keep_for_listed(entry: WorkerListEntry) -> None:
    """The hook of a person put on a worker list: the closed occasions of that year where a
    winner is the person, or bears their name, kept again (their matches change)."""
    year = entry.worker_list.year
    person = entry.person
    winners = (
        Winner.objects.filter(claim__game__occasion__date__year=year)
        .annotate(name=Lower("player_name"))
        .filter(Q(person_id=person.pk) | Q(name=Lower(Value(person.legal_name))))
        .values("claim__game__occasion_id")
    )
    keep(Occasion.objects.filter(pk__in=winners))
