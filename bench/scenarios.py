"""The busy pages and how to fill them at a given scale (1 = a typical organization)."""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.urls import reverse

from organizations import services
from organizations.models import (
    CardPurchase,
    CommissionStaff,
    License,
    Membership,
    Organization,
    Person,
    Role,
    WorkerList,
    WorkerListEntry,
)

_counter = itertools.count(1)


def _user(role_org: Organization | None = None, role: str = Role.HEAD) -> Any:
    user = get_user_model().objects.create_user(f"bench-{next(_counter)}", password="x" * 12)
    if role_org is not None:
        services.assign_role(organization=role_org, by=None, user=user, role=role)
    return user


def _organization() -> Organization:
    n = next(_counter)
    org = Organization.objects.create(
        name=f"Bench Post {n}",
        kind="veterans",
        founded_on=dt.date(1950, 1, 1),
        street=f"{n} Main St",
        town="Fairhaven",
        zip_code="02719",
    )
    License.objects.create(
        organization=org,
        number=f"BENCH-{n}",
        valid_from=dt.date(2020, 1, 1),
        valid_to=dt.date(2030, 12, 31),
        premises_name="Hall",
        premises_address="Main St",
        authorized_weekdays=[4],
        local_licensing_authority="Select Board",
    )
    return org


def _people(org: Organization, count: int) -> list[Membership]:
    n = next(_counter)
    people = Person.objects.bulk_create(
        Person(legal_name=f"Person {n}-{i}", date_of_birth=dt.date(1960, 1, 1) + dt.timedelta(i))
        for i in range(count)
    )
    return Membership.objects.bulk_create(
        Membership(organization=org, person=p, kind="member", since=dt.date(2010, 1, 1))
        for p in people
    )


def inspector_dashboard(scale: int) -> tuple:
    for _ in range(15 * scale):
        _organization()
    user = _user()
    CommissionStaff.objects.create(user=user, kind="inspector", all_organizations=True)
    return user, reverse("inspector_dashboard"), Organization.objects.count()


def member_list(scale: int) -> tuple:
    org = _organization()
    _people(org, 40 * scale)
    return _user(org), reverse("member_list", args=[org.pk]), 40 * scale


def worker_list(scale: int) -> tuple:
    org = _organization()
    year = dt.date.today().year
    wl = WorkerList.objects.create(organization=org, year=year)
    WorkerListEntry.objects.bulk_create(
        WorkerListEntry(
            worker_list=wl,
            person=m.person,
            roles=["seller"],
            identification=f"B-{i}",
            added_on=dt.date(year, 1, 1),
        )
        for i, m in enumerate(_people(org, 15 * scale))
    )
    return _user(org), reverse("worker_list", args=[org.pk]), 15 * scale


def audit_log(scale: int) -> tuple:
    org = _organization()
    user = _user(org)
    for m in _people(org, 50 * scale)[: 50 * scale]:
        services.update_membership(
            membership=m, by=user, kind="member", until=None, relationship=f"r{m.pk}"
        )
    return user, reverse("audit_log", args=[org.pk]), 50 * scale


def card_inventory(scale: int) -> tuple:
    org = _organization()
    CardPurchase.objects.bulk_create(
        CardPurchase(
            organization=org,
            supplier="Supply",
            invoice_number=f"INV-{i}",
            invoice_date=dt.date(2026, 1, 1),
            card_type="admission",
            series=f"S{i}",
            quantity=100,
            unit_cost=Decimal("0.10"),
            proof_reference="binder",
        )
        for i in range(10 * scale)
    )
    return _user(org), reverse("card_inventory", args=[org.pk]), 10 * scale


def _open_occasion_with_sales(scale: int) -> tuple[Any, Any]:
    """An open occasion with ``100 * scale`` door sales (an admission and two extras each)."""
    from django.utils import timezone

    from occasions import services as occasion_services
    from occasions.models import Occasion, Sale, SaleLine
    from occasions.selectors import DEFAULT_PRICES

    org = _organization()
    user = _user(org, Role.MEMBER_IN_CHARGE)
    day = dt.date(2026, 12, 4)
    occasion = occasion_services.occasion_for_day(organization=org, day=day, by=user)
    occasion_services.set_price_list(
        occasion=occasion,
        items=[{"category": c, "label": label, "price": p} for c, label, p in DEFAULT_PRICES],
        by=user,
    )
    Occasion.objects.filter(pk=occasion.pk).update(status="open", opened_at=timezone.now())
    items = {i.category: i for i in occasion.price_items.all()}
    sales = Sale.objects.bulk_create(
        Sale(occasion=occasion, number=n, sold_by=user, sold_at=timezone.now())
        for n in range(1, 100 * scale + 1)
    )
    SaleLine.objects.bulk_create(
        SaleLine(
            sale=sale,
            price_item=items[c],
            category=c,
            quantity=q,
            unit_price=items[c].price,
            amount=items[c].price * q,
        )
        for sale in sales
        for c, q in (("admission", 1), ("extra_regular", 2))
    )
    return user, occasion


def door_sales(scale: int) -> tuple:
    user, occasion = _open_occasion_with_sales(scale)
    return user, reverse("door_sales", args=[occasion.organization_id, occasion.pk]), 100 * scale


def occasion_page(scale: int) -> tuple:
    user, occasion = _open_occasion_with_sales(scale)
    url = reverse("occasion_detail", args=[occasion.organization_id, occasion.pk])
    return user, url, 100 * scale


def _game_in_play(scale: int) -> tuple[Any, Any, Any]:
    """Game 1 of an open occasion, in play, with ``7 * scale`` balls called (7 and 70)."""
    from django.utils import timezone

    from games.models import Arrangement, BallCall, Game, PrizePart

    user, occasion = _open_occasion_with_sales(1)
    game = Game.objects.create(
        occasion=occasion,
        number=1,
        half=1,
        kind="regular",
        status="in_play",
        started_at=timezone.now(),
    )
    PrizePart.objects.create(
        game=game,
        order=1,
        arrangement=Arrangement.objects.get(code="coverall"),
        amount=Decimal("200.00"),
        announced_at=timezone.now(),
    )
    BallCall.objects.bulk_create(
        BallCall(game=game, sequence=i + 1, number=i + 1, called_at=timezone.now(), called_by=user)
        for i in range(7 * scale)
    )
    return user, occasion, game


def caller_console(scale: int) -> tuple:
    user, occasion, game = _game_in_play(scale)
    url = reverse("draw_console", args=[occasion.organization_id, occasion.pk, game.pk])
    return user, url, 7 * scale


def flashboard_board(scale: int) -> tuple:
    from games.draw_services import issue_flashboard_link

    user, occasion, _ = _game_in_play(scale)
    board = issue_flashboard_link(occasion=occasion, by=user)
    return None, reverse("flashboard_board", args=[board.token]), 7 * scale


def flashboard_unchanged(scale: int) -> tuple:
    """The projector's poll when no ball was called since: the conditional GET's 304."""
    from django.test import Client

    _, url, rows = flashboard_board(scale)
    etag = Client().get(url)["ETag"]
    return None, url, rows, {"If-None-Match": etag}


SCENARIOS: dict[str, Callable[[int], tuple]] = {
    "caller console": caller_console,
    "flashboard poll": flashboard_board,
    "flashboard poll, unchanged": flashboard_unchanged,
    "door sales screen": door_sales,
    "occasion page": occasion_page,
    "inspector dashboard": inspector_dashboard,
    "member list": member_list,
    "worker list": worker_list,
    "audit trail": audit_log,
    "card inventory": card_inventory,
}
