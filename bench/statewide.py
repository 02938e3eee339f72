"""A statewide year of Beano, and how fast the inspector's pages answer on it.

``--scale 1`` (the default) is 150 organizations each playing one night a week for 52 weeks:
7,800 occasions, 30 games a night (234,000 games), about 43 balls a game (10 million ball
calls), 100 door sales a night with their lines, a winner claimed, verified and paid in each game,
worker lists of forty people (some on two organizations' lists) signed in at each occasion, and a
couple of refused actions a night; one organization also has its audit trail (an event for each
ball and each sale: about 75,000 events, chained; four weeks of it below scale 0.5).
``--scale 0.01`` is two organizations.

The rows are generated, never judged by the rules (the year is history), and written with
PostgreSQL's COPY (psycopg 3) with their ids set here, or with ``bulk_create`` on SQLite
(``--database sqlite``, for small scales). Then the pages are timed in this process with Django's
test client and the production settings (DEBUG off): the inspector's dashboard, an
organization's pages, an occasion's pages, and the list and search pages; p50 and p95 over
repeated requests and the queries each runs. The target is a p95 of 200 ms or less.

    python bench/statewide.py                # the full year, writes bench/RESULTS.{json,md}
    python bench/statewide.py --quick        # scale 0.01, a few requests, nothing written
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.pg import collect_static  # noqa: E402
from bench.profiling import show_profile  # noqa: E402
from bench.results import load_average, machine, now, percentile  # noqa: E402

WEEKS = 52
GAMES = 30  # a night's program
SALES = 100  # receipts at the door a night
WORKERS = 40  # on each organization's list
PRESENT = 8  # signed in at each occasion
REFUSED = 2  # refused actions a night
PRICES = [
    ("admission", "Admission (3-on regular card)", Decimal("2.00")),
    ("extra_regular", "Extra regular card (3-on)", Decimal("1.00")),
    ("bonus", "Bonus card", Decimal("1.00")),
    ("special", "Special game card", Decimal("2.00")),
    ("winner_take_all", "Winner-take-all card", Decimal("1.00")),
]
CITATIONS = ["961 CMR 3.04(5)(a)", "961 CMR 3.04(6)(a)", "961 CMR 3.04(4)(c)", "961 CMR 3.04(8)(e)"]
PASSWORD = "statewide-not-a-real-password"


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=0.0, help="1 = 150 organizations")
    parser.add_argument("--quick", action="store_true", help="scale 0.01, nothing written")
    parser.add_argument("--runs", type=int, default=0, help="requests per page (timed)")
    parser.add_argument("--database", choices=("postgres", "sqlite"), default="postgres")
    parser.add_argument(
        "--database-url",
        # This run's own database (dropped at the end), unless named: another session's run
        # must not drop it under this one's feet.
        default=os.environ.get("BENCH_STATEWIDE_DATABASE_URL", ""),
    )
    parser.add_argument(
        "--admin-url",
        default=os.environ.get("BENCH_PG_ADMIN_URL", "postgres://postgres@127.0.0.1:5432/postgres"),
    )
    parser.add_argument("--keep", action="store_true", help="time the data of --database-url again")
    parser.add_argument(
        "--only", default="", help="time only the pages whose name contains this text (with --keep)"
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="profile each page's timed requests (cProfile, top 30; a file for each page)",
    )
    args = parser.parse_args(argv)
    args.drop = not args.database_url
    if args.keep and args.drop:
        parser.error("--keep times the data of a database named with --database-url")
    if not args.database_url:
        args.database_url = f"postgres://beano@127.0.0.1:5432/beano_statewide_{os.getpid()}"
    if not args.scale:
        args.scale = 0.01 if args.quick else 1.0
    if not args.runs:
        args.runs = 3 if args.quick else 30
    return args


def cols(names: str) -> list[str]:
    return names.split()


# -- the year, as rows ---------------------------------------------------------------------


class Plan:
    """Every id of the year is computed, not looked up: organization ``o`` (0-based), its ``w``th
    week, the ``g``th game of that night; so each table is written in one pass."""

    def __init__(self, orgs: int, today: dt.date, seed: int = 3) -> None:
        from django.utils import timezone

        self.orgs = orgs
        self.seed = seed
        self.today = today
        self.tz = timezone.get_current_timezone()
        self.occasions = orgs * WEEKS
        self.games = self.occasions * GAMES

    def weekday(self, o: int) -> int:
        return (4 + o) % 7  # most on Friday, the rest through the week

    def date(self, o: int, w: int) -> dt.date:
        """The ``w``th of the organization's last 52 nights before today (0 = the oldest)."""
        last = self.today - dt.timedelta(days=1)
        while last.weekday() != self.weekday(o):
            last -= dt.timedelta(days=1)
        return last - dt.timedelta(weeks=WEEKS - 1 - w)

    def at(self, day: dt.date, hour: int, minute: int = 0, second: int = 0) -> dt.datetime:
        return dt.datetime.combine(day, dt.time(hour, minute), tzinfo=self.tz) + dt.timedelta(
            seconds=second
        )

    # ids (all 1-based)
    def org_id(self, o: int) -> int:
        return o + 1

    def user_id(self, o: int, role: int) -> int:  # head, mic, books, worker
        return o * 4 + role + 1

    def occasion_id(self, o: int, w: int) -> int:
        return o * WEEKS + w + 1

    def game_id(self, o: int, w: int, g: int) -> int:
        return (self.occasion_id(o, w) - 1) * GAMES + g + 1

    def person_id(self, o: int, k: int) -> int:
        return o * WORKERS + k + 1

    def balls(self, game_id: int) -> tuple[list[int], list[int]]:
        """The balls called in a game, and the positions of the mis-keyed entries voided."""
        rng = random.Random(game_id * 7919 + self.seed)
        balls = rng.sample(range(1, 76), rng.randint(30, 56))
        voided = [i for i in range(len(balls)) if rng.random() < 0.005]
        return balls, voided


def _organizations(p: Plan, w: Callable, password: str) -> None:
    from organizations.models import (
        CommissionStaff,
        License,
        Membership,
        Organization,
        OrganizationRole,
        Person,
        WorkerList,
        WorkerListEntry,
    )

    created = p.at(p.today - dt.timedelta(days=400), 12)
    w(
        Organization,
        cols("id name kind founded_on street town zip_code telephone federal_id created_at"),
        (
            (
                p.org_id(o),
                f"Statewide Post {o + 1:03d}",
                "veterans",
                dt.date(1950, 1, 1),
                f"{o + 1} Main Street",
                f"Town {o % 60}",
                "01000",
                "",
                "",
                created,
            )
            for o in range(p.orgs)
        ),
    )
    w(
        License,
        cols(
            "id organization_id number valid_from valid_to status premises_name "
            "premises_address authorized_weekdays local_licensing_authority practice"
        ),
        (
            (
                p.org_id(o),
                p.org_id(o),
                f"SW-{o + 1:04d}",
                p.today - dt.timedelta(days=400),
                p.today + dt.timedelta(days=400),
                "active",
                "Hall",
                f"{o + 1} Main Street",
                json.dumps([p.weekday(o)]),
                "Select Board",
                False,
            )
            for o in range(p.orgs)
        ),
    )
    from django.contrib.auth import get_user_model

    User = get_user_model()
    names = ("head", "mic", "books", "worker")
    w(
        User,
        cols(
            "id password username first_name last_name email is_staff is_active is_superuser "
            "date_joined"
        ),
        (
            (
                p.user_id(o, r),
                password,
                f"sw{o + 1}-{names[r]}",
                "",
                "",
                "",
                False,
                True,
                False,
                created,
            )
            for o in range(p.orgs)
            for r in range(4)
        ),
    )
    inspector = p.orgs * 4 + 1
    w(
        User,
        cols(
            "id password username first_name last_name email is_staff is_active is_superuser "
            "date_joined"
        ),
        [(inspector, password, "sw-inspector", "", "", "", False, True, False, created)],
    )
    w(
        CommissionStaff,
        ["id", "user_id", "kind", "all_organizations"],
        [(1, inspector, "inspector", True)],
    )
    roles = ("head", "member_in_charge", "bookkeeper", "worker")
    w(
        OrganizationRole,
        ["id", "user_id", "organization_id", "role", "person_id"],
        (
            (p.user_id(o, r), p.user_id(o, r), p.org_id(o), roles[r], p.person_id(o, r))
            for o in range(p.orgs)
            for r in range(4)
        ),
    )
    w(
        Person,
        ["id", "legal_name", "date_of_birth", "commission_worker_id", "supplier_connected"],
        (
            (
                p.person_id(o, k),
                f"Worker {o + 1}-{k + 1}",
                dt.date(1950 + k, 1 + o % 12, 1),
                "",
                False,
            )
            for o in range(p.orgs)
            for k in range(WORKERS)
        ),
    )
    w(
        Membership,
        ["id", "organization_id", "person_id", "kind", "relationship", "since"],
        (
            (p.person_id(o, k), p.org_id(o), p.person_id(o, k), "member", "", dt.date(2010, 1, 1))
            for o in range(p.orgs)
            for k in range(WORKERS)
        ),
    )
    years = sorted({p.date(0, 0).year, p.today.year})
    w(
        WorkerList,
        ["id", "organization_id", "year", "created_at"],
        (
            (o * len(years) + y + 1, p.org_id(o), year, created)
            for o in range(p.orgs)
            for y, year in enumerate(years)
        ),
    )

    def entries() -> Iterator[tuple]:
        pk = 0
        for o in range(p.orgs):
            for y, year in enumerate(years):
                listed = [p.person_id(o, k) for k in range(WORKERS)]
                if p.orgs > 1:  # a few also work for the next organization
                    listed += [
                        p.person_id((o + 1) % p.orgs, k) for k in range(WORKERS - 4, WORKERS)
                    ]
                for person in listed:
                    pk += 1
                    roles = '["seller","floor_worker"]' if pk % 5 else '["caller","seller"]'
                    yield (
                        (
                            pk,
                            o * len(years) + y + 1,
                            person,
                            roles,
                            f"ID-{person}",
                            False,
                            "",
                            False,
                            "",
                            dt.date(year, 1, 2),
                        )
                    )

    w(
        WorkerListEntry,
        cols(
            "id worker_list_id person_id roles identification compensated compensation_note "
            "good_moral_character_attested attested_by added_on"
        ),
        entries(),
    )


def _occasions(p: Plan, w: Callable) -> None:
    from occasions.models import Occasion, PriceListItem, Sale, SaleLine, WorkerPresence

    def occasions() -> Iterator[tuple]:
        for o in range(p.orgs):
            for k in range(WEEKS):
                day = p.date(o, k)
                yield (
                    (
                        p.occasion_id(o, k),
                        p.org_id(o),
                        p.org_id(o),
                        day,
                        "closed",
                        p.at(day, 18),
                        p.user_id(o, 1),
                        p.at(day, 23),
                        p.user_id(o, 1),
                        "",
                        p.at(day, 19),
                        p.at(day, 21),
                        p.at(day, 12),
                    )
                )

    w(
        Occasion,
        cols(
            "id organization_id license_id date status opened_at opened_by_id closed_at "
            "closed_by_id not_played_reason play_started_at second_half_started_at created_at"
        ),
        occasions(),
    )
    n = len(PRICES)
    w(
        PriceListItem,
        ["id", "occasion_id", "category", "label", "price", "package_contents"],
        (
            ((occ - 1) * n + j + 1, occ, c, label, price, "")
            for occ in range(1, p.occasions + 1)
            for j, (c, label, price) in enumerate(PRICES)
        ),
    )

    def sales() -> Iterator[tuple]:
        for o in range(p.orgs):
            for k in range(WEEKS):
                occ = p.occasion_id(o, k)
                day = p.date(o, k)
                for s in range(SALES):
                    yield (
                        (
                            (occ - 1) * SALES + s + 1,
                            occ,
                            s + 1,
                            p.user_id(o, 3),
                            p.at(day, 18, 0, 20 * s),
                            "",
                        )
                    )

    w(Sale, ["id", "occasion_id", "number", "sold_by_id", "sold_at", "void_reason"], sales())

    def lines() -> Iterator[tuple]:
        pk = 0
        for occ in range(1, p.occasions + 1):
            for s in range(SALES):
                sale = (occ - 1) * SALES + s + 1
                for j, quantity in ((0, 1), (1, 1 + s % 3), (2, s % 2), (3, s % 4 // 3)):
                    if quantity:
                        pk += 1
                        item = (occ - 1) * n + j + 1
                        price = PRICES[j][2]
                        yield (pk, sale, item, PRICES[j][0], quantity, price, price * quantity)

    w(
        SaleLine,
        ["id", "sale_id", "price_item_id", "category", "quantity", "unit_price", "amount"],
        lines(),
    )

    def presences() -> Iterator[tuple]:
        pk = 0
        years = sorted({p.date(0, 0).year, p.today.year})
        per_list = WORKERS + (4 if p.orgs > 1 else 0)
        for o in range(p.orgs):
            for k in range(WEEKS):
                day = p.date(o, k)
                wl = o * len(years) + years.index(day.year)
                for j in range(PRESENT):
                    pk += 1
                    entry = wl * per_list + j + 1
                    yield (
                        (
                            pk,
                            p.occasion_id(o, k),
                            entry,
                            "seller",
                            f"ID-{j}",
                            p.at(day, 17, 30),
                            p.user_id(o, 1),
                            p.at(day, 23),
                            p.user_id(o, 1),
                        )
                    )

    w(
        WorkerPresence,
        cols(
            "id occasion_id entry_id role identification signed_in_at signed_in_by_id "
            "signed_out_at signed_out_by_id"
        ),
        presences(),
    )


def _games(p: Plan, w: Callable, arrangements: list[int]) -> None:
    from games.models import BallCall, Claim, Game, Payout, PrizePart, Winner

    def each_game() -> Iterator[tuple[int, int, int, dt.date, dt.datetime]]:
        for o in range(p.orgs):
            for k in range(WEEKS):
                day = p.date(o, k)
                for g in range(GAMES):
                    start = p.at(day, 19, 0, g * 480)
                    yield o, k, g, p.game_id(o, k, g), start

    w(
        Game,
        cols(
            "id occasion_id number half kind status balls_confirmed_at balls_confirmed_by_id "
            "started_at finished_at"
        ),
        (
            (
                gid,
                p.occasion_id(o, k),
                g + 1,
                1 if g < GAMES // 2 else 2,
                "special" if g % 5 == 4 else "regular",
                "finished",
                start - dt.timedelta(minutes=1),
                p.user_id(o, 1),
                start,
                start + dt.timedelta(minutes=7),
            )
            for o, k, g, gid, start in each_game()
        ),
    )
    w(
        PrizePart,
        cols(
            "id game_id order arrangement_id kind amount description donated is_bonus "
            "announced_at announced_by_id"
        ),
        (
            (
                gid,
                gid,
                1,
                arrangements[gid % len(arrangements)],
                "cash",
                Decimal("75.00"),
                "",
                False,
                False,
                start - dt.timedelta(minutes=2),
                p.user_id(o, 1),
            )
            for o, k, g, gid, start in each_game()
        ),
    )

    def calls() -> Iterator[tuple]:
        pk = 0
        for o, _k, _g, gid, start in each_game():
            balls, voided = p.balls(gid)
            caller = p.user_id(o, 3)
            seq = 0
            for i, ball in enumerate(balls):
                if i in voided:  # a mis-keyed entry, voided, then the ball actually called
                    seq += 1
                    pk += 1
                    at = start + dt.timedelta(seconds=8 * seq)
                    yield (pk, gid, seq, 1 + (ball + 36) % 75, at, caller, at, caller, "mis-keyed")
                seq += 1
                pk += 1
                at = start + dt.timedelta(seconds=8 * seq)
                yield (pk, gid, seq, ball, at, caller, None, None, "")

    w(
        BallCall,
        cols(
            "id game_id sequence number called_at called_by_id voided_at voided_by_id void_reason"
        ),
        calls(),
    )

    def claims() -> Iterator[tuple]:
        for o, _k, _g, gid, start in each_game():
            balls, voided = p.balls(gid)
            at = start + dt.timedelta(seconds=8 * (len(balls) + len(voided)) + 3)
            yield (
                (
                    gid,
                    gid,
                    gid,
                    f"Player {gid % 997}",
                    str(gid % 30 + 1),
                    at,
                    balls[-1],
                    True,
                    p.user_id(o, 1),
                )
            )

    w(
        Claim,
        cols(
            "id game_id part_id player_name table claimed_at ball_in_hand calling_begun "
            "recorded_by_id"
        ),
        claims(),
    )
    w(
        Winner,
        cols(
            "id claim_id player_name share kind substitute_description recorded_by_id recorded_at"
        ),
        (
            (
                gid,
                gid,
                f"Player {gid % 997}",
                Decimal("75.00"),
                "cash",
                "",
                p.user_id(o, 1),
                start + dt.timedelta(minutes=6),
            )
            for o, _k, _g, gid, start in each_game()
        ),
    )
    w(
        Payout,
        cols(
            "id winner_id amount paid_by_id verified_by_id paid_at w2g_required w2g_legal_name "
            "w2g_address tin_sealed tin_last4 backup_withholding id1_kind id1_number_sealed "
            "id2_kind id2_number_sealed"
        ),
        (
            (
                gid,
                gid,
                Decimal("75.00"),
                p.user_id(o, 1),
                p.user_id(o, 0),
                start + dt.timedelta(minutes=6, seconds=30),
                False,
                "",
                "",
                "",
                "",
                False,
                "",
                "",
                "",
                "",
            )
            for o, _k, _g, gid, start in each_game()
        ),
    )


def _refused(p: Plan, w: Callable) -> None:
    from beano.rules.models import RefusedAction

    def rows() -> Iterator[tuple]:
        pk = 0
        for o in range(p.orgs):
            for k in range(WEEKS):
                day = p.date(o, k)
                for j in range(REFUSED):
                    pk += 1
                    citation = CITATIONS[(pk * 7 + j) % len(CITATIONS)]
                    violations = [{"code": "X", "citation": citation, "message": "refused"}]
                    yield (
                        (
                            pk,
                            p.at(day, 20, j),
                            p.user_id(o, 3),
                            f"sw{o + 1}-worker",
                            p.org_id(o),
                            f"Statewide Post {o + 1:03d}",
                            "sale.record",
                            day,
                            "{}",
                            json.dumps(violations),
                            citation,
                        )
                    )

    w(
        RefusedAction,
        cols(
            "id created_at user_id username organization_id organization_name action on_date "
            "facts violations citations"
        ),
        rows(),
    )


def _audit(p: Plan, w: Callable, weeks: int) -> int:
    """The first organization's audit trail over its last ``weeks`` nights: an event for each
    sale and each ball, chained."""
    from django.conf import settings

    from organizations.models import GENESIS_HASH, AuditChain, AuditEvent

    org = p.org_id(0)
    chain = {"n": 0, "head": GENESIS_HASH}

    def events() -> Iterator[tuple]:
        for k in range(WEEKS - weeks, WEEKS):
            day = p.date(0, k)
            occ = p.occasion_id(0, k)
            acts = [
                ("occasions.sale.recorded", "occasions.sale", (occ - 1) * SALES + s + 1)
                for s in range(SALES)
            ]
            for g in range(GAMES):
                gid = p.game_id(0, k, g)
                balls, _ = p.balls(gid)
                acts += [("games.ball.called", "games.ballcall", b) for b in balls]
            for i, (action, target_type, target) in enumerate(acts):
                chain["n"] += 1
                event = AuditEvent(
                    organization_id=org,
                    sequence=chain["n"],
                    actor_label="sw1-worker",
                    action=action,
                    target_type=target_type,
                    target_id=str(target),
                    target_repr=f"#{target}",
                    old_values={},
                    new_values={"n": i},
                    created_at=p.at(day, 18, 0, i * 5),
                    prev_hash=chain["head"],
                    key_id=settings.AUDIT_KEY_ID,
                )
                event.hash = event.compute_hash()
                chain["head"] = event.hash
                yield (
                    (
                        chain["n"],
                        org,
                        chain["n"],
                        p.user_id(0, 3),
                        "sw1-worker",
                        action,
                        target_type,
                        str(target),
                        f"#{target}",
                        "{}",
                        json.dumps({"n": i}),
                        event.created_at,
                        event.prev_hash,
                        event.hash,
                        event.key_id,
                    )
                )

    w(
        AuditEvent,
        cols(
            "id organization_id sequence actor_id actor_label action target_type target_id "
            "target_repr old_values new_values created_at prev_hash hash key_id"
        ),
        events(),
    )
    head = AuditChain(
        key=f"org:{org}", organization_id=org, length=chain["n"], head_hash=chain["head"]
    )
    head.reseal()
    head.save()
    return chain["n"]


# -- writing ----------------------------------------------------------------------------------


class Writer:
    """Rows into a table: COPY on PostgreSQL, ``bulk_create`` elsewhere; counts them."""

    def __init__(self) -> None:
        from django.db import connection

        self.connection = connection
        self.postgres = connection.vendor == "postgresql"
        self.counts: dict[str, int] = {}
        self.keys_s = 0.0

    def __call__(self, model: Any, fields: list[str], rows: Any) -> None:
        by_attname = {f.attname: f for f in model._meta.concrete_fields}
        columns = [by_attname[f].column for f in fields]
        table = model._meta.db_table
        n = 0
        if self.postgres:
            # A column added since this loader was written (NOT NULL, with a default in Django
            # but none in the database) gets its default: COPY would leave it null.
            extra = [
                f
                for f in model._meta.concrete_fields
                if f.attname not in fields
                and not f.null
                and not f.primary_key
                and (f.has_default() or f.empty_strings_allowed)  # a text's default is ""
            ]
            columns += [f.column for f in extra]
            defaults = tuple(
                json.dumps(f.get_default())
                if f.get_internal_type() == "JSONField"
                else f.get_default()
                for f in extra
            )
            self.connection.ensure_connection()
            raw = self.connection.connection
            names = ", ".join(f'"{c}"' for c in columns)
            with raw.cursor() as cursor, cursor.copy(f'COPY "{table}" ({names}) FROM STDIN') as c:
                for row in rows:
                    c.write_row((*row, *defaults))
                    n += 1
        else:
            json_fields = [f for f in fields if by_attname[f].get_internal_type() == "JSONField"]
            batch = []
            for row in rows:
                values = dict(zip(fields, row, strict=True))
                for name in json_fields:
                    if isinstance(values[name], str):
                        values[name] = json.loads(values[name])
                batch.append(model(**values))
                n += 1
                if len(batch) >= 5000:
                    model.objects.bulk_create(batch)
                    batch = []
            model.objects.bulk_create(batch)
        self.counts[table] = self.counts.get(table, 0) + n

    def without_foreign_keys(self) -> Any:
        """On PostgreSQL: drop the foreign keys of every table, and add them back at the end,
        each checked in one pass over its table: a row-by-row check of ten million rows at the
        commit (Django's keys are deferred) would take longer than writing them."""
        from contextlib import contextmanager

        @contextmanager
        def around() -> Iterator[None]:
            if not self.postgres:
                yield
                return
            with self.connection.cursor() as cursor:
                cursor.execute(
                    "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) "
                    "FROM pg_constraint WHERE contype = 'f' "
                    "AND connamespace = 'public'::regnamespace"
                )
                keys = cursor.fetchall()
                for table, name, _ in keys:
                    cursor.execute(f"ALTER TABLE {table} DROP CONSTRAINT {name}")
            yield
            started = time.perf_counter()
            with self.connection.cursor() as cursor:
                for table, name, definition in keys:
                    cursor.execute(f"ALTER TABLE {table} ADD CONSTRAINT {name} {definition}")
            self.keys_s = time.perf_counter() - started

        return around()

    def reset_sequences(self) -> None:
        from django.apps import apps
        from django.core.management.color import no_style

        statements = self.connection.ops.sequence_reset_sql(no_style(), apps.get_models())
        with self.connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)


def build(scale: float) -> dict[str, Any]:
    from django.contrib.auth.hashers import make_password
    from django.db import connection, transaction
    from django.utils import timezone

    from games.models import Arrangement

    p = Plan(max(1, round(150 * scale)), timezone.localdate())
    w = Writer()
    started = time.perf_counter()
    arrangements = list(Arrangement.objects.order_by("pk").values_list("pk", flat=True))
    with transaction.atomic(), w.without_foreign_keys():
        _organizations(p, w, make_password(PASSWORD))
        _occasions(p, w)
        _games(p, w, arrangements)
        _refused(p, w)
        events = _audit(p, w, WEEKS if scale >= 0.5 else 4)
        w.reset_sequences()
    loaded = time.perf_counter() - started
    # The planner's statistics first (autovacuum's part on a live database): without them the
    # rebuild's totals over millions of fresh rows ran for more than half an hour.
    analyze_s = _analyze(connection)
    kept_s, verified_s = _kept_and_verified()
    analyze_s += _analyze(connection)  # and the kept figures' own tables
    return {
        "organizations": p.orgs,
        "occasions": p.occasions,
        "games": p.games,
        "rows": w.counts,
        "audit_events": events,
        "load_s": round(loaded, 1),
        "foreign_keys_s": round(w.keys_s, 1),
        "analyze_s": round(analyze_s, 1),
        "kept_s": kept_s,
        "verified_s": verified_s,
    }


def _analyze(connection: Any) -> float:
    """ANALYZE on PostgreSQL; the seconds it took."""
    started = time.perf_counter()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    return time.perf_counter() - started


def _kept_and_verified() -> tuple[float, float]:
    """What a deployment does after rows loaded in bulk, and what its beat does: the kept figures
    rebuilt from the records (``rebuild_kept_figures``), the report obligations recorded up to
    today (``reports.record_obligations``, each night), every audit chain checked whole and its
    checkpoint recorded (``organizations.verify_audit_chains``, each hour)."""
    from organizations.verification import verify_all
    from reports.kept import rebuild
    from reports.tasks import record_obligations

    started = time.perf_counter()
    rebuild()
    record_obligations()
    kept = time.perf_counter()
    verify_all()
    return round(kept - started, 1), round(time.perf_counter() - kept, 1)


# -- timing the pages -------------------------------------------------------------------------


def pages() -> list[tuple[str, str, Callable[[], str]]]:
    """(page, who looks, its URL) on the organization with the audit trail and its last night."""
    from django.urls import reverse

    from games.models import Game
    from occasions.models import Occasion

    occasion = Occasion.objects.filter(organization_id=1).order_by("-date").first()
    game = Game.objects.filter(occasion=occasion, number=12).first()
    o = {"org_id": 1}
    oc = o | {"pk": occasion.pk}
    month = occasion.date.strftime("%Y-%m")
    year = occasion.date.year
    return [
        ("inspector dashboard", "inspector", lambda: reverse("inspector_dashboard")),
        (
            "inspector dashboard, a month's nights",
            "inspector",
            lambda: (
                reverse("inspector_dashboard")
                + f"?date_from={occasion.date.replace(day=1)}&date_to={occasion.date}"
            ),
        ),
        (
            "inspector dashboard, search a worker",
            "inspector",
            lambda: reverse("inspector_dashboard") + "?q=Worker+3-1",
        ),
        (
            "compliance: prizes and limits",
            "inspector",
            lambda: reverse("inspect_compliance", args=["prizes"]) + f"?year={year}",
        ),
        (
            "compliance: workers on several lists",
            "inspector",
            lambda: reverse("inspect_compliance", args=["workers"]) + f"?year={year}",
        ),
        (
            "compliance: workers among winners",
            "inspector",
            lambda: reverse("inspect_compliance", args=["winners"]) + f"?year={year}",
        ),
        ("reports, statewide list", "inspector", lambda: reverse("commission_reports")),
        ("an occasion's record", "inspector", lambda: reverse("occasion_record", kwargs=oc)),
        ("organization page", "inspector", lambda: reverse("organization_home", kwargs=o)),
        (
            "occasions of a month",
            "inspector",
            lambda: reverse("occasion_calendar", kwargs=o) + f"?month={month}",
        ),
        ("occasion page", "inspector", lambda: reverse("occasion_detail", kwargs=oc)),
        ("door sales of the night", "inspector", lambda: reverse("door_sales", kwargs=oc)),
        ("program of the night", "inspector", lambda: reverse("game_program", kwargs=oc)),
        (
            "a game's ball calls",
            "inspector",
            lambda: reverse("draw_console", kwargs=oc | {"game_pk": game.pk}),
        ),
        (
            "a game's claims and payouts",
            "inspector",
            lambda: reverse("game_claims", kwargs=oc | {"game_pk": game.pk}),
        ),
        ("worker list", "inspector", lambda: reverse("worker_list", kwargs=o)),
        ("refused actions, statewide", "inspector", lambda: reverse("commission_refused_actions")),
        (
            "refused actions, search by citation",
            "inspector",
            lambda: reverse("commission_refused_actions") + "?citation=3.04(6)(a)",
        ),
        ("audit trail (chain checked)", "inspector", lambda: reverse("audit_log", kwargs=o)),
        (
            "audit trail, page 100",
            "inspector",
            lambda: reverse("audit_log", kwargs=o) + "?page=100",
        ),
    ]


def time_pages(runs: int, only: str = "", profile: bool = False) -> list[dict[str, Any]]:
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client

    import beano.wsgi  # noqa: F401  (as a gunicorn worker starts: its gc.freeze() included)

    inspector = get_user_model().objects.get(username="sw-inspector")
    client = Client(HTTP_HOST="127.0.0.1", HTTP_X_FORWARDED_PROTO="https")
    client.force_login(inspector)
    # The Commission's staff pass a second factor (beano/accounts): as the verify page records it.
    import django_otp
    from django_otp.plugins.otp_totp.models import TOTPDevice

    device, _ = TOTPDevice.objects.get_or_create(
        user=inspector, name="Bench authenticator", defaults={"confirmed": True}
    )
    session = client.session
    session[django_otp.DEVICE_ID_SESSION_KEY] = device.persistent_id
    session.save()
    out = []
    for name, _who, url in pages():
        if only not in name:
            continue
        path = url()
        queries: list[str] = []

        def count(execute: Any, sql: str, *args: Any, queries: list[str] = queries) -> Any:
            queries.append(sql)
            return execute(sql, *args)

        response = client.get(path)  # warm: templates compiled, connection open
        assert response.status_code == 200, (name, path, response.status_code)
        with connection.execute_wrapper(count):
            client.get(path)
        times: list[float] = []
        profiler = cProfile.Profile() if profile else None
        budget = time.perf_counter() + 20  # a slow page gets fewer requests, five at least
        cpu: list[float] = []
        while len(times) < runs and (len(times) < 5 or time.perf_counter() < budget):
            start, start_cpu = time.perf_counter(), time.process_time()
            if profiler is not None:
                profiler.enable()
            client.get(path)
            if profiler is not None:
                profiler.disable()
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
        times.sort()
        cpu.sort()
        if profiler is not None:
            show_profile("statewide", name, profiler)
        figure = {
            "page": name,
            "url": path,
            "queries": len(queries),
            "p50_ms": round(percentile(times, 50), 1),
            "p95_ms": round(percentile(times, 95), 1),
            "max_ms": round(times[-1], 1),
            # This process's own processor time (the page's work, not the database's wait).
            "cpu_p50_ms": round(percentile(cpu, 50), 1),
            "requests": len(times),
            "bytes": len(response.content),
        }
        out.append(figure)
        met = "" if figure["p95_ms"] <= 200 else "  over 200 ms"
        print(
            f"statewide: {name:<38} p50 {figure['p50_ms']:>7.1f} ms  p95 {figure['p95_ms']:>7.1f}"
            f" ms  CPU p50 {figure['cpu_p50_ms']:>6.1f} ms  queries {figure['queries']:>3}{met}"
        )
    return out


def markdown(out: dict[str, Any]) -> str:
    d = out["data"]
    rows = d["rows"]
    over = [f for f in out["pages"] if f["p95_ms"] > 200]
    lines = [
        "## Statewide data: a year of 150 organizations (`bench/statewide.py`)",
        "",
        f"Taken {out['taken']} on {out['machine']} (load average {out.get('loadavg', '?')}); "
        f"{out['database']}, production settings (DEBUG off), Django's test client in the same "
        f"process, so server time only, {out['runs']} requests a page (fewer for a page slower "
        "than 20 s in all, five at least) after a warm-up.",
        "",
        f"The data: {d['organizations']} organizations, {d['occasions']:,} occasions, "
        f"{d['games']:,} games, {rows.get('games_ballcall', 0):,} ball calls, "
        f"{rows.get('occasions_sale', 0):,} sales ({rows.get('occasions_saleline', 0):,} lines), "
        f"{rows.get('games_winner', 0):,} winners and payouts, "
        f"{rows.get('organizations_workerlistentry', 0):,} worker list entries, "
        f"{rows.get('occasions_workerpresence', 0):,} sign-ins, "
        f"{rows.get('rules_refusedaction', 0):,} refused actions and "
        f"{d['audit_events']:,} audit events of one organization; "
        f"loaded in {d['load_s']:.0f} s ({out['loader']}; the foreign keys checked afterwards "
        f"in {d.get('foreign_keys_s', 0):.0f} s of it); the kept figures rebuilt in "
        f"{d.get('kept_s', 0):.0f} s and the audit chains checked whole in "
        f"{d.get('verified_s', 0):.0f} s (as the hourly task does); ANALYZE before and after, in "
        f"{d['analyze_s']:.0f} s.",
        "",
        "| Page | Queries | p50 ms | p95 ms |",
        "|---|---|---|---|",
        *[
            f"| {f['page']} | {f['queries']} | {f['p50_ms']} | {f['p95_ms']} |"
            for f in out["pages"]
        ],
        "",
        "Target p95 ≤ 200 ms: "
        + (
            "met by every page."
            if not over
            else "not yet met by " + ", ".join(f["page"] for f in over) + "."
        ),
        "",
    ]
    lines += [
        "The statewide pages read the figures kept at each close, filing and amendment "
        "(`reports.kept`: each closed occasion's totals, its prizes by game against the limits, "
        "its winners matched against the worker lists, and the statewide median of each month) "
        "instead of totalling a year of sale lines and winners on every view; the audit trail "
        "checks only the events after the checkpoint its hourly whole check recorded.",
        "",
    ]
    if out.get("notes"):
        lines += [*out["notes"], ""]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    args = parse(argv)
    data_dir = Path(tempfile.mkdtemp(prefix="beano-statewide-"))
    if args.database == "postgres":
        from bench.pg import fresh_database

        version, migrated = (
            ("", True) if args.keep else fresh_database(args.database_url, args.admin_url)
        )
        database = f"PostgreSQL {version}".strip()
        url = args.database_url
    else:
        url = f"sqlite:///{data_dir / 'statewide.sqlite3'}"
        database, migrated = "SQLite", False
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "beano.settings",
            "DEBUG": "off",
            "SECRET_KEY": "statewide-bench-" + "k3y" * 20,
            "AUDIT_KEY": "statewide-bench-audit-" + "a7d1t" * 8,
            "ALLOWED_HOSTS": "127.0.0.1",
            "DATABASE_URL": url,
            "DB_CONN_MAX_AGE": "60",
            "CACHE_URL": "locmem://",
            "BEHIND_TLS_PROXY": "on",
            "BEANO_DATA_DIR": str(data_dir),
            "STATIC_ROOT": str(ROOT / "var" / "bench" / "static"),
            "LOG_LEVEL": "ERROR",
        }
    )
    import django

    django.setup()
    from django.core.management import call_command

    started = time.perf_counter()
    if not migrated:
        from django.db import connections

        call_command("migrate", verbosity=0)
        if args.database == "postgres":
            from bench.pg import keep_as_template

            connections.close_all()
            keep_as_template(args.database_url, args.admin_url)
    collect_static(Path(os.environ["STATIC_ROOT"]))  # the pages' {% static %} read its manifest
    if args.keep:
        from organizations.models import Organization

        data = {"organizations": Organization.objects.count(), "kept": True}
    else:
        data = build(args.scale)
        print(
            f"statewide: scale {args.scale}: {data['occasions']:,} occasions, {data['games']:,} "
            f"games, {data['rows'].get('games_ballcall', 0):,} ball calls loaded in "
            f"{data['load_s']:.0f} s (+ ANALYZE {data['analyze_s']:.0f} s, "
            f"{time.perf_counter() - started:.0f} s in all with the migrations)"
        )
    loadavg = load_average()
    figures = time_pages(args.runs, args.only, args.profile)
    if not args.quick and not args.keep and not args.only:
        from bench.results import save

        out = {
            "taken": now(),
            "machine": machine(),
            "database": database,
            "loader": "COPY" if args.database == "postgres" else "bulk_create",
            "scale": args.scale,
            "runs": args.runs,
            "data": data,
            "pages": figures,
            "loadavg": f"{loadavg} → {load_average()}",
        }
        save("statewide", out, markdown(out))
        print("statewide: wrote bench/RESULTS.json and bench/RESULTS.md")
    if args.database == "postgres" and args.drop:
        from django.db import connections

        from bench.pg import drop_database

        connections.close_all()
        drop_database(args.database_url, args.admin_url)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
