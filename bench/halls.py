"""A statewide Friday night for the load test: ``n`` halls, each an organization with an open
occasion tonight, its posted price list, its workers signed in as users (a seller, a caller, the
member in charge, a bookkeeper), a program of games with the first in play and the rest announced,
the flashboard's link, and the door's first sales; one inspector for every twenty halls.

Built with bulk inserts (the rules judge each act of the night itself, not the stage it starts
from), so a thousand halls take seconds. Each user gets a database session, made here as a login
would make it, so the load test never pays for a password hash. Returns what the load clients
need: the URLs, the cookies, the posted prices and the draw so far."""

from __future__ import annotations

import datetime as dt
import random
import secrets
import time
from dataclasses import asdict, dataclass, field
from decimal import Decimal
from typing import Any

#: The prices of a typical night (``DEFAULT_PRICES`` in occasions/selectors.py).
PRICES = [
    ("admission", "Admission (3-on regular card)", Decimal("2.00")),
    ("extra_regular", "Extra regular card (3-on)", Decimal("1.00")),
    ("bonus", "Bonus card", Decimal("1.00")),
    ("special", "Special game card", Decimal("2.00")),
    ("winner_take_all", "Winner-take-all card", Decimal("1.00")),
]
GAMES_PER_HALL = 20
SALES_BEFORE = 40  # receipts already sold at the door when the load starts
HALLS_PER_INSPECTOR = 20
#: The logins signed in on each hall's floor tonight, with their duty on its worker list.
FLOOR_CREW = {"seller": "seller", "caller": "caller", "mic": "member_in_charge"}
PASSWORD = "bench-not-a-real-password"
BATCH = 2000


@dataclass
class Hall:
    org: int
    occasion: int
    token: str
    prices: dict[str, int]  # category -> price list item id
    games: list[int]  # the program's game ids, in order
    game: int  # the game in play
    called: list[int]  # its balls called so far
    sessions: dict[str, str]  # role -> session key
    csrf: str


@dataclass
class Inspector:
    session: str
    csrf: str
    halls: list[int] = field(default_factory=list)  # indexes into the halls


@dataclass
class Night:
    halls: list[Hall]
    inspectors: list[Inspector]

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _session_rows(
    users: list[Any], backend: str, expires: dt.datetime, devices: dict[int, str] | None = None
) -> dict[int, str]:
    """A logged-in session for each user, as ``login()`` stores it; a user with a device (the
    inspectors) has passed the second factor with it, as the verify page records it."""
    import django_otp
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session

    from beano.accounts.middleware import SIGNED_IN_AT_KEY

    store = SessionStore()
    signed_in_at = int(time.time())  # the wall clock, as the absolute session lifetime reads it
    keys: dict[int, str] = {}
    rows = []
    for user in users:
        key = secrets.token_hex(16)
        data = {
            SESSION_KEY: str(user.pk),
            BACKEND_SESSION_KEY: backend,
            HASH_SESSION_KEY: user.get_session_auth_hash(),
            SIGNED_IN_AT_KEY: signed_in_at,
        }
        if devices and user.pk in devices:
            data[django_otp.DEVICE_ID_SESSION_KEY] = devices[user.pk]
        rows.append(Session(session_key=key, session_data=store.encode(data), expire_date=expires))
        keys[user.pk] = key
    Session.objects.bulk_create(rows, batch_size=BATCH)
    assert settings.SESSION_ENGINE.endswith(("db", "cached_db")), settings.SESSION_ENGINE
    return keys


def build(n: int, *, seed: int = 9) -> Night:
    """``n`` halls playing tonight. The database is expected empty but migrated."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.db import transaction
    from django.utils import timezone
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from games.models import Arrangement, BallCall, Flashboard, Game, PrizePart
    from occasions.models import Occasion, PriceListItem, Sale, SaleLine, WorkerPresence
    from organizations.models import (
        AuditChain,
        CommissionStaff,
        License,
        Membership,
        Organization,
        OrganizationRole,
        Person,
        Role,
        WorkerList,
        WorkerListEntry,
    )

    rng = random.Random(seed)
    User = get_user_model()
    now = timezone.now()
    today = timezone.localdate()
    opened = now - dt.timedelta(minutes=50)
    started = now - dt.timedelta(minutes=5)
    password = make_password(PASSWORD)
    arrangements = list(Arrangement.objects.order_by("code"))
    with transaction.atomic():
        orgs = Organization.objects.bulk_create(
            [
                Organization(
                    name=f"Bench Hall {i:04d}",
                    kind=Organization.Kind.VETERANS,
                    founded_on=dt.date(1950, 1, 1),
                    street=f"{i} Main Street",
                    town="Worcester",
                    zip_code="01608",
                )
                for i in range(n)
            ],
            batch_size=BATCH,
        )
        AuditChain.objects.bulk_create(
            [AuditChain(key=f"org:{o.pk}", organization=o) for o in orgs], batch_size=BATCH
        )
        licenses = License.objects.bulk_create(
            [
                License(
                    organization=o,
                    number=f"BENCH-{o.pk}",
                    valid_from=today - dt.timedelta(days=300),
                    valid_to=today + dt.timedelta(days=300),
                    premises_name="Hall",
                    premises_address=o.street,
                    authorized_weekdays=[today.weekday()],
                    local_licensing_authority="City Council",
                )
                for o in orgs
            ],
            batch_size=BATCH,
        )
        roles = {
            "seller": Role.WORKER,
            "caller": Role.WORKER,
            "mic": Role.MEMBER_IN_CHARGE,
            "books": Role.BOOKKEEPER,
        }
        users = User.objects.bulk_create(
            [User(username=f"hall{o.pk}-{who}", password=password) for o in orgs for who in roles],
            batch_size=BATCH,
        )
        by_hall = [dict(zip(roles, users[i * 4 : i * 4 + 4], strict=True)) for i in range(n)]
        # Each login names its person, and the hall's worker list holds them: every act of the
        # floor is done by a worker of the night signed in (3.04(1)(b)).
        people = Person.objects.bulk_create(
            [
                Person(legal_name=f"Hall {o.pk} {who}", date_of_birth=dt.date(1960, 1, 1))
                for o in orgs
                for who in roles
            ],
            batch_size=BATCH,
        )
        person_of = [dict(zip(roles, people[i * 4 : i * 4 + 4], strict=True)) for i in range(n)]
        Membership.objects.bulk_create(
            [
                Membership(organization=o, person=person, kind="member", since=dt.date(2015, 1, 1))
                for i, o in enumerate(orgs)
                for person in person_of[i].values()
            ],
            batch_size=BATCH,
        )
        OrganizationRole.objects.bulk_create(
            [
                OrganizationRole(
                    user=by_hall[i][who], organization=o, role=role, person=person_of[i][who]
                )
                for i, o in enumerate(orgs)
                for who, role in roles.items()
            ],
            batch_size=BATCH,
        )
        lists = WorkerList.objects.bulk_create(
            [WorkerList(organization=o, year=today.year) for o in orgs], batch_size=BATCH
        )
        entries = WorkerListEntry.objects.bulk_create(
            [
                WorkerListEntry(
                    worker_list=lists[i],
                    person=person_of[i][who],
                    roles=[duty],
                    identification=f"B-{who}",
                    added_on=dt.date(today.year, 1, 1),
                )
                for i in range(n)
                for who, duty in FLOOR_CREW.items()
            ],
            batch_size=BATCH,
        )
        occasions = Occasion.objects.bulk_create(
            [
                Occasion(
                    organization=o,
                    license=lic,
                    date=today,
                    status=Occasion.Status.OPEN,
                    opened_at=opened,
                    opened_by=by_hall[i]["mic"],
                    play_started_at=started,
                )
                for i, (o, lic) in enumerate(zip(orgs, licenses, strict=True))
            ],
            batch_size=BATCH,
        )
        WorkerPresence.objects.bulk_create(
            [
                WorkerPresence(
                    occasion=occasions[k // len(FLOOR_CREW)],
                    entry=entry,
                    role=entry.roles[0],
                    identification=entry.identification,
                    signed_in_at=opened - dt.timedelta(minutes=15),
                )
                for k, entry in enumerate(entries)
            ],
            batch_size=BATCH,
        )
        items = PriceListItem.objects.bulk_create(
            [
                PriceListItem(occasion=occ, category=c, label=label, price=price)
                for occ in occasions
                for c, label, price in PRICES
            ],
            batch_size=BATCH,
        )
        games = Game.objects.bulk_create(
            [
                Game(
                    occasion=occ,
                    number=g + 1,
                    half=1,
                    kind=Game.Kind.REGULAR,
                    status=Game.Status.IN_PLAY if g == 0 else Game.Status.PLANNED,
                    balls_confirmed_at=started if g == 0 else None,
                    started_at=started if g == 0 else None,
                )
                for occ in occasions
                for g in range(GAMES_PER_HALL)
            ],
            batch_size=BATCH,
        )
        PrizePart.objects.bulk_create(
            [
                PrizePart(
                    game=game,
                    order=1,
                    arrangement=arrangements[game.number % len(arrangements)],
                    amount=Decimal("50.00"),
                    announced_at=opened,
                )
                for game in games
            ],
            batch_size=BATCH,
        )
        called: list[list[int]] = []
        calls = []
        for i in range(n):
            balls = rng.sample(range(1, 76), rng.randint(0, 30))
            called.append(balls)
            game = games[i * GAMES_PER_HALL]
            calls += [
                BallCall(
                    game=game,
                    sequence=s + 1,
                    number=b,
                    called_at=started + dt.timedelta(seconds=s),
                    called_by=by_hall[i]["caller"],
                )
                for s, b in enumerate(balls)
            ]
        BallCall.objects.bulk_create(calls, batch_size=BATCH)
        boards = Flashboard.objects.bulk_create(
            [Flashboard(occasion=occ, created_at=opened) for occ in occasions], batch_size=BATCH
        )
        sales = Sale.objects.bulk_create(
            [
                Sale(
                    occasion=occ,
                    number=k + 1,
                    sold_by=by_hall[i]["seller"],
                    sold_at=opened + dt.timedelta(seconds=20 * k),
                )
                for i, occ in enumerate(occasions)
                for k in range(SALES_BEFORE)
            ],
            batch_size=BATCH,
        )
        lines = []
        for j, sale in enumerate(sales):
            hall = j // SALES_BEFORE
            posted = items[hall * len(PRICES) : (hall + 1) * len(PRICES)]
            for item, quantity in ((posted[0], 1), (posted[1], 1 + j % 3), (posted[2], j % 2)):
                if quantity:
                    lines.append(
                        SaleLine(
                            sale=sale,
                            price_item=item,
                            category=item.category,
                            quantity=quantity,
                            unit_price=item.price,
                            amount=item.price * quantity,
                        )
                    )
        SaleLine.objects.bulk_create(lines, batch_size=BATCH)
        inspector_users = User.objects.bulk_create(
            [
                User(username=f"bench-inspector-{k}", password=password)
                for k in range((n + HALLS_PER_INSPECTOR - 1) // HALLS_PER_INSPECTOR)
            ],
            batch_size=BATCH,
        )
        staff = CommissionStaff.objects.bulk_create(
            [CommissionStaff(user=u, kind=CommissionStaff.Kind.INSPECTOR) for u in inspector_users]
        )
        through = CommissionStaff.organizations.through
        through.objects.bulk_create(
            [
                through(commissionstaff_id=s.pk, organization_id=orgs[i].pk)
                for k, s in enumerate(staff)
                for i in range(k * HALLS_PER_INSPECTOR, min(n, (k + 1) * HALLS_PER_INSPECTOR))
            ],
            batch_size=BATCH,
        )
        # The Commission's staff and whoever files reports pass a second factor
        # (beano/accounts): each inspector and bookkeeper has an authenticator, and their
        # session says it was used.
        devices = TOTPDevice.objects.bulk_create(
            [
                TOTPDevice(user=u, name="Bench authenticator", confirmed=True)
                for u in inspector_users + [u for u in users if u.username.endswith("-books")]
            ]
        )
        backend = "beano.accounts.backends.CeilingModelBackend"
        expires = now + dt.timedelta(days=1)
        sessions = _session_rows(
            users + inspector_users,
            backend,
            expires,
            {d.user_id: d.persistent_id for d in devices},
        )
    halls = [
        Hall(
            org=o.pk,
            occasion=occasions[i].pk,
            token=boards[i].token,
            prices={it.category: it.pk for it in items[i * len(PRICES) : (i + 1) * len(PRICES)]},
            games=[g.pk for g in games[i * GAMES_PER_HALL : (i + 1) * GAMES_PER_HALL]],
            game=games[i * GAMES_PER_HALL].pk,
            called=called[i],
            sessions={who: sessions[u.pk] for who, u in by_hall[i].items()},
            csrf=secrets.token_hex(16),
        )
        for i, o in enumerate(orgs)
    ]
    inspectors = [
        Inspector(
            session=sessions[u.pk],
            csrf=secrets.token_hex(16),
            halls=list(range(k * HALLS_PER_INSPECTOR, min(n, (k + 1) * HALLS_PER_INSPECTOR))),
        )
        for k, u in enumerate(inspector_users)
    ]
    return Night(halls, inspectors)


def refresh(night: Night) -> None:
    """Each hall's draw as the database has it now (the game in play and its balls), for a
    phase that follows another: the clients never call a ball twice or in a finished game."""
    from games.models import BallCall, Game

    in_play = dict(
        Game.objects.filter(
            occasion_id__in=[h.occasion for h in night.halls], status=Game.Status.IN_PLAY
        ).values_list("occasion_id", "pk")
    )
    balls: dict[int, list[int]] = {}
    for game_id, number in BallCall.objects.filter(
        game_id__in=list(in_play.values()), voided_at__isnull=True
    ).values_list("game_id", "number"):
        balls.setdefault(game_id, []).append(number)
    planned = set(
        Game.objects.filter(
            occasion_id__in=[h.occasion for h in night.halls], status=Game.Status.PLANNED
        ).values_list("pk", flat=True)
    )
    for hall in night.halls:
        game = in_play.get(hall.occasion)
        if game is None:  # between games: the next planned one is started by the client
            hall.game = 0
            hall.called = []
        else:
            hall.game = game
            hall.called = balls.get(game, [])
        hall.games = [g for g in hall.games if g in planned or g == game]
