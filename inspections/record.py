"""An occasion's full record on one page, for its organization and the inspectors in scope: the
night as recorded, from the opening checklist to the close. A fixed number of queries, however
many games and ball calls the night had (every list is fetched once, with what it names). The
ball calls, the longest list (a thousand on a long night), are read as plain values and drawn
here, not one model and one template loop step each."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Prefetch
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from beano.rules.cards import ball_label
from beano.rules.opening import CHECKLIST, ChecklistItem
from games.models import (
    BallCall,
    CardVerification,
    Claim,
    DrawVerification,
    Game,
    Payout,
    PrizePart,
    Winner,
)
from occasions.extensions import kept_page
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
from offline.selectors import Stretch, offline_stretches

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
    kept_prizes: Decimal | None  # a closed night's, as kept with its figures
    offline: list[Stretch] = field(default_factory=list)  # the laptop's stretches offline

    @property
    def prizes_awarded(self) -> Decimal:
        """A closed night's as kept with its figures; any other's (or one not kept) summed
        from its winners' shares."""
        if self.kept_prizes is not None:
            return self.kept_prizes
        return sum(
            (c.winner.share for g in self.games for c in g.record_claims if _has_winner(c)), ZERO
        )

    @property
    def ball_calls(self) -> int:
        return sum(g.record_calls.count for g in self.games)


@dataclass(frozen=True)
class GameCalls:
    """A game's ball calls on the record: how many, and the list's items drawn."""

    count: int
    items: SafeString


NO_CALL = mark_safe('<li class="text-secondary">No ball called.</li>')  # a constant
VOIDED = (
    ' <span class="badge text-bg-secondary" title="{}">voided</span>'
    ' <span class="void-reason">{}</span>'
)


def _call_items(calls: list[tuple]) -> GameCalls:
    """The calls as list items. A thousand on a long night: written with plain string
    formatting, not ``format_html`` each (14 microseconds a call), since only the reason for a
    void is text someone typed (escaped); the rest are numbers, a ball's label and a clock."""
    tz = timezone.get_current_timezone()
    items = []
    for sequence, number, called_at, voided_at, reason in calls:
        local = called_at.astimezone(tz)  # 3:07:09, as ``date:"g:i:s"``
        clock = f"{local.hour % 12 or 12}:{local.minute:02}:{local.second:02}"
        void = format_html(VOIDED, reason, reason) if voided_at else ""
        items.append(
            f'<li class="{"voided" if voided_at else ""}" value="{int(sequence)}">'
            f'<span class="ball">{ball_label(int(number))}</span> <time>{clock}</time>{void}</li>'
        )
    return GameCalls(len(calls), mark_safe("".join(items)) if items else NO_CALL)  # escaped above


def _calls_of(occasion: Occasion, games: list[Game]) -> None:
    """Each game's ``record_calls``, from one query of plain values."""
    by_game: dict[int, list[tuple]] = defaultdict(list)
    rows = (
        BallCall.objects.filter(game__occasion=occasion)
        .order_by("game_id", "sequence")
        .values_list("game_id", "sequence", "number", "called_at", "voided_at", "void_reason")
    )
    for game_id, *call in rows:
        by_game[game_id].append(tuple(call))
    for game in games:
        game.record_calls = _call_items(by_game[game.pk])


def _has_winner(claim: Claim) -> bool:
    return hasattr(claim, "winner")


#: The occasion's row with what the record's header names, for ``get_for_org``.
RECORD_OCCASION = Occasion.objects.select_related(
    "organization", "license", "opened_by", "closed_by"
)


def _games_of(occasion: Occasion) -> list[Game]:
    """The occasion's games with their prize parts (``record_parts``) and every claim
    (``record_claims``) with its verifications (``record_draws``, ``record_cards``), winner and
    payout (its Form 5754 shares, ``record_shares``), in a fixed number of queries; their ball
    calls are ``_calls_of``'s. Prefetched into lists: a prefetch into each instance's manager
    clones a queryset per game and per claim, 30 ms on a night of thirty games. The winners and
    their payouts are read apart from the claims: the thirteen tables joined in one statement
    took PostgreSQL 7 ms to plan, for 2 ms of work."""
    winners = Winner.objects.select_related("person", "authorization", "recorded_by")
    payouts = Payout.objects.select_related(
        "paid_by",
        "verified_by",
        "paid_by_worker__entry__person",
        "verified_by_worker__entry__person",
    )
    claims = Claim.objects.select_related("part__arrangement", "recorded_by").prefetch_related(
        Prefetch(
            "draw_verifications",
            queryset=DrawVerification.objects.select_related("verified_by"),
            to_attr="record_draws",
        ),
        Prefetch(
            "card_verifications",
            queryset=CardVerification.objects.select_related("verified_by"),
            to_attr="record_cards",
        ),
        Prefetch("winner", queryset=winners),
        Prefetch("winner__payout", queryset=payouts),
        Prefetch("winner__payout__form5754_shares", to_attr="record_shares"),
    )
    return list(
        Game.objects.filter(occasion=occasion)
        .select_related("balls_confirmed_by", "progressive__series", "progressive__ledger_entry")
        .prefetch_related(
            Prefetch(
                "parts",
                queryset=PrizePart.objects.select_related("arrangement", "announced_by"),
                to_attr="record_parts",
            ),
            Prefetch("claims", queryset=claims, to_attr="record_claims"),
        )
        .order_by("number")
    )


def full_record(occasion: Occasion) -> FullRecord:
    checks = {
        c.item: c
        for c in OpeningCheck.objects.filter(occasion=occasion).select_related("confirmed_by")
    }
    kept = kept_page(occasion)  # a closed night's door and prizes as kept: one read
    counts = door_figures(occasion, kept)
    games = _games_of(occasion)
    _calls_of(occasion, games)
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
        kept_prizes=kept.prizes if kept is not None else None,
        offline=offline_stretches(occasion),
    )
