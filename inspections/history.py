"""A record's history, read from the organization's audit trail: every event whose target is the
record, oldest first. A game's history includes its prize parts, ball calls, claims, winners and
payouts, which are changed through it."""

from __future__ import annotations

from django.db.models import Q

from equipment.models import FORMER_LABELS
from games.models import BallCall, Claim, Payout, PrizePart, Winner
from organizations.models import AuditEvent, Organization

GAME = "games.game"


def _game_parts(game_id: str) -> Q:
    """The records changed through a game, as conditions on the events' targets (five small
    queries, one per kind of record)."""
    targets = {
        PrizePart: PrizePart.objects.filter(game_id=game_id),
        BallCall: BallCall.objects.filter(game_id=game_id),
        Claim: Claim.objects.filter(game_id=game_id),
        Winner: Winner.objects.filter(claim__game_id=game_id),
        Payout: Payout.objects.filter(winner__claim__game_id=game_id),
    }
    condition = Q()
    for model, rows in targets.items():
        ids = [str(pk) for pk in rows.values_list("pk", flat=True)]  # target_id is text
        condition |= Q(target_type=model._meta.label_lower, target_id__in=ids)
    return condition


def history_events(
    organization: Organization, target_type: str, target_id: str
) -> list[AuditEvent]:
    target_type = FORMER_LABELS.get(target_type, target_type)
    former = [old for old, new in FORMER_LABELS.items() if new == target_type]
    condition = Q(target_type__in=[target_type, *former], target_id=target_id)
    if target_type == GAME:
        condition |= _game_parts(target_id)
    return list(
        AuditEvent.objects.filter(organization=organization)
        .filter(condition)
        .select_related("actor")
        .order_by("sequence")
    )
