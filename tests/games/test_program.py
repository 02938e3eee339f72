"""The program's services: games and prizes planned within the limits, announced, the 75 balls
confirmed, started and finished in order; refusals cite their paragraph, save nothing and are
logged; the winner-take-all prize from the door's receipts; last week's program reused; the
demo's sample night."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from beano import rules
from beano.demo.program import PROGRAM, seed_program
from beano.rules.models import RefusedAction
from games import program_services as services
from games.models import Arrangement, ArrangementAuthorization, Game, PrizePart
from games.program_selectors import (
    authorized_arrangement_codes,
    part_is_announced,
    winner_take_all_prize,
    winner_take_all_receipts,
)
from occasions import sales_services
from occasions import services as occasion_services
from occasions.models import Occasion
from organizations.models import AuditEvent, DirectorAuthorization
from tests.conftest import PASSWORD
from tests.fixtures.floor import on_floor


def arrangement(code: str) -> Arrangement:
    return Arrangement.objects.get(code=code)


def add_part(game: Game, by, amount: str = "50.00", code: str = "single_line", **extra):
    values = {"kind": "cash", "description": "", "donated": False, "is_bonus": False} | extra
    return services.add_prize_part(
        game=game, arrangement=arrangement(code), amount=Decimal(amount), by=by, **values
    )


@pytest.fixture
def mic(tenant):
    return tenant.member_in_charge


@pytest.fixture
def night(open_occasion, arrangements_authorized):
    """The open occasion, its arrangements authorized."""
    return open_occasion


def game_with_prize(occasion, mic, number=1, half=1, kind="regular", amount="50.00") -> Game:
    game = services.add_game(occasion=occasion, number=number, half=half, kind=kind, by=mic)
    add_part(game, mic, amount)
    return game


def ready_to_start(game: Game, mic) -> Game:
    services.announce_prize_part(part=game.parts.get(order=1), by=mic)
    services.confirm_balls(game=game, by=mic)
    return game


def refused(citation: str):
    class Catch:
        def __enter__(self):
            self.before = (
                Game.objects.count(),
                PrizePart.objects.count(),
                AuditEvent.objects.count(),
                RefusedAction.objects.count(),
            )
            return self

        def __exit__(self, kind, error, tb):
            assert isinstance(error, rules.RuleViolation), error
            assert citation in error.citations, error.messages
            assert all(m.startswith("961 CMR 3.04") for m in error.messages)
            after = (
                Game.objects.count(),
                PrizePart.objects.count(),
                AuditEvent.objects.count(),
                RefusedAction.objects.count(),
            )
            assert after == (*self.before[:3], self.before[3] + 1)
            self.error = error
            return True

    return Catch()


# Planning the program


def test_a_game_and_its_prize_are_added_and_audited(occasion, mic, arrangements_authorized):
    game = game_with_prize(occasion, mic)
    part = game.parts.get()
    assert (game.status, part.order, part.amount) == ("planned", 1, Decimal("50.00"))
    actions = list(
        AuditEvent.objects.filter(organization=occasion.organization)
        .order_by("sequence")
        .values_list("action", flat=True)
    )
    assert actions[-2:] == ["games.game.added", "games.prize_part.added"]


def test_a_game_number_is_used_once_and_the_kind_and_half_are_checked(occasion, mic):
    services.add_game(occasion=occasion, number=1, half=1, kind="regular", by=mic)
    for bad in (
        {"number": 1, "half": 1, "kind": "regular"},
        {"number": 0, "half": 1, "kind": "regular"},
        {"number": 2, "half": 3, "kind": "regular"},
        {"number": 2, "half": 1, "kind": "bingo"},
        {"number": True, "half": 1, "kind": "regular"},
    ):
        with pytest.raises(ValidationError):
            services.add_game(occasion=occasion, by=mic, **bad)
    assert Game.objects.count() == 1


def test_one_winner_take_all_game_an_occasion(occasion, mic):
    services.add_game(occasion=occasion, number=7, half=1, kind="winner_take_all", by=mic)
    with pytest.raises(ValidationError, match="one winner-take-all game"):
        services.add_game(occasion=occasion, number=8, half=1, kind="winner_take_all", by=mic)


def test_the_program_of_a_closed_occasion_is_fixed(occasion, mic):
    Occasion.objects.filter(pk=occasion.pk).update(status=Occasion.Status.CLOSED)
    with pytest.raises(ValidationError, match="program is fixed"):
        services.add_game(occasion=occasion, number=1, half=1, kind="regular", by=mic)


def test_a_200_dollar_game_is_allowed_and_200_01_refused(occasion, mic, arrangements_authorized):
    game = services.add_game(occasion=occasion, number=14, half=2, kind="regular", by=mic)
    with refused("961 CMR 3.04(8)(b)"):
        add_part(game, mic, "200.01", "coverall")
    add_part(game, mic, "200.00", "coverall")
    with refused("961 CMR 3.04(8)(b)"):
        add_part(game, mic, "0.01", "coverall")


def test_donated_merchandise_counts_at_fair_market_value(occasion, mic, arrangements_authorized):
    game = game_with_prize(occasion, mic, amount="150.00")
    with refused("961 CMR 3.04(8)(b)"):
        add_part(game, mic, "60.00", kind="merchandise", description="Quilt", donated=True)
    part = add_part(game, mic, "50.00", kind="merchandise", description="Quilt", donated=True)
    assert (part.order, part.donated) == (2, True)


def test_a_progressive_game_is_not_held_to_200(occasion, mic, arrangements_authorized):
    game = services.add_game(occasion=occasion, number=13, half=2, kind="progressive", by=mic)
    assert add_part(game, mic, "1500.00", "coverall").amount == Decimal("1500.00")


@pytest.mark.parametrize(
    "amount",
    [
        *("-1", "1.001", "NaN", "Infinity", "1e20", "abc", "1e9", Decimal("1E+9"), "1_000"),
        *("\uff15\uff10", "\u0665\u0660", 50.0, Decimal("10000.01")),
    ],
    ids=repr,
)
def test_bad_amounts_are_refused_on_the_field(occasion, mic, arrangements_authorized, amount):
    game = services.add_game(occasion=occasion, number=1, half=1, kind="regular", by=mic)
    with pytest.raises(ValidationError) as caught:
        services.add_prize_part(
            game=game,
            arrangement=arrangement("single_line"),
            kind="cash",
            amount=amount,
            description="",
            donated=False,
            is_bonus=False,
            by=mic,
        )
    assert "amount" in caught.value.message_dict
    assert not PrizePart.objects.exists()


# 3.04(6)(c): the Director's authorization


def test_an_arrangement_not_authorized_is_refused(occasion, mic, authorization):
    game = services.add_game(occasion=occasion, number=1, half=1, kind="regular", by=mic)
    with refused("961 CMR 3.04(6)(c)") as caught:
        add_part(game, mic)
    assert "Any single line" in caught.error.messages[0]


def test_an_arrangement_authorized_on_the_date_is_allowed(occasion, mic, authorization):
    ArrangementAuthorization.objects.create(
        authorization=authorization, arrangement=arrangement("single_line")
    )
    game = services.add_game(occasion=occasion, number=1, half=1, kind="regular", by=mic)
    assert add_part(game, mic).arrangement.code == "single_line"


def test_an_expired_authorization_authorizes_nothing(occasion, mic, arrangements_authorized):
    DirectorAuthorization.objects.filter(pk=arrangements_authorized.pk).update(
        valid_to=occasion.date - dt.timedelta(days=1)
    )
    assert authorized_arrangement_codes(occasion.organization, occasion.date) == frozenset()
    game = services.add_game(occasion=occasion, number=1, half=1, kind="regular", by=mic)
    with refused("961 CMR 3.04(6)(c)"):
        add_part(game, mic)


def test_a_revoked_authorization_stops_the_announcement(night, mic):
    game = game_with_prize(night, mic)
    DirectorAuthorization.objects.filter(pk=night.organization.authorizations.get().pk).update(
        revoked_on=night.date
    )
    with refused("961 CMR 3.04(6)(c)"):
        services.announce_prize_part(part=game.parts.get(), by=mic)


# 3.04(8)(a)1: bonus prizes


def test_a_bonus_of_100_percent_of_the_maximum_is_allowed_a_cent_more_refused(night, mic):
    game = game_with_prize(night, mic, number=4, kind="regular_bonus", amount="200.00")
    with refused("961 CMR 3.04(8)(a)"):
        add_part(game, mic, "200.01", "letter_x", is_bonus=True)
    bonus = add_part(game, mic, "200.00", "letter_x", is_bonus=True)
    assert bonus.is_bonus and bonus.order == 2


def test_a_bonus_only_on_a_regular_game_with_bonus_cards_posted(occasion, mic, night):
    special = game_with_prize(night, mic, number=6, kind="special")
    with refused("961 CMR 3.04(8)(a)") as caught:
        add_part(special, mic, "50.00", is_bonus=True)
    assert caught.error.violations[0].code == "P-8A1-BONUS-ON-REGULAR"
    night.price_items.filter(category="bonus").delete()
    bonus_game = game_with_prize(night, mic, number=4, kind="regular_bonus")
    with refused("961 CMR 3.04(8)(a)") as caught:
        add_part(bonus_game, mic, "50.00", is_bonus=True)
    assert caught.error.violations[0].code == "P-8A1-BONUS-CARDS"


# 3.04(8)(a)3: winner-take-all


def sell(occasion, by, **quantities):
    items = {i.category: i for i in occasion.price_items.all()}
    return sales_services.record_sale(
        occasion=occasion,
        lines=[(items["admission"], 1)] + [(items[c], n) for c, n in quantities.items()],
        admission_receipt=None,
        by=by,
    )


def test_the_winner_take_all_prize_is_84_dollars_less_10_percent(night, mic, tenant):
    sell(night, tenant.worker, winner_take_all=84, special=3)
    voided = sell(night, tenant.worker, winner_take_all=10)
    sales_services.void_sale(
        sale=voided,
        reason="Rung twice",
        witness=on_floor(tenant.head, night),
        witness_secret=PASSWORD,
        by=mic,
    )
    assert winner_take_all_receipts(night) == Decimal("84.00")
    assert winner_take_all_prize(night) == Decimal("75.60")
    game = services.add_game(occasion=night, number=7, half=1, kind="winner_take_all", by=mic)
    with refused("961 CMR 3.04(8)(a)"):
        add_part(game, mic, "75.00")
    assert add_part(game, mic, "75.60").amount == Decimal("75.60")
    with refused("961 CMR 3.04(8)(a)"):
        add_part(game, mic, "0.00")


def test_the_winner_take_all_prize_is_announced_at_the_share_of_that_moment(night, mic, tenant):
    game = services.add_game(occasion=night, number=7, half=1, kind="winner_take_all", by=mic)
    part = add_part(game, mic, "0.00")
    sell(night, tenant.worker, winner_take_all=84)
    services.announce_prize_part(part=part, by=mic)
    part.refresh_from_db()
    assert part.amount == Decimal("75.60")
    services.confirm_balls(game=game, by=mic)
    sell(night, tenant.worker, winner_take_all=6)
    with refused("961 CMR 3.04(8)(a)") as caught:
        services.start_game(game=game, by=mic)
    assert "$81.00, not $75.60" in caught.error.messages[0]
    services.announce_prize_part(part=part, by=mic)
    assert services.start_game(game=game, by=mic).status == "in_play"


# Announcements, balls, start and finish


def test_announcing_records_who_and_when_and_is_audited(night, mic):
    game = game_with_prize(night, mic)
    part = game.parts.get()
    assert not part_is_announced(part)
    services.announce_prize_part(part=part, by=mic)
    part.refresh_from_db()
    assert part_is_announced(part)
    assert (part.announced_by, part.announced_at) == (mic, timezone.now())
    event = AuditEvent.objects.filter(action="games.prize_part.announced").get()
    assert event.new_values["amount"] == "50.00"


def test_a_game_whose_prize_is_not_announced_does_not_start(night, mic):
    game = game_with_prize(night, mic)
    services.confirm_balls(game=game, by=mic)
    with refused("961 CMR 3.04(6)(b)"):
        services.start_game(game=game, by=mic)
    game.refresh_from_db()
    assert game.status == "planned" and night.play_started_at is None


def test_a_game_without_its_balls_confirmed_does_not_start(night, mic):
    game = game_with_prize(night, mic)
    services.announce_prize_part(part=game.parts.get(), by=mic)
    with refused("961 CMR 3.04(4)(b)"):
        services.start_game(game=game, by=mic)


def test_nothing_is_announced_or_started_before_the_occasion_opens(occasion, mic, monkeypatch):
    from tests.fixtures.night import open_for_tests

    monkeypatch.setattr(
        timezone, "now", lambda: timezone.make_aware(dt.datetime(2026, 12, 4, 18, 0))
    )
    ArrangementAuthorization.objects.all().delete()
    game = services.add_game(occasion=occasion, number=1, half=1, kind="regular", by=mic)
    with pytest.raises(rules.RuleViolation) as caught:
        services.confirm_balls(game=game, by=mic)
    assert caught.value.citations == ["961 CMR 3.04(7)"]
    with pytest.raises(rules.RuleViolation) as caught:
        services.start_game(game=game, by=mic)
    assert "961 CMR 3.04(7)" in caught.value.citations
    open_for_tests(occasion)
    services.confirm_balls(game=game, by=mic)


def test_a_game_starts_play_and_the_next_waits_for_it_to_finish(night, mic):
    first = ready_to_start(game_with_prize(night, mic, number=1), mic)
    second = game_with_prize(night, mic, number=2)
    services.start_game(game=first, by=mic)
    night.refresh_from_db()
    assert night.play_started_at == timezone.now()
    services.announce_prize_part(part=second.parts.get(), by=mic)
    with refused("961 CMR 3.04(4)(b)") as caught:
        services.confirm_balls(game=second, by=mic)
    assert "Game 1 is still being played" in caught.error.messages[0]
    services.finish_game(game=first, by=mic)
    services.confirm_balls(game=second, by=mic)
    assert services.start_game(game=second, by=mic).status == "in_play"
    first.refresh_from_db()
    assert (first.status, first.finished_at) == ("finished", timezone.now())
    with pytest.raises(ValidationError):
        services.start_game(game=first, by=mic)
    with pytest.raises(ValidationError):
        services.finish_game(game=first, by=mic)


def test_balls_confirmed_before_the_last_game_ended_are_confirmed_again(night, mic):
    first = ready_to_start(game_with_prize(night, mic, number=1), mic)
    second = game_with_prize(night, mic, number=2)
    services.announce_prize_part(part=second.parts.get(), by=mic)
    earlier = timezone.now() - dt.timedelta(minutes=30)
    services.confirm_balls(game=second, by=mic, at=earlier)
    services.start_game(game=first, by=mic)
    services.finish_game(game=first, by=mic)
    with refused("961 CMR 3.04(4)(b)") as caught:
        services.start_game(game=second, by=mic)
    assert "confirm all 75 balls again" in caught.error.messages[0]


def test_a_second_half_game_waits_for_the_second_half(night, mic, tenant, sale):
    game = ready_to_start(game_with_prize(night, mic, number=9, half=2), mic)
    with refused("961 CMR 3.04(5)(c)"):
        services.start_game(game=game, by=mic)
    sales_services.start_play(occasion=night, by=mic)
    sales_services.announce_attendance(occasion=night, players=1, by=mic)
    sales_services.start_second_half(occasion=night, by=mic)
    assert services.start_game(game=game, by=mic).status == "in_play"


def test_a_later_part_is_announced_after_the_game_began_once_only(night, mic):
    game = game_with_prize(night, mic, number=11, kind="special", amount="75.00")
    second = add_part(game, mic, "125.00", "coverall")
    ready_to_start(game, mic)
    services.start_game(game=game, by=mic)
    assert not part_is_announced(second)
    services.announce_prize_part(part=second, by=mic)
    second.refresh_from_db()
    assert part_is_announced(second)
    with pytest.raises(ValidationError, match="was announced"):
        services.announce_prize_part(part=second, by=mic)


def test_the_start_is_judged_by_the_license_hours(night, mic):
    night.license.start_time, night.license.end_time = dt.time(19, 30), dt.time(22, 30)
    night.license.save()
    game = ready_to_start(game_with_prize(night, mic), mic)
    with refused("961 CMR 3.04(7)") as caught:
        services.start_game(game=game, by=mic)
    assert caught.error.violations[0].code == "H-7-LICENSE-HOURS"


# Removing, copying


def test_prizes_and_games_are_removed_only_before_they_are_announced(night, mic):
    game = game_with_prize(night, mic)
    second = add_part(game, mic, "25.00", "four_corners")
    services.remove_prize_part(part=game.parts.get(order=1), by=mic)
    second.refresh_from_db()
    assert second.order == 1
    services.announce_prize_part(part=second, by=mic)
    with pytest.raises(ValidationError, match="announced"):
        services.remove_prize_part(part=second, by=mic)
    with pytest.raises(ValidationError, match="announced"):
        services.remove_game(game=game, by=mic)
    other = game_with_prize(night, mic, number=2)
    services.remove_game(game=other, by=mic)
    assert list(Game.objects.values_list("number", flat=True)) == [1]
    assert AuditEvent.objects.filter(action="games.game.removed").count() == 1


def test_last_weeks_program_is_copied_and_judged_again(tenant, mic, night, occasion):
    game_with_prize(night, mic, number=1)
    bonus = game_with_prize(night, mic, number=4, kind="regular_bonus", amount="75.00")
    add_part(bonus, mic, "75.00", "letter_x", is_bonus=True)
    services.add_game(occasion=night, number=7, half=1, kind="winner_take_all", by=mic)
    add_part(Game.objects.get(number=7), mic, "0.00")
    next_week = occasion_services.occasion_for_day(
        organization=tenant.organization, day=dt.date(2026, 12, 11), by=mic
    )
    occasion_services.set_price_list(
        occasion=next_week,
        items=list(night.price_items.values("category", "label", "price")),
        by=mic,
    )
    games = services.copy_program(occasion=next_week, from_occasion=night, by=mic)
    assert [g.number for g in games] == [1, 4, 7]
    assert next_week.games.get(number=4).parts.filter(is_bonus=True).count() == 1
    with pytest.raises(ValidationError, match="already has a program"):
        services.copy_program(occasion=next_week, from_occasion=night, by=mic)


def test_a_copy_into_a_date_without_authorization_is_refused_whole(tenant, mic, night):
    game_with_prize(night, mic)
    DirectorAuthorization.objects.update(valid_to=night.date)
    next_week = occasion_services.occasion_for_day(
        organization=tenant.organization, day=dt.date(2026, 12, 11), by=mic
    )
    with pytest.raises(rules.RuleViolation):
        services.copy_program(occasion=next_week, from_occasion=night, by=mic)
    assert not next_week.games.exists()


# The demo's sample night


def test_the_sample_night_program_is_seeded_once(night, tenant):
    ArrangementAuthorization.objects.all().delete()
    sell(night, tenant.worker, winner_take_all=84)
    seed_program(night)
    seed_program(night)
    assert night.games.count() == len(PROGRAM) == 14
    assert night.games.get(number=7).parts.get().amount == Decimal("75.60")
    jackpot, consolation = night.games.get(number=13).parts.order_by("order")
    assert (jackpot.amount, consolation.amount) == (Decimal("1500.00"), Decimal("100.00"))
    assert consolation.arrangement.code == "coverall" and "Consolation" in consolation.description
    assert night.games.get(number=11).parts.count() == 2
    assert night.games.get(number=4).parts.filter(is_bonus=True).get().amount == Decimal("75.00")
    assert len(authorized_arrangement_codes(night.organization, night.date)) == 12
    assert night.games.filter(half=2).count() == 6
