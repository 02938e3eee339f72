"""Writes for what happens at an occasion besides the games: prizes varied with attendance and
refunds, door prizes and gifts (961 CMR 3.04(8)(d), (e)), other sales (9)(e), the police detail
(3)(e) and transportation (9)(d). Raffles and charity game tickets are in
``occasions.raffle_services``.

Each write runs in ``rules.atomic()``: it locks the occasion, builds the facts, has the rules
judge them before anything is saved, saves, and appends its audit event. A refusal raises
``RuleViolation`` (every message begins with its citation) and is logged after the rollback."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models

from beano import rules
from beano.actors import Actor
from beano.rules import AuthorizationKind, Decision
from beano.rules.facilities import RECORD_POLICE_DETAIL, PoliceDetailFacts
from beano.rules.money import DOOR_PRIZE, HOURLY_RATE, REFUND, SALE, cents, money
from beano.rules.prizes import (
    ANNOUNCE_VARYING,
    AWARD_DOOR_PRIZE,
    GIVE_GIFT,
    RECORD_REFUND,
    DoorPrizeFacts,
    GiftFacts,
    RefundFacts,
    VaryingPrizesFacts,
)
from beano.rules.prohibited import (
    ARRANGE_TRANSPORTATION,
    RECORD_OTHER_SALE,
    SALES_WINDOW,
    OtherSaleFacts,
    TransportationFacts,
)
from beano.text import text
from occasions import extras_selectors as selectors
from occasions import moments, on_floor
from occasions import services as occasion_services
from occasions.models import (
    DoorPrize,
    Gift,
    Occasion,
    OtherSale,
    PoliceDetail,
    Refund,
    TransportationArrangement,
    VaryingPrizesAnnouncement,
)
from occasions.services import enforce_at, moment_of, status_at
from organizations.audit import acting_user, record_event, snapshot
from organizations.selectors import authorization_facts


def lock_occasion(occasion: Occasion, *, during_night: bool = True) -> Occasion:
    """The occasion, locked, once it has opened: these are records of the night. Prizes, sales
    and giveaways happen only while it is open (nothing is sold after the close); what is only
    recorded afterwards (the police detail's bill, a refund, a redemption) may follow the close."""
    occasion = occasion_services.lock_occasion(occasion)
    _require_opened(occasion, occasion.status, during_night)
    return occasion


def lock_occasion_at(
    occasion: Occasion,
    at: moments.At,
    *,
    by: Actor,
    act: str,
    during_night: bool = True,
    own_window: bool = False,
) -> tuple[Occasion, dt.datetime]:
    """``lock_occasion`` for an act with a moment, judged by where the occasion stood then: one
    entered from the night's paper sheets after the close happened while it was open. An act
    whose own rules judge its time against the opening and the close (``own_window``: other
    sales, charity and raffle tickets) needs, from paper, only an occasion that opened."""
    occasion = occasion_services.lock_occasion(occasion)
    _require_opened(occasion, occasion.status, during_night=False)
    moment = moment_of(occasion, at, by=by, act=act)
    if own_window:
        status = occasion.status if moments.paper_of(at) is None else Occasion.Status.OPEN
    else:
        status = status_at(occasion, moment)
    _require_opened(occasion, status, during_night)
    return occasion, moment


def _require_opened(occasion: Occasion, status: str, during_night: bool) -> None:
    allowed = (
        (Occasion.Status.OPEN,) if during_night else (Occasion.Status.OPEN, Occasion.Status.CLOSED)
    )
    if occasion.opened_at is None or status not in allowed:
        if status == Occasion.Status.CLOSED:
            raise ValidationError("This occasion is closed: nothing more is awarded or sold.")
        raise ValidationError(
            "This occasion has not opened; prizes and sales are recorded once it opens."
        )


def enforce(
    action: str, facts: Any, occasion: Occasion, by: Actor, *, authorizations: list | None = None
) -> Decision:
    """Prizes and other sales are waived only by the authorization the act names, if any."""
    return enforce_at(action, facts, occasion, by, authorizations or [])


def audit(occasion: Occasion, by: Actor, action: str, target: models.Model, fields: tuple) -> None:
    record_event(
        organization=occasion.organization,
        actor=by,
        action=action,
        target=target,
        new=snapshot(target, fields),
    )


@rules.atomic()
def announce_varying_prizes(
    *,
    occasion: Occasion,
    persons_entitled_to_play: int,
    prizes_announced: str,
    applies_to_all_games: bool,
    refunds_offered: bool,
    by: Actor,
    at: moments.At = None,
) -> VaryingPrizesAnnouncement:
    """Invoke 3.04(8)(d): before any game, announce the persons entitled to play and the prizes,
    for every game of the occasion, with refunds offered to paid patrons."""
    occasion, moment = lock_occasion_at(occasion, at, by=by, act="announcing varying prizes")
    prizes_announced = prizes_announced.strip()
    enforce(
        ANNOUNCE_VARYING,
        VaryingPrizesFacts(
            persons_entitled_to_play=persons_entitled_to_play,
            prizes_announced=prizes_announced,
            applies_to_all_games=applies_to_all_games,
            refunds_offered=refunds_offered,
            play_started=occasion.play_started_at is not None,
            already_announced=VaryingPrizesAnnouncement.objects.filter(occasion=occasion).exists(),
        ),
        occasion,
        by,
    )
    on_floor.require(occasion, by, moment, doing="announcing varying prizes")
    announcement = VaryingPrizesAnnouncement.objects.create(
        occasion=occasion,
        persons_entitled_to_play=persons_entitled_to_play,
        prizes_announced=prizes_announced,
        refunds_offered=refunds_offered,
        announced_at=moment,
        announced_by=acting_user(by),
    )
    audit(
        occasion,
        by,
        "occasions.varying_prizes.announced",
        announcement,
        ("persons_entitled_to_play", "prizes_announced", "refunds_offered", "announced_at"),
    )
    return announcement


@rules.atomic()
def record_refund(
    *,
    occasion: Occasion,
    amount: Decimal,
    player_reference: str,
    by: Actor,
    at: moments.At = None,
) -> Refund:
    """A refund paid to a patron under the varying-prizes announcement (3.04(8)(d))."""
    occasion, moment = lock_occasion_at(
        occasion, at, by=by, act="recording a refund", during_night=False
    )
    amount = money(amount, REFUND, "amount", positive=True)
    player_reference = text(player_reference, "player_reference", limit=100)
    announced = VaryingPrizesAnnouncement.objects.filter(occasion=occasion).exists()
    enforce(RECORD_REFUND, RefundFacts(amount, announced), occasion, by)
    refund = Refund.objects.create(
        occasion=occasion,
        amount=amount,
        player_reference=player_reference,
        refunded_at=moment,
        refunded_by=acting_user(by),
    )
    audit(
        occasion,
        by,
        "occasions.refund.recorded",
        refund,
        ("amount", "player_reference", "refunded_at"),
    )
    return refund


@rules.atomic()
def award_door_prize(
    *,
    occasion: Occasion,
    description: str,
    value: Decimal,
    donated: bool,
    winner_name: str,
    by: Actor,
    at: moments.At = None,
) -> DoorPrize:
    """A door prize, within the aggregate value per occasion in force (3.04(8)(e)); a donated
    one counts at fair market value (3.04(8)(c))."""
    occasion, moment = lock_occasion_at(occasion, at, by=by, act="awarding a door prize")
    description = text(description, "description")
    value = money(value, DOOR_PRIZE, "value")
    before = selectors.door_prizes_total(occasion)
    enforce(AWARD_DOOR_PRIZE, DoorPrizeFacts(description, value, before), occasion, by)
    on_floor.require(occasion, by, moment, doing="awarding a door prize")
    prize = DoorPrize.objects.create(
        occasion=occasion,
        description=description,
        value=value,
        donated=donated,
        winner_name=text(winner_name, "winner_name", required=False),
        awarded_at=moment,
        recorded_by=acting_user(by),
    )
    audit(
        occasion,
        by,
        "occasions.door_prize.awarded",
        prize,
        ("description", "value", "donated", "winner_name", "awarded_at"),
    )
    return prize


@rules.atomic()
def give_gift(
    *,
    occasion: Occasion,
    kind: str,
    description: str,
    value: Decimal,
    recipient: str,
    by: Actor,
    at: moments.At = None,
) -> Gift:
    """Free play, a service or a thing of value given without charge: only under the
    Director's written authorization valid on the date, which the row names (3.04(8)(e))."""
    occasion, moment = lock_occasion_at(occasion, at, by=by, act="giving a gift")
    description = text(description, "description")
    value = money(value, DOOR_PRIZE, "value")
    decision = enforce(
        GIVE_GIFT,
        GiftFacts(kind, description, value),
        occasion,
        by,
        authorizations=authorization_facts(
            occasion.organization, kinds=(AuthorizationKind.FREE_PLAY_OR_GIFTS,)
        ),
    )
    on_floor.require(occasion, by, moment, doing="giving a gift")
    gift = Gift(
        occasion=occasion,
        kind=kind,
        description=description,
        value=value,
        recipient=text(recipient, "recipient", required=False),
        authorization_id=decision.authorization_pks[0],
        given_at=moment,
        recorded_by=acting_user(by),
    )
    gift.full_clean()
    gift.save()
    audit(
        occasion,
        by,
        "occasions.gift.given",
        gift,
        ("kind", "description", "value", "recipient", "authorization", "given_at"),
    )
    return gift


def within_sales_window(occasion: Occasion, sold_at: dt.datetime) -> bool:
    """Is ``sold_at`` part of the occasion: from an hour before it opened to an hour after it
    closed (or is still open)? Sales outside are not the occasion's to record."""
    if occasion.opened_at is None or sold_at < occasion.opened_at - SALES_WINDOW:
        return False
    return occasion.closed_at is None or sold_at <= occasion.closed_at + SALES_WINDOW


@rules.atomic()
def record_other_sale(
    *,
    occasion: Occasion,
    kind: str,
    description: str,
    amount: Decimal,
    on_beano_portion: bool,
    by: Actor,
    at: moments.At = None,
) -> OtherSale:
    """Something else sold at the occasion: around it, where Beano is played, only Beano
    supplies, raffle or lottery tickets and food or refreshments (3.04(9)(e))."""
    occasion, moment = lock_occasion_at(
        occasion, at, by=by, act="recording another sale", own_window=True
    )
    description = text(description, "description")
    amount = money(amount, SALE, "amount")
    sold_at = moment
    if not within_sales_window(occasion, sold_at):
        raise ValidationError(
            {
                "time": "A sale recorded with this occasion is made from an hour before it "
                "opens to an hour after it closes: give the time it was made."
            }
        )
    enforce(
        RECORD_OTHER_SALE,
        OtherSaleFacts(
            kind=kind,
            description=description,
            on_beano_portion=on_beano_portion,
            sold_at=sold_at,
            opened_at=occasion.opened_at,
            closed_at=occasion.closed_at,
        ),
        occasion,
        by,
    )
    sale = OtherSale(
        occasion=occasion,
        kind=kind,
        description=description,
        amount=amount,
        on_beano_portion=on_beano_portion,
        sold_at=sold_at,
        recorded_by=acting_user(by),
    )
    sale.full_clean()
    sale.save()
    audit(
        occasion,
        by,
        "occasions.other_sale.recorded",
        sale,
        ("kind", "description", "amount", "on_beano_portion", "sold_at"),
    )
    return sale


@rules.atomic()
def record_police_detail(
    *,
    occasion: Occasion,
    officer_name: str,
    department_town: str,
    hours: Decimal,
    hourly_rate: Decimal,
    by: Actor,
) -> PoliceDetail:
    """A police officer of the occasion's town, paid no more than the town's prevailing rate in
    force on the date, in no other capacity (3.04(3)(e)). The amount is hours × rate."""
    occasion = lock_occasion(occasion, during_night=False)
    organization = occasion.organization
    officer_name = text(officer_name, "officer_name")
    department_town = text(department_town, "department_town", limit=100)
    hourly_rate = money(hourly_rate, HOURLY_RATE, "hourly_rate")
    if not isinstance(hours, Decimal) or not hours.is_finite() or not 0 < hours <= 24:
        raise ValidationError({"hours": "Hours are more than 0 and at most 24."})
    prevailing = selectors.prevailing_police_rate(department_town, occasion.date)
    enforce(
        RECORD_POLICE_DETAIL,
        PoliceDetailFacts(
            officer_name=officer_name,
            occasion_town=organization.town,
            department_town=department_town,
            hourly_rate=hourly_rate,
            prevailing_rate=prevailing.hourly_rate if prevailing else None,
            on_worker_list=selectors.on_worker_list(organization, officer_name, occasion.date),
        ),
        occasion,
        by,
    )
    detail = PoliceDetail(
        occasion=occasion,
        officer_name=officer_name,
        department_town=department_town,
        hours=hours,
        hourly_rate=hourly_rate,
        amount=cents(hours * hourly_rate),
        prevailing_rate=prevailing,
        recorded_by=acting_user(by),
    )
    detail.full_clean()
    detail.save()
    audit(
        occasion,
        by,
        "occasions.police_detail.recorded",
        detail,
        ("officer_name", "department_town", "hours", "hourly_rate", "amount", "prevailing_rate"),
    )
    return detail


@rules.atomic()
def arrange_transportation(
    *, occasion: Occasion, description: str, by: Actor
) -> TransportationArrangement:
    """Transportation of players to or from the premises: only with the Director's prior
    written authorization valid on the date, which the row names (3.04(9)(d))."""
    occasion = lock_occasion(occasion)
    description = text(description, "description", limit=300)
    decision = enforce(
        ARRANGE_TRANSPORTATION,
        TransportationFacts(description),
        occasion,
        by,
        authorizations=authorization_facts(
            occasion.organization, kinds=(AuthorizationKind.TRANSPORTATION,)
        ),
    )
    arrangement = TransportationArrangement.objects.create(
        occasion=occasion,
        description=description,
        authorization_id=decision.authorization_pks[0],
        recorded_by=acting_user(by),
    )
    audit(
        occasion,
        by,
        "occasions.transportation.arranged",
        arrangement,
        ("description", "authorization"),
    )
    return arrangement
