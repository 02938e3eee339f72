"""An occasion's full record on one page, for its organization and the inspectors in scope: the
night as recorded, from the opening checklist to the close. A fixed number of queries, however
many games and ball calls the night had (every list is fetched once, with what it names)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Prefetch

from beano.rules.opening import CHECKLIST, ChecklistItem
from games.models import BallCall, CardVerification, Claim, DrawVerification, Game, PrizePart
from occasions.models import (
    CharityRedemption,
    CharityTicketSale,
    DoorPrize,
    Gift,
    Handover,
    Occasion,
    OpeningCheck,
    OtherSale,
    PaperRecord,
    PoliceDetail,
    PriceListItem,
    Raffle,
    RaffleTicketSale,
    Refund,
    Sale,
    SaleLine,
    TransportationArrangement,
    VaryingPrizesAnnouncement,
    WorkerPresence,
)
from occasions.sales_selectors import AttendanceCheck, DoorCounts, attendance_check, door_figures

ZERO = Decimal("0.00")


@dataclass(frozen=True)
class ChecklistLine:
    item: ChecklistItem
    check: OpeningCheck | None


@dataclass(frozen=True)
class FullRecord:
    occasion: Occasion
    checklist: list[ChecklistLine]
    presences: list[WorkerPresence]
    handovers: list[Handover]
    prices: list[PriceListItem]
    paper_records: list[PaperRecord]
    tally_lines: list[SaleLine]  # the door counts from paper, grouped by receipt on the page
    door: DoorCounts
    attendance: AttendanceCheck
    voided_sales: list[Sale]
    games: list[Game]
    varying_prizes: VaryingPrizesAnnouncement | None
    refunds: list[Refund]
    door_prizes: list[DoorPrize]
    gifts: list[Gift]
    raffles: list[Raffle]
    charity_sales: list[CharityTicketSale]
    charity_redemptions: list[CharityRedemption]
    other_sales: list[OtherSale]
    police: list[PoliceDetail]
    transportation: list[TransportationArrangement]

    @property
    def prizes_awarded(self) -> Decimal:
        return sum(
            (c.winner.share for g in self.games for c in g.claims.all() if _has_winner(c)), ZERO
        )

    @property
    def ball_calls(self) -> int:
        return sum(len(g.calls.all()) for g in self.games)


def _has_winner(claim: Claim) -> bool:
    return hasattr(claim, "winner")


#: The occasion's row with what the record's header names, for ``get_for_org``.
RECORD_OCCASION = Occasion.objects.select_related(
    "organization", "license", "opened_by", "closed_by"
)


def _games_of(occasion: Occasion) -> list[Game]:
    """The occasion's games with their prize parts, every ball call, and every claim with its
    verifications, winner and payout, in a fixed number of queries."""
    claims = Claim.objects.select_related(
        "part__arrangement",
        "recorded_by",
        "winner__person",
        "winner__authorization",
        "winner__recorded_by",
        "winner__payout__paid_by",
        "winner__payout__verified_by",
        "winner__payout__paid_by_worker__entry__person",
        "winner__payout__verified_by_worker__entry__person",
    ).prefetch_related(
        Prefetch(
            "draw_verifications",
            queryset=DrawVerification.objects.select_related("verified_by"),
        ),
        Prefetch(
            "card_verifications",
            queryset=CardVerification.objects.select_related("verified_by"),
        ),
        "winner__payout__form5754_shares",
    )
    return list(
        Game.objects.filter(occasion=occasion)
        .select_related("balls_confirmed_by", "progressive__series", "progressive__ledger_entry")
        .prefetch_related(
            Prefetch(
                "parts",
                queryset=PrizePart.objects.select_related("arrangement", "announced_by"),
            ),
            Prefetch(
                "calls",
                queryset=BallCall.objects.select_related("called_by", "voided_by").order_by(
                    "sequence"
                ),
            ),
            Prefetch("claims", queryset=claims),
        )
        .order_by("number")
    )


def full_record(occasion: Occasion) -> FullRecord:
    checks = {
        c.item: c
        for c in OpeningCheck.objects.filter(occasion=occasion).select_related("confirmed_by")
    }
    counts = door_figures(occasion)  # a closed night's as kept with its figures
    games = _games_of(occasion)
    return FullRecord(
        occasion=occasion,
        checklist=[ChecklistLine(item, checks.get(item.code)) for item in CHECKLIST],
        presences=list(
            WorkerPresence.objects.filter(occasion=occasion)
            .select_related("entry__person", "signed_in_by", "signed_out_by")
            .order_by("signed_in_at", "pk")
        ),
        handovers=list(
            Handover.objects.filter(occasion=occasion).select_related(
                "from_presence__entry__person", "to_presence__entry__person", "recorded_by"
            )
        ),
        prices=list(PriceListItem.objects.filter(occasion=occasion).order_by("pk")),
        paper_records=list(
            PaperRecord.objects.filter(occasion=occasion).select_related("entered_by")
        ),
        tally_lines=list(
            SaleLine.objects.filter(
                sale__occasion=occasion, sale__tally=True, sale__voided_at__isnull=True
            )
            .select_related("sale__sold_by")
            .order_by("sale__number", "pk")
        ),
        door=counts,
        attendance=attendance_check(occasion, counts),
        voided_sales=list(
            Sale.objects.filter(occasion=occasion, voided_at__isnull=False)
            .select_related(
                "sold_by", "voided_by", "void_witness", "void_witness_worker__entry__person"
            )
            .order_by("number")
        ),
        games=games,
        varying_prizes=VaryingPrizesAnnouncement.objects.filter(occasion=occasion).first(),
        refunds=list(Refund.objects.filter(occasion=occasion).select_related("refunded_by")),
        door_prizes=list(DoorPrize.objects.filter(occasion=occasion)),
        gifts=list(Gift.objects.filter(occasion=occasion).select_related("authorization")),
        raffles=list(
            Raffle.objects.filter(occasion=occasion)
            .select_related("permit")
            .prefetch_related(
                Prefetch("ticket_sales", queryset=RaffleTicketSale.objects.order_by("sold_at"))
            )
        ),
        charity_sales=list(CharityTicketSale.objects.filter(occasion=occasion)),
        charity_redemptions=list(
            CharityRedemption.objects.filter(occasion=occasion).select_related("sale")
        ),
        other_sales=list(OtherSale.objects.filter(occasion=occasion)),
        police=list(PoliceDetail.objects.filter(occasion=occasion)),
        transportation=list(
            TransportationArrangement.objects.filter(occasion=occasion).select_related(
                "authorization"
            )
        ),
    )
