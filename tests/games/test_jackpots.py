"""Progressive jackpot series across occasions (961 CMR 3.04(6)(h), (8)(a)2): carried over and
won with a balanced ledger, stopped at the cap and the maximum in force, rules fixed mid-series;
the pages from the hall, from bad input and from the demo."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from beano import rules
from beano.demo.jackpot import seed_jackpot
from beano.rules.models import LawLimit, RefusedAction
from games import jackpot_selectors, jackpot_services, jackpot_settlement
from games.models import (
    Arrangement,
    Game,
    JackpotLedgerEntry,
    PrizePart,
    ProgressiveGame,
    ProgressiveSeries,
)
from occasions import services as occasion_services
from occasions.models import Occasion
from organizations.models import AuditEvent
from tests.fixtures.games import start_sample_series
from tests.fixtures.night import open_for_tests

FRIDAYS = [
    dt.date(2026, 12, 4),
    dt.date(2026, 12, 11),
    dt.date(2026, 12, 18),
    dt.date(2026, 12, 25),
]


def friday(tenant, n: int, *, opened: bool = True) -> Occasion:
    occasion = occasion_services.occasion_for_day(
        organization=tenant.organization, day=FRIDAYS[n], by=tenant.member_in_charge
    )
    return open_for_tests(occasion) if opened else occasion


def game_13(occasion: Occasion) -> Game:
    return Game.objects.create(occasion=occasion, number=13, half=2, kind="progressive")


def play(tenant, series, n: int, *, won=False, consolation=False) -> JackpotLedgerEntry:
    pg = jackpot_services.attach_game(
        game=game_13(friday(tenant, n)), series=series, by=tenant.member_in_charge
    )
    return jackpot_settlement.settle_game(
        progressive_game=pg,
        won_within_calls=won,
        consolation_paid=consolation,
        by=tenant.member_in_charge,
    )


def first_friday_at(hour: int, minute: int) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(FRIDAYS[0], dt.time(hour, minute)))


def refused_with(code: str) -> None:
    log = RefusedAction.objects.get()
    assert code in {v["code"] for v in log.violations}
    RefusedAction.objects.all().delete()


# Carried over twice, then won


def test_a_jackpot_carries_over_twice_and_is_then_won(tenant, jackpot_series):
    first = play(tenant, jackpot_series, 0, consolation=True)
    second = play(tenant, jackpot_series, 1)
    third = play(tenant, jackpot_series, 2, won=True)
    rows = [
        (e.carried_in, e.added, e.paid, e.paid_kind, e.carried_out) for e in (first, second, third)
    ]
    assert rows == [
        (Decimal("0"), Decimal("1600"), Decimal("100"), "consolation", Decimal("1500")),
        (Decimal("1500"), Decimal("100"), Decimal("0"), "", Decimal("1600")),
        (Decimal("1600"), Decimal("100"), Decimal("1700"), "jackpot", Decimal("0")),
    ]
    jackpots = list(
        ProgressiveGame.objects.filter(series=jackpot_series).values_list(
            "jackpot_amount", flat=True
        )
    )
    assert jackpots == [Decimal("1500"), Decimal("1600"), Decimal("1700")]
    for row in jackpot_selectors.ledger(jackpot_series):
        e = row.entry
        assert row.balanced and e.carried_in + e.added - e.paid == e.carried_out
    last = jackpot_selectors.ledger(jackpot_series)[-1]
    assert (last.total_added, last.total_paid) == (Decimal("1800"), Decimal("1800"))
    jackpot_series.refresh_from_db()
    assert jackpot_series.status == "won" and jackpot_series.won_on == FRIDAYS[2]
    outcomes = list(
        ProgressiveGame.objects.filter(series=jackpot_series).values_list("outcome", flat=True)
    )
    assert outcomes == ["consolation", "not_won", "won"]
    # Each game's prize is its jackpot, on the series' coverall.
    part = PrizePart.objects.get(game__occasion__date=FRIDAYS[2])
    assert part.amount == Decimal("1700") and part.arrangement.code == "coverall"
    actions = AuditEvent.objects.filter(organization=tenant.organization).values_list(
        "action", flat=True
    )
    assert list(actions).count("games.progressive_game.settled") == 3
    settled = AuditEvent.objects.filter(action="games.progressive_game.settled").last()
    assert settled.new_values["paid"] == "1700.00" and settled.new_values["series_status"] == "won"


def test_a_won_series_takes_no_more_games(tenant, jackpot_series):
    play(tenant, jackpot_series, 0, won=True)
    with pytest.raises(rules.RuleViolation) as refusal:
        jackpot_services.attach_game(
            game=game_13(friday(tenant, 1)), series=jackpot_series, by=tenant.member_in_charge
        )
    assert refusal.value.citations == ["961 CMR 3.04(6)(h)"]
    refused_with("J-6H-ANNOUNCED-BEFORE-GAME")


def test_the_ledger_refuses_a_row_that_does_not_balance(tenant, jackpot_series):
    entry = play(tenant, jackpot_series, 0)
    with pytest.raises(IntegrityError), transaction.atomic():
        JackpotLedgerEntry.objects.filter(pk=entry.pk).update(carried_out=Decimal("1400"))
    with pytest.raises(IntegrityError), transaction.atomic():
        JackpotLedgerEntry.objects.filter(pk=entry.pk).update(
            carried_in=Decimal("-100"), added=Decimal("1600")
        )


# The cap and the maximum in force


def test_the_increment_stops_at_the_cap(tenant):
    series = start_sample_series(tenant, starting_amount=Decimal("2950.00"))
    play(tenant, series, 0)
    second = play(tenant, series, 1)
    third = jackpot_services.attach_game(
        game=game_13(friday(tenant, 2)), series=series, by=tenant.member_in_charge
    )
    assert second.carried_in + second.added == Decimal("3000.00")
    assert third.jackpot_amount == Decimal("3000.00")  # never $3,050
    assert jackpot_selectors.next_terms(series, FRIDAYS[3]).jackpot == Decimal("3000.00")


def test_a_jackpot_carried_above_a_lowered_maximum_is_refused(tenant, jackpot_series):
    play(tenant, jackpot_series, 0)
    LawLimit.objects.create(
        name="max_progressive_jackpot",
        value=Decimal("1000"),
        unit="USD",
        effective_from=dt.date(2026, 12, 10),
        source="Test amendment",
        status="secondary",
    )
    game = game_13(friday(tenant, 1))
    with pytest.raises(rules.RuleViolation) as refusal:
        jackpot_services.attach_game(game=game, series=jackpot_series, by=tenant.member_in_charge)
    assert refusal.value.citations == ["961 CMR 3.04(8)(a)"]
    assert not ProgressiveGame.objects.filter(game=game).exists()
    assert not PrizePart.objects.filter(game=game).exists()
    refused_with("J-8A2-JACKPOT-WITHIN-MAX")


def test_a_series_over_the_maximum_is_refused_and_nothing_saved(tenant):
    with pytest.raises(rules.RuleViolation) as refusal:
        start_sample_series(tenant, cap=Decimal("3050.00"))
    assert refusal.value.citations == ["961 CMR 3.04(8)(a)"]
    assert not ProgressiveSeries.objects.exists()
    refused_with("J-8A2-SERIES-WITHIN-MAX")


def test_a_series_without_a_growing_element_is_refused(tenant):
    with pytest.raises(rules.RuleViolation) as refusal:
        start_sample_series(tenant, increment=Decimal("0.00"))
    assert refusal.value.citations == ["961 CMR 3.04(6)(h)"]
    refused_with("J-6H-ONE-ELEMENT")


def test_progressive_games_per_occasion_stay_within_a_figure_once_the_commission_enters_one(
    tenant, jackpot_series
):
    other = start_sample_series(tenant, name="Second jackpot")
    occasion = friday(tenant, 0)
    jackpot_services.attach_game(
        game=game_13(occasion), series=jackpot_series, by=tenant.member_in_charge
    )
    LawLimit.objects.create(
        name="max_progressive_games",
        value=Decimal("1"),
        unit="games",
        effective_from=dt.date(2026, 1, 1),
        source="Test figure",
        status="secondary",
    )
    game_14 = Game.objects.create(occasion=occasion, number=14, half=2, kind="progressive")
    with pytest.raises(rules.RuleViolation) as refusal:
        jackpot_services.attach_game(game=game_14, series=other, by=tenant.member_in_charge)
    assert refusal.value.citations == ["961 CMR 3.04(8)(a)"]
    refused_with("J-8A2-GAMES-PER-OCCASION")


def test_a_growing_number_of_calls_grows_each_occasion_not_won(tenant):
    series = start_sample_series(
        tenant,
        mode="growing_calls",
        increment=Decimal("0.00"),
        cap=None,
        calls_allowed=50,
        calls_increment=2,
    )
    play(tenant, series, 0)
    play(tenant, series, 1, consolation=True)
    pg = jackpot_services.attach_game(
        game=game_13(friday(tenant, 2)), series=series, by=tenant.member_in_charge
    )
    assert (pg.calls_allowed, pg.jackpot_amount) == (54, Decimal("1500.00"))


# The rules stand until the jackpot is won


def test_a_rules_change_is_refused_mid_series_and_allowed_for_a_new_series_after_a_win(
    tenant, jackpot_series, monkeypatch
):
    play(tenant, jackpot_series, 0)
    with pytest.raises(rules.RuleViolation) as refusal:
        jackpot_services.change_series_rules(
            series=jackpot_series, increment=Decimal("50.00"), by=tenant.head
        )
    assert refusal.value.citations == ["961 CMR 3.04(6)(h)"]
    # In words a volunteer uses, not the field's name ("increment cannot change").
    assert "the amount added each occasion cannot change until the jackpot is won" in str(
        refusal.value
    )
    refused_with("J-6H-RULES-FIXED")
    jackpot_series.refresh_from_db()
    assert jackpot_series.increment == Decimal("100.00")
    play(tenant, jackpot_series, 1, won=True)
    with pytest.raises(ValidationError, match="new series"):
        jackpot_services.change_series_rules(
            series=jackpot_series, increment=Decimal("50.00"), by=tenant.head
        )
    after_the_win = timezone.make_aware(dt.datetime.combine(FRIDAYS[1], dt.time(22, 30)))
    monkeypatch.setattr(timezone, "now", lambda: after_the_win)
    successor = start_sample_series(
        tenant,
        name="Coverall jackpot II",
        starting_amount=Decimal("1000.00"),
        increment=Decimal("50.00"),
        calls_allowed=50,
        started_on=FRIDAYS[1],
    )
    pg = jackpot_services.attach_game(
        game=game_13(friday(tenant, 2)), series=successor, by=tenant.member_in_charge
    )
    assert (pg.jackpot_amount, pg.calls_allowed) == (Decimal("1000.00"), 50)


def test_rules_change_before_the_first_game_begins_and_the_attached_game_follows(
    tenant, progressive_game
):
    series = progressive_game.series
    jackpot_services.change_series_rules(
        series=series, starting_amount=Decimal("1200.00"), calls_allowed=55, by=tenant.head
    )
    progressive_game.refresh_from_db()
    assert (progressive_game.jackpot_amount, progressive_game.calls_allowed) == (
        Decimal("1200.00"),
        55,
    )
    assert PrizePart.objects.get(game=progressive_game.game).amount == Decimal("1200.00")
    event = AuditEvent.objects.get(action="games.jackpot_series.rules_changed")
    assert event.old_values == {"starting_amount": "1500.00", "calls_allowed": 52}
    Game.objects.filter(pk=progressive_game.game_id).update(status="in_play")
    with pytest.raises(rules.RuleViolation):
        jackpot_services.change_series_rules(
            series=series, starting_amount=Decimal("1300.00"), by=tenant.head
        )
    refused_with("J-6H-RULES-FIXED")


def test_a_change_that_changes_nothing_is_not_recorded(tenant, jackpot_series):
    with pytest.raises(ValidationError, match="Nothing"):
        jackpot_services.change_series_rules(
            series=jackpot_series, increment=Decimal("100.00"), by=tenant.head
        )


# Attaching and settling: order, state, input


def test_a_game_that_has_begun_gets_no_jackpot(tenant, jackpot_series):
    game = game_13(friday(tenant, 0))
    Game.objects.filter(pk=game.pk).update(status="in_play")
    with pytest.raises(rules.RuleViolation):
        jackpot_services.attach_game(game=game, series=jackpot_series, by=tenant.member_in_charge)
    refused_with("J-6H-ANNOUNCED-BEFORE-GAME")


def test_the_next_occasion_waits_for_the_outcome_of_the_last(tenant, progressive_game):
    with pytest.raises(ValidationError, match="Record the outcome of game 13"):
        jackpot_services.attach_game(
            game=game_13(friday(tenant, 1)),
            series=progressive_game.series,
            by=tenant.member_in_charge,
        )


def test_it_refuses_non_progressive_games_other_organizations_and_past_occasions(
    tenant, other_tenant, jackpot_series
):
    occasion = friday(tenant, 1)
    regular = Game.objects.create(occasion=occasion, number=1, half=1, kind="regular")
    with pytest.raises(ValidationError, match="not a progressive"):
        jackpot_services.attach_game(game=regular, series=jackpot_series, by=tenant.head)
    theirs = start_sample_series(other_tenant)
    with pytest.raises(ValidationError, match="another organization"):
        jackpot_services.attach_game(game=game_13(occasion), series=theirs, by=tenant.head)
    jackpot_settlement.settle_game(
        progressive_game=jackpot_services.attach_game(
            game=Game.objects.get(occasion=occasion, number=13), series=jackpot_series, by=None
        ),
        won_within_calls=False,
        consolation_paid=False,
        by=tenant.head,
    )
    with pytest.raises(ValidationError, match="later occasion"):
        jackpot_services.attach_game(
            game=game_13(friday(tenant, 0)), series=jackpot_series, by=tenant.head
        )


def test_an_announced_prize_is_not_silently_changed(tenant, jackpot_series):
    game = game_13(friday(tenant, 0))
    coverall = jackpot_series.arrangement
    PrizePart.objects.create(
        game=game,
        order=1,
        arrangement=coverall,
        amount=Decimal("1000"),
        announced_at=first_friday_at(21, 40),
    )
    with pytest.raises(ValidationError, match=r"announced at \$1,000\.00"):
        jackpot_services.attach_game(game=game, series=jackpot_series, by=tenant.head)
    assert not ProgressiveGame.objects.exists()


def test_an_outcome_is_recorded_once_and_only_after_the_occasion_opened(tenant, progressive_game):
    with pytest.raises(ValidationError, match="not been opened"):
        jackpot_settlement.settle_game(
            progressive_game=progressive_game,
            won_within_calls=False,
            consolation_paid=True,
            by=tenant.head,
        )
    open_for_tests(progressive_game.occasion)
    jackpot_settlement.settle_game(
        progressive_game=progressive_game, won_within_calls=False, consolation_paid=True, by=None
    )
    with pytest.raises(ValidationError, match="already recorded"):
        jackpot_settlement.settle_game(
            progressive_game=progressive_game,
            won_within_calls=True,
            consolation_paid=False,
            by=tenant.head,
        )


def test_a_consolation_the_rules_do_not_announce_is_refused(tenant):
    series = start_sample_series(tenant, consolation_amount=Decimal("0.00"))
    pg = jackpot_services.attach_game(
        game=game_13(friday(tenant, 0)), series=series, by=tenant.head
    )
    with pytest.raises(rules.RuleViolation) as refusal:
        jackpot_settlement.settle_game(
            progressive_game=pg, won_within_calls=False, consolation_paid=True, by=tenant.head
        )
    assert refusal.value.citations == ["961 CMR 3.04(8)(a)"]
    assert not JackpotLedgerEntry.objects.exists()
    refused_with("J-8A2-AS-ANNOUNCED")


@pytest.mark.parametrize(
    "changes,field",
    [
        ({"starting_amount": Decimal("-1")}, "starting_amount"),
        ({"increment": Decimal("1.005")}, "increment"),
        ({"consolation_amount": Decimal("1e12")}, "consolation_amount"),
        ({"calls_allowed": "52"}, "calls_allowed"),
        ({"name": "  "}, "name"),
        ({"started_on": dt.date(2027, 1, 1)}, "started_on"),
    ],
)
def test_bad_rules_are_refused_by_field(tenant, changes, field):
    with pytest.raises(ValidationError) as error:
        start_sample_series(tenant, **changes)
    assert field in error.value.message_dict
    assert not ProgressiveSeries.objects.exists()


def test_a_series_name_is_unique_in_the_organization(tenant, jackpot_series):
    with pytest.raises(ValidationError) as error:
        start_sample_series(tenant, name="coverall JACKPOT")
    assert "name" in error.value.message_dict


# The demo


def test_the_demo_carries_the_sample_series_over_its_past_night_and_is_idempotent(tenant):
    from tests.fixtures.games import authorize_arrangements

    authorize_arrangements(tenant.organization, "coverall")  # as the demo's organizations hold
    past = friday(tenant, 0)
    Occasion.objects.filter(pk=past.pk).update(status=Occasion.Status.CLOSED)
    past.refresh_from_db()
    coming = friday(tenant, 1, opened=False)
    for _ in range(2):
        series = seed_jackpot(tenant.organization, [past, coming])
    assert ProgressiveSeries.objects.count() == 1
    assert series.rules_text.startswith("Game 13, coverall within 52 numbers")
    (entry,) = JackpotLedgerEntry.objects.all()
    assert (entry.paid, entry.paid_kind, entry.carried_out) == (
        Decimal("100.00"),
        "consolation",
        Decimal("1500.00"),
    )
    tonight = ProgressiveGame.objects.get(occasion=coming)
    assert (tonight.jackpot_amount, tonight.calls_allowed, tonight.outcome) == (
        Decimal("1600.00"),
        52,
        "pending",
    )
    assert Game.objects.filter(kind="progressive").count() == 2


def test_a_series_on_an_arrangement_the_director_never_authorized_is_refused_at_its_start(tenant):
    """The hole: the series started, and was refused only mid-night at the announcement."""
    letter_x = Arrangement.objects.get(code="letter_x")
    with pytest.raises(rules.RuleViolation) as refused:
        jackpot_services.start_series(
            organization=tenant.organization,
            name="Letter X jackpot",
            mode="growing_jackpot",
            starting_amount=Decimal("500.00"),
            increment=Decimal("50.00"),
            cap=Decimal("1000.00"),
            arrangement=letter_x,
            calls_allowed=40,
            calls_increment=0,
            consolation_amount=Decimal("0.00"),
            rules_text="Letter X within 40 numbers: $500 now, +$50 a week up to $1,000.",
            started_on=dt.date(2026, 11, 27),
            by=tenant.head,
        )
    assert {v.code for v in refused.value.violations} == {"G-6C-AUTHORIZED"}
    assert refused.value.citations == ["961 CMR 3.04(6)(c)"]
    assert not ProgressiveSeries.objects.filter(name="Letter X jackpot").exists()
    assert RefusedAction.objects.get().action == "jackpot.series.start"
    series = start_sample_series(tenant)  # the coverall, authorized
    with pytest.raises(rules.RuleViolation) as changed:
        jackpot_services.change_series_rules(series=series, arrangement=letter_x, by=tenant.head)
    assert changed.value.citations == ["961 CMR 3.04(6)(c)"]
