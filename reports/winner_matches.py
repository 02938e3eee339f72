"""Winners who are on a worker list of the occasion's year (961 CMR 3.04(1)(h)): a known person
for certain, a player whose name is a listed person's as "possible". What the Commission's
compliance page shows, and what is kept at each close and filing (``reports.kept``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.db.models.functions import Lower

from games.models import Winner
from occasions.models import Occasion
from organizations.models import WorkerListEntry


@dataclass(frozen=True)
class WorkerMatch:
    entry: WorkerListEntry
    certain: bool  # the winner is the person; else only the names match
    winner_organization_id: int

    @property
    def same_organization(self) -> bool:
        return self.entry.worker_list.organization_id == self.winner_organization_id


@dataclass
class WinningWorker:
    winner: Winner
    matches: list[WorkerMatch] = field(default_factory=list)

    @property
    def occasion(self) -> Occasion:
        return self.winner.claim.game.occasion

    @property
    def certain(self) -> bool:
        return any(m.certain for m in self.matches)

    @property
    def on_own_list(self) -> bool:
        return any(m.same_organization for m in self.matches)


def workers_among_winners(occasions: QuerySet[Occasion]) -> list[WinningWorker]:
    """Winners at ``occasions`` who are on a worker list of the occasion's year: a known person
    (certain), or a player whose name is a listed person's (possible). The lists of every
    organization are searched, the winner's own first: on its own list the win breaches
    3.04(1)(h) unless the Director authorized it. Two queries."""
    listed = WorkerListEntry.objects.annotate(name=Lower("person__legal_name"))
    candidates = list(
        Winner.objects.filter(claim__game__occasion__in=occasions)
        .annotate(name=Lower("player_name"))
        .filter(
            Exists(listed.filter(person_id=OuterRef("person_id")))
            | Exists(listed.filter(name=OuterRef("name")))
        )
        .select_related("claim__game__occasion__organization", "person", "authorization")
        .order_by("-claim__game__occasion__date", "claim__game__number", "pk")
    )
    if not candidates:
        return []
    years = {w.claim.game.occasion.date.year for w in candidates}
    entries = list(
        WorkerListEntry.objects.filter(worker_list__year__in=years)
        .annotate(name=Lower("person__legal_name"))
        .filter(
            Q(person_id__in={w.person_id for w in candidates if w.person_id})
            | Q(name__in={w.name for w in candidates})
        )
        .select_related("person", "worker_list__organization")
        .order_by("worker_list__organization__name")
    )
    out = []
    for winner in candidates:
        occasion = winner.claim.game.occasion
        found = WinningWorker(winner)
        for entry in entries:
            if entry.worker_list.year != occasion.date.year:
                continue
            certain = winner.person_id == entry.person_id
            if certain or (winner.person_id is None and entry.name == winner.name):
                found.matches.append(WorkerMatch(entry, certain, occasion.organization_id))
        if found.matches:
            found.matches.sort(key=lambda m: (not m.same_organization, not m.certain))
            out.append(found)
    return out
