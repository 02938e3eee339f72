"""The acts of the extras sheet: door prizes, refunds, charity game tickets sold and redeemed,
other sales, raffles and the police detail."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError

from nightfile import format as fmt
from nightfile.acts import Act, Night
from occasions import extras_services, raffle_services


def extras_acts(night: fmt.Night) -> list[Act]:
    """Every act of the extras sheet."""
    return (
        [_door_prize(p) for p in night.door_prizes]
        + [_refund(f) for f in night.refunds]
        + [_charity_sale(c) for c in night.charity_sales]
        + [_redemption(r) for r in night.redemptions]
        + [_other_sale(o, night.opened_at) for o in night.other_sales]
        + [a for raffle in night.raffles for a in _raffle_acts(raffle)]
        + [_police(p, night.closed_at) for p in night.police]
    )


def _door_prize(p: fmt.DoorPrizeRow) -> Act:
    def award(n: Night) -> None:
        extras_services.award_door_prize(
            occasion=n.occasion,
            description=p.description,
            value=p.value,
            donated=p.donated,
            winner_name=p.winner,
            by=n.by,
            at=n.at(p.at),
        )

    return Act(p.at, "door_prize", "Extras", f"door prize ({p.description})", award)


def _refund(f: fmt.RefundRow) -> Act:
    def refund(n: Night) -> None:
        extras_services.record_refund(
            occasion=n.occasion,
            amount=f.amount,
            player_reference=f.player_reference,
            by=n.by,
            at=n.at(f.at),
        )

    return Act(f.at, "refund", "Extras", f"refund to {f.player_reference}", refund)


def _charity_sale(c: fmt.CharitySaleRow) -> Act:
    def sell(n: Night) -> None:
        raffle_services.sell_charity_tickets(
            occasion=n.occasion,
            game_name=c.game_name,
            serial_number=c.serial_number,
            quantity=c.quantity,
            price=c.price,
            sold_on_premises=c.on_premises,
            by=n.by,
            at=n.at(c.at),
        )

    return Act(c.at, "charity", "Extras", f"charity game tickets ({c.serial_number})", sell)


def _redemption(r: fmt.RedemptionRow) -> Act:
    def redeem(n: Night) -> None:
        raffle_services.redeem_charity_ticket(
            occasion=n.occasion,
            serial_number=r.serial_number,
            prize_amount=r.prize_amount,
            redeemed_on=_local_date(r.at),
            by=n.by,
        )

    return Act(r.at, "redeem", "Extras", f"charity ticket redeemed ({r.serial_number})", redeem)


def _other_sale(o: fmt.OtherSaleRow, opened: dt.datetime | None) -> Act:
    def sell(n: Night) -> None:
        extras_services.record_other_sale(
            occasion=n.occasion,
            kind=o.kind,
            description=o.description,
            amount=o.amount,
            on_beano_portion=o.on_beano_portion,
            by=n.by,
            at=n.at(o.at),
        )

    return Act(
        o.at,
        "other_sale",
        "Extras",
        f"other sale ({o.description})",
        sell,
        order_at=max(o.at, opened) if opened is not None else None,
    )


def _police(p: fmt.PoliceRow, close: dt.datetime | None) -> Act:
    """The police detail's bill has no time of its own: it is written with the close."""

    def record(n: Night) -> None:
        extras_services.record_police_detail(
            occasion=n.occasion,
            officer_name=p.officer,
            department_town=p.department,
            hours=p.hours,
            hourly_rate=p.rate,
            by=n.by,
        )

    return Act(close, "police", "Extras", f"police detail ({p.officer})", record)


def _local_date(moment: dt.datetime) -> dt.date:
    from django.utils import timezone

    return timezone.localtime(moment).date()


def _raffle_acts(raffle: fmt.RaffleRow) -> list[Act]:
    holder: dict[str, Any] = {}
    first = min((s.at for s in raffle.sales), default=None)

    def hold(n: Night) -> None:
        from occasions.models import RafflePermit

        permit = RafflePermit.objects.filter(
            organization=n.occasion.organization, permit_number__iexact=raffle.permit
        ).first()
        if permit is None:
            raise ValidationError(f"Raffle permit {raffle.permit} is not on record.")
        holder["raffle"] = raffle_services.hold_raffle(
            occasion=n.occasion,
            permit=permit,
            prize_description=raffle.prize_description,
            prize_kind=raffle.prize_kind,
            ticket_price=raffle.ticket_price,
            by=n.by,
        )

    acts = [Act(first, "raffle", "Extras", f"raffle ({raffle.prize_description})", hold)]
    for s in raffle.sales:

        def sell(n: Night, s: fmt.RaffleTickets = s) -> None:
            receipt = s.admission_receipt or n.admission_receipt
            if receipt is None:
                raise ValidationError("Raffle tickets are sold to a player with an admission.")
            raffle_services.sell_raffle_tickets(
                raffle=holder["raffle"],
                admission_receipt_number=receipt,
                quantity=s.quantity,
                by=n.by,
                at=n.at(s.at),
            )

        acts.append(Act(s.at, "raffle", "Extras", f"{s.quantity} raffle tickets", sell))
    return acts
