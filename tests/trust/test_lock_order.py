"""The one lock order on PostgreSQL: the writes that lock the most, run on two (or three)
threads at once against the same occasion, crossing each other, a few rounds in a row. Every
write takes its rows in ``beano.locking.ORDER``, so none waits on another in a circle:
PostgreSQL has no deadlock to break (it would raise DeadlockDetected), and a short lock
timeout turns a hang into a failure instead of a stuck suite."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from banking import bank_services
from banking import drawer_services as cash_services
from banking.models import Deposit, DrawerCount
from games import draw_services, payout_services, program_services
from games.models import BallCall, Payout
from occasions import sales_services
from occasions.models import Sale
from tests.conftest import PASSWORD
from tests.fixtures.floor import on_floor
from tests.trust.conftest import errors, together

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="SQLite has no row locks to deadlock on"
    ),
]

ROUNDS = 3
BALLS = (42, 7, 68, 19, 33, 51, 2, 75, 60, 24, 38, 11)


def quickly(call: Any) -> Any:
    """``call`` on this thread's connection with a short lock timeout: a wait that would hang
    raises LockNotAvailable within seconds."""

    def run() -> Any:
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '10s'")
        return call()

    return run


def test_door_sales_ball_calls_a_payout_and_a_program_edit_cross_without_deadlock(
    winner, draw_game, tenant
):
    occasion = draw_game.occasion
    items = {i.category: i for i in occasion.price_items.all()}
    on_floor(tenant.head, occasion)
    on_floor(tenant.bookkeeper, occasion)
    part = draw_game.parts.get()

    def sell() -> int:
        for _ in range(4):
            sales_services.record_sale(
                occasion=occasion,
                lines=[(items["admission"], 1), (items["special"], 1)],
                admission_receipt=None,
                by=tenant.bookkeeper,
            )
        return 4

    def call(balls: tuple[int, ...]) -> int:
        for number in balls:
            draw_services.record_ball_call(game=draw_game, number=number, by=tenant.worker)
        return len(balls)

    def pay() -> int:
        payout_services.record_payout(
            winner=winner,
            by=tenant.member_in_charge,
            verified_by=tenant.head,
            verifier_secret=PASSWORD,
        )
        return 1

    def edit() -> int:
        """The program's edit takes the occasion, the game and its prize; a game in play keeps
        its prize, so it is refused, after its locks."""
        try:
            program_services.remove_prize_part(part=part, by=tenant.member_in_charge)
        except ValidationError:
            return 0
        return 1

    for round_ in range(ROUNDS):
        balls = BALLS[round_ * 4 : round_ * 4 + 4]
        outcomes = together(
            quickly(sell), quickly(lambda b=balls: call(b)), quickly(pay), quickly(edit)
        )
        assert errors(outcomes) == [], round_

    assert Sale.objects.filter(occasion=occasion).count() == 4 * ROUNDS
    assert BallCall.objects.filter(game=draw_game).count() == 4 * ROUNDS
    assert Payout.objects.count() == 1


def test_a_bank_deposit_and_a_cash_count_cross_without_deadlock(counted, tenant):
    bank_services.save_account(
        organization=tenant.organization,
        bank_name="Fairhaven Savings",
        account_last4="4412",
        opened_on=dt.date(2026, 1, 5),
        opening_balance=Decimal("1000.00"),
        by=tenant.bookkeeper,
    )
    on_floor(tenant.head, counted)

    def deposit() -> Any:
        try:
            return bank_services.record_deposit(
                occasion=counted,
                amount=Decimal("396.00"),
                deposited_on=counted.date,
                slip_reference="DS-1204",
                by=tenant.bookkeeper,
            )
        except ValidationError as refused:
            assert "already recorded" in str(refused)
            return None

    def count() -> Any:
        return cash_services.count_drawer(
            occasion=counted,
            pieces={"20": 20, "10": 15, "5": 9, "0.25": 4},
            verified_by=tenant.head,
            verifier_secret=PASSWORD,
            by=tenant.bookkeeper,
        )

    for round_ in range(ROUNDS):
        outcomes = together(quickly(deposit), quickly(count), quickly(count))
        assert errors(outcomes) == [], round_

    assert Deposit.objects.filter(occasion=counted).count() == 1
    assert DrawerCount.objects.filter(closeout__occasion=counted).count() == 1
