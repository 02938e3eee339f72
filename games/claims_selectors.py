"""Reads for claims, verifications, winners and payouts: which balls count for a claim, the call
it was made on, a game's claims with their latest verifications, and a night's winners."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Prefetch, QuerySet

from beano.rules import LimitName, limits_in_force
from beano.rules.cards import ball_label
from beano.rules.claims import balls_that_count
from games.card_picture import CardPicture, card_picture
from games.models import (
    BallCall,
    CardVerification,
    Claim,
    DrawVerification,
    Game,
    PrizePart,
    ProgressiveGame,
    Winner,
)
from occasions.models import Occasion
from organizations.models import Person, WorkerListEntry


def called_before(claim: Claim) -> tuple[int, ...]:
    """The balls keyed in (not voided) up to the moment of the claim, in calling order."""
    return tuple(
        BallCall.objects.filter(
            game_id=claim.game_id, voided_at__isnull=True, called_at__lte=claim.claimed_at
        )
        .order_by("sequence")
        .values_list("number", flat=True)
    )


def counted_balls(claim: Claim, before: tuple[int, ...] | None = None) -> tuple[int, ...]:
    """The balls that count for the claim (3.04(6)(a))."""
    before = called_before(claim) if before is None else before
    return balls_that_count(before, claim.ball_in_hand, claim.calling_begun)


def not_counted_in_hand(claim: Claim) -> int | None:
    """The ball in the caller's hand whose calling had not begun: removed, but it does not count."""
    return claim.ball_in_hand if not claim.calling_begun else None


def call_of(claim: Claim, counted: tuple[int, ...] | None = None) -> str:
    """The call the claim was made on: the last ball that counts and how many count."""
    counted = counted_balls(claim) if counted is None else counted
    if not counted:
        return "before any ball"
    return f"{ball_label(counted[-1])} (ball {len(counted)})"


def jackpot_calls_allowed(part: PrizePart) -> int | None:
    """The calls within which ``part`` is won, if it is the jackpot of a progressive game that
    carries a series (the game's first prize, 3.04(8)(a)2); None for any other prize."""
    progressive = ProgressiveGame.objects.filter(game_id=part.game_id).first()
    if progressive is None:
        return None
    first = (
        PrizePart.objects.filter(game_id=part.game_id)
        .order_by("order", "pk")
        .values_list("pk", flat=True)
        .first()
    )
    return progressive.calls_allowed if first == part.pk else None


def remaining_balls(claim: Claim, counted: tuple[int, ...]) -> list[int]:
    """The balls still in the receptacle: neither counted nor in the caller's hand."""
    out = set(counted)
    if claim.ball_in_hand is not None:
        out.add(claim.ball_in_hand)
    return [n for n in range(1, 76) if n not in out]


def latest_card_verification(claim: Claim) -> CardVerification | None:
    rows = getattr(claim, "cards", None)
    if rows is None:
        return claim.card_verifications.order_by("-verified_at", "-pk").first()
    return max(rows, key=lambda v: (v.verified_at, v.pk)) if rows else None


@dataclass
class ClaimRow:
    claim: Claim
    counted: tuple[int, ...]
    call: str
    card: CardVerification | None
    draws: list[DrawVerification] = field(default_factory=list)

    @property
    def counted_labels(self) -> list[str]:
        return [ball_label(n) for n in self.counted]

    @property
    def remaining_labels(self) -> list[str]:
        return [ball_label(n) for n in remaining_balls(self.claim, self.counted)]

    @property
    def in_hand_label(self) -> str:
        b = self.claim.ball_in_hand
        return ball_label(b) if b is not None else ""

    @property
    def winner(self) -> Winner | None:
        try:
            return self.claim.winner
        except Winner.DoesNotExist:
            return None

    @property
    def verified(self) -> bool:
        return self.card is not None and self.card.valid

    @property
    def picture(self) -> CardPicture | None:
        """The card as its latest verification read it; None when no number was read (not yet
        verified, or attested on paper)."""
        if self.card is None or not self.card.numbers:
            return None
        arrangement = self.claim.part.arrangement
        return card_picture(
            self.card.numbers,
            self.counted,
            arrangement.variants,
            arrangement=arrangement.name,
            won=self.card.valid,
        )


def game_claims(game: Game) -> list[ClaimRow]:
    """The game's claims in order, each with the balls that count and its latest verifications."""
    claims = (
        Claim.objects.filter(game=game)
        .select_related(
            "part__arrangement",
            "recorded_by",
            "winner__person",
            "winner__payout__paid_by",
            "winner__payout__verified_by",
            "winner__payout__paid_by_worker__entry__person",
            "winner__payout__verified_by_worker__entry__person",
        )
        .prefetch_related(
            Prefetch("card_verifications", to_attr="cards"),
            Prefetch("draw_verifications", to_attr="draws"),
            "winner__payout__form5754_shares",
        )
        .order_by("claimed_at", "pk")
    )
    calls = list(
        BallCall.objects.filter(game=game, voided_at__isnull=True)
        .order_by("sequence")
        .values_list("number", "called_at")
    )
    rows = []
    for claim in claims:
        before = tuple(n for n, at in calls if at <= claim.claimed_at)
        counted = counted_balls(claim, before)
        rows.append(
            ClaimRow(
                claim,
                counted,
                call_of(claim, counted),
                latest_card_verification(claim),
                claim.draws,
            )
        )
    return rows


def current_calls(game: Game) -> list[int]:
    return list(
        BallCall.objects.filter(game=game, voided_at__isnull=True)
        .order_by("sequence")
        .values_list("number", flat=True)
    )


def w2g_threshold(occasion: Occasion) -> Decimal | None:
    """The single win that needs Form W-2G, as in force on the occasion's date."""
    return limits_in_force(occasion.date).get(LimitName.W2G_THRESHOLD)


def on_worker_list(person: Person, occasion: Occasion) -> bool:
    """On the organization's worker list of the occasion's year that day (3.04(1)(h))."""
    entries = WorkerListEntry.objects.filter(
        worker_list__organization_id=occasion.organization_id,
        worker_list__year=occasion.date.year,
        person=person,
        added_on__lte=occasion.date,
    )
    return any(e.removed_on is None or e.removed_on > occasion.date for e in entries)


def known_people(occasion: Occasion) -> QuerySet[Person]:
    """The people the organization knows (its members and those on its worker lists), for
    naming a winner so (1)(h) can be judged."""
    org = occasion.organization_id
    members = Person.objects.filter(memberships__organization_id=org)
    listed = Person.objects.filter(worker_list_entries__worker_list__organization_id=org)
    return (members | listed).distinct().order_by("legal_name")


@dataclass(frozen=True)
class ClaimsSummary:
    games: list[Game]
    winners: list[Winner]
    won_total: Decimal
    paid_total: Decimal


def claims_summary(occasion: Occasion) -> ClaimsSummary:
    """The occasion page's card: the games, the night's winners and what is paid."""
    winners = list(night_winners(occasion))
    paid = [w.payout.amount for w in winners if getattr(w, "payout", None) is not None]
    return ClaimsSummary(
        games=list(occasion_games(occasion).exclude(status=Game.Status.PLANNED)),
        winners=winners,
        won_total=sum((w.share for w in winners), Decimal("0")),
        paid_total=sum(paid, Decimal("0")),
    )


def night_winners(occasion: Occasion) -> QuerySet[Winner]:
    """Every winner of the occasion, game by game, with the payout if made."""
    return (
        Winner.objects.filter(claim__game__occasion=occasion)
        .select_related("claim__game", "claim__part__arrangement", "payout")
        .order_by("claim__game__number", "claim__part__order", "claim__claimed_at", "pk")
    )


def occasion_games(occasion: Occasion) -> QuerySet[Game]:
    return Game.objects.filter(occasion=occasion).order_by("number")


def listed_people(occasion: Occasion) -> list[Person]:
    """The people on the organization's worker list of the occasion's year that day, whom a
    winner's name is matched against as people, not as strings (3.04(1)(h))."""
    entries = WorkerListEntry.objects.filter(
        worker_list__organization_id=occasion.organization_id,
        worker_list__year=occasion.date.year,
        added_on__lte=occasion.date,
    ).select_related("person")
    return [e.person for e in entries if e.removed_on is None or e.removed_on > occasion.date]
