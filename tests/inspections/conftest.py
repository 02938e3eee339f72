"""Played occasions made in bulk, for the inspector's pages at two sizes: each night has a price
list, a door sale, the attendance, games with their ball calls, claims, verifications, winners
and payouts. Made directly (the services' rules are tested elsewhere), many at a time."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.utils import timezone

from games.models import (
    Arrangement,
    BallCall,
    CardVerification,
    Claim,
    DrawVerification,
    Game,
    Payout,
    PrizePart,
    Winner,
)
from occasions.models import (
    AttendanceAnnouncement,
    Occasion,
    PaperRecord,
    PriceListItem,
    Sale,
    SaleLine,
    WorkerPresence,
)
from organizations.models import WorkerListEntry
from reports.kept import keep
from tests.conftest import Tenant


def night(day: dt.date, hour: int, minute: int = 0) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour, minute)))


def single_line() -> Arrangement:
    arrangement, _ = Arrangement.objects.get_or_create(
        code="single_line", defaults={"name": "Any single line", "variants": [["B1", "B2"]]}
    )
    return arrangement


def played_occasions(
    tenant: Tenant,
    count: int,
    *,
    last: dt.date | None = None,
    games: int = 1,
    calls: int = 3,
    share: Decimal = Decimal("50.00"),
    on_paper: bool = False,
) -> list[Occasion]:
    """``count`` closed occasions of ``tenant``'s, one a day back from ``last`` (yesterday),
    each with 3 admissions sold ($6), 3 players announced, ``games`` games of ``calls`` balls
    (the last one voided) and one winner of ``share`` paid per game, TIN ending 6789.
    ``on_paper``: each night entered after the fact from its control sheets, its door a tally
    of serials, its cards attested and its payouts signed by two workers of the night."""
    last = last or timezone.localdate() - dt.timedelta(days=1)
    org = tenant.organization
    days = [last - dt.timedelta(days=i) for i in range(count)]
    occasions = Occasion.objects.bulk_create(
        Occasion(
            organization=org,
            license=org.licenses.get(),
            date=day,
            status=Occasion.Status.CLOSED,
            opened_at=night(day, 18),
            play_started_at=night(day, 18, 30),
            closed_at=night(day, 22),
        )
        for day in days
    )
    prices = PriceListItem.objects.bulk_create(
        PriceListItem(occasion=o, category="admission", label="Admission", price=Decimal("2.00"))
        for o in occasions
    )
    sales = Sale.objects.bulk_create(
        Sale(
            occasion=o,
            number=1,
            sold_by=tenant.worker,
            sold_at=night(o.date, 18, 5),
            tally=on_paper,
        )
        for o in occasions
    )
    SaleLine.objects.bulk_create(
        SaleLine(
            sale=s,
            price_item=p,
            category="admission",
            quantity=3,
            unit_price=Decimal("2.00"),
            amount=Decimal("6.00"),
            serial_first=1001 if on_paper else None,
            serial_last=1003 if on_paper else None,
        )
        for s, p in zip(sales, prices, strict=True)
    )
    signers = _paper_records(tenant, occasions) if on_paper else {}
    AttendanceAnnouncement.objects.bulk_create(
        AttendanceAnnouncement(
            occasion=o,
            players=3,
            announced_at=night(o.date, 20),
            announced_by=tenant.member_in_charge,
        )
        for o in occasions
    )
    arrangement = single_line()
    game_rows = Game.objects.bulk_create(
        Game(
            occasion=o,
            number=n,
            half=1,
            kind=Game.Kind.REGULAR,
            status=Game.Status.FINISHED,
            started_at=night(o.date, 18, 30 + n),
            finished_at=night(o.date, 18, 31 + n),
        )
        for o in occasions
        for n in range(1, games + 1)
    )
    parts = PrizePart.objects.bulk_create(
        PrizePart(
            game=g,
            order=1,
            arrangement=arrangement,
            amount=share,
            announced_at=g.started_at,
            announced_by=tenant.member_in_charge,
        )
        for g in game_rows
    )
    BallCall.objects.bulk_create(
        BallCall(
            game=g,
            sequence=i,
            number=i,
            called_at=g.started_at + dt.timedelta(seconds=10 * i),
            called_by=tenant.worker,
            voided_at=g.started_at + dt.timedelta(seconds=10 * i + 5) if i == calls else None,
            voided_by=tenant.member_in_charge if i == calls else None,
            void_reason="Mis-keyed" if i == calls else "",
        )
        for g in game_rows
        for i in range(1, calls + 1)
    )
    claims = Claim.objects.bulk_create(
        Claim(
            game=g,
            part=p,
            player_name=f"Player {g.pk}",
            table="4",
            claimed_at=g.finished_at,
            recorded_by=tenant.worker,
        )
        for g, p in zip(game_rows, parts, strict=True)
    )
    DrawVerification.objects.bulk_create(
        DrawVerification(
            claim=c,
            member_in_charge="Linda Souza",
            witnesses=["Rose Medeiros"],
            numbers_drawn=[1, 2],
            balls_remaining=[],
            verified_at=c.claimed_at,
        )
        for c in claims
    )
    CardVerification.objects.bulk_create(
        CardVerification(
            claim=c,
            numbers={"B1": 1},
            valid=True,
            witnesses=[{"name": "Rose Medeiros", "table": "12"}],
            verified_at=c.claimed_at,
            attested_on_paper=on_paper,
        )
        for c in claims
    )
    winners = Winner.objects.bulk_create(
        Winner(
            claim=c,
            player_name=c.player_name,
            share=share,
            kind="cash",
            recorded_at=c.claimed_at,
            recorded_by=tenant.member_in_charge,
        )
        for c in claims
    )
    Payout.objects.bulk_create(
        Payout(
            winner=w,
            amount=w.share,
            paid_by=tenant.bookkeeper if on_paper else tenant.member_in_charge,
            verified_by=None if on_paper else tenant.head,
            paid_by_worker=signers.get(w.claim.game.occasion_id, (None, None))[0],
            verified_by_worker=signers.get(w.claim.game.occasion_id, (None, None))[1],
            paid_at=w.recorded_at,
            w2g_required=True,
            w2g_legal_name=w.player_name,
            tin_sealed="sealed:123-45-6789",
            tin_last4="6789",
        )
        for w in winners
    )
    keep(Occasion.objects.filter(pk__in=[o.pk for o in occasions]))  # as their close keeps them
    return occasions


def _paper_records(
    tenant: Tenant, occasions: list[Occasion]
) -> dict[int, tuple[WorkerPresence, WorkerPresence]]:
    """Each night's paper record (the whole night, entered by the bookkeeper the next day), and
    the two workers of the night who signed its payouts, by occasion."""
    from tests.occasions.conftest import listed

    PaperRecord.objects.bulk_create(
        PaperRecord(
            occasion=o,
            scope=PaperRecord.Scope.WHOLE,
            sheets="Control sheets",
            reason="Played on paper",
            entered_by=tenant.bookkeeper,
            created_at=night(o.date + dt.timedelta(days=1), 9),
        )
        for o in occasions
    )
    entries = [
        WorkerListEntry.objects.filter(
            worker_list__organization=tenant.organization, person__legal_name=name
        ).first()
        or listed(tenant, name, ["seller", "floor_worker"], badge)
        for name, badge in (("Mary Gallagher", "P-06"), ("Anne Sullivan", "P-07"))
    ]
    presences = WorkerPresence.objects.bulk_create(
        WorkerPresence(
            occasion=o,
            entry=e,
            role="seller",
            identification=e.identification,
            signed_in_at=night(o.date, 18),
            signed_out_at=o.closed_at,
        )
        for o in occasions
        for e in entries
    )
    return {o.pk: (presences[2 * i], presences[2 * i + 1]) for i, o in enumerate(occasions)}


@pytest.fixture
def played(tenant: Tenant) -> Occasion:
    """One closed occasion of ``tenant``'s, yesterday, as ``played_occasions`` makes them."""
    return played_occasions(tenant, 1)[0]


def staff_user(username: str, *organizations: Any, **extra: Any) -> Any:
    from organizations.models import CommissionStaff
    from tests.conftest import make_user

    user = make_user(username)
    staff = CommissionStaff.objects.create(user=user, kind=CommissionStaff.Kind.INSPECTOR, **extra)
    staff.organizations.add(*organizations)
    return user
