"""The compliance views' reads over a scope of organizations: prizes against the limits in force
on each occasion's date (961 CMR 3.04(8)), equipment without proof of ownership or an approved
lease (3.04(4)(a), (e)) and the card inventory reconciled (3.04(4)(e)). Each is a fixed number of
queries, whatever the number of occasions."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Q, QuerySet, Sum

from beano import rules
from beano.rules import Violation
from beano.rules.equipment import USE
from beano.rules.limits import LimitName, Limits, limits_history, limits_in_force
from beano.rules.money import usd
from games.models import Game, Winner
from inspections.filters import OccasionFilter
from occasions.models import DoorPrize, Occasion
from organizations.equipment_services import equipment_facts, lease_authorizations
from organizations.models import CardPurchase, Equipment, Organization
from organizations.paper_stock import with_movements

ZERO = Decimal("0.00")


@dataclass
class GamePrizes:
    """The prizes awarded in one game, against the limits in force on the occasion's date."""

    number: int
    kind: str
    regular: Decimal = ZERO
    bonus: Decimal = ZERO
    problems: list[str] = field(default_factory=list)

    @property
    def total(self) -> Decimal:
        return self.regular + self.bonus

    def judge(self, limits: Limits) -> None:
        if self.kind == Game.Kind.PROGRESSIVE:
            checks = [(self.regular, LimitName.MAX_PROGRESSIVE_JACKPOT, "progressive jackpot")]
        else:
            checks = [(self.regular, LimitName.MAX_PRIZE_SINGLE_GAME, "single-game prize")]
        checks += [
            (self.bonus, LimitName.MAX_BONUS_PRIZE, "bonus prize"),
            (self.bonus, LimitName.MAX_PRIZE_SINGLE_GAME, "bonus (100 % of a single game)"),
        ]
        for amount, name, words in checks:
            ceiling = limits.get(name)
            if ceiling is not None and amount > ceiling:
                self.problems.append(
                    f"Game {self.number}: {usd(amount)} awarded; the {words} is at most "
                    f"{usd(ceiling)} (961 CMR 3.04(8))."
                )


@dataclass
class OccasionPrizes:
    occasion: Occasion
    limits: Limits
    games: list[GamePrizes] = field(default_factory=list)
    door_prizes: Decimal = ZERO
    problems: list[str] = field(default_factory=list)

    @property
    def games_total(self) -> Decimal:
        return sum((g.total for g in self.games), ZERO)

    @property
    def largest_game(self) -> GamePrizes | None:
        return max(self.games, key=lambda g: g.regular, default=None)

    @property
    def single_game_limit(self) -> Decimal | None:
        return self.limits.get(LimitName.MAX_PRIZE_SINGLE_GAME)

    @property
    def total_limit(self) -> Decimal | None:
        return self.limits.get(LimitName.MAX_TOTAL_PRIZES_OCCASION)

    @property
    def door_limit(self) -> Decimal | None:
        return self.limits.get(LimitName.MAX_DOOR_PRIZES_OCCASION)

    def judge(self) -> None:
        for game in self.games:
            game.judge(self.limits)
            self.problems += game.problems
        if self.total_limit is not None and self.games_total > self.total_limit:
            self.problems.append(
                f"{usd(self.games_total)} in prizes; an occasion's total is at most "
                f"{usd(self.total_limit)} (961 CMR 3.04(8)(b))."
            )
        if self.door_limit is not None and self.door_prizes > self.door_limit:
            self.problems.append(
                f"{usd(self.door_prizes)} in door prizes; at most {usd(self.door_limit)} "
                "an occasion (961 CMR 3.04(8)(e))."
            )


def prize_review(occasions: QuerySet[Occasion]) -> list[OccasionPrizes]:
    """Every occasion of ``occasions`` (played or not) with its games' prizes awarded, by game,
    regular and bonus apart, and its door prizes: four queries in all."""
    limits_on = limits_history()
    rows = {
        o.pk: OccasionPrizes(o, limits_on(o.date))
        for o in occasions.select_related("organization").order_by("-date", "organization__name")
    }
    awarded = (
        Winner.objects.filter(claim__game__occasion__in=occasions)
        .order_by()
        .values(
            "claim__game__occasion_id",
            "claim__game__number",
            "claim__game__kind",
            "claim__part__is_bonus",
        )
        .annotate(total=Sum("share"))
        .order_by("claim__game__occasion_id", "claim__game__number")
    )
    games: dict[tuple[int, int], GamePrizes] = {}
    for row in awarded:
        occasion_id, number = row["claim__game__occasion_id"], row["claim__game__number"]
        game = games.get((occasion_id, number))
        if game is None:
            game = games[(occasion_id, number)] = GamePrizes(number, row["claim__game__kind"])
            rows[occasion_id].games.append(game)
        if row["claim__part__is_bonus"]:
            game.bonus += row["total"]
        else:
            game.regular += row["total"]
    door = (
        DoorPrize.objects.filter(occasion__in=occasions)
        .order_by()
        .values_list("occasion_id")
        .annotate(total=Sum("value"))
    )
    for occasion_id, total in door:
        rows[occasion_id].door_prizes = total
    for row in rows.values():
        row.judge()
    return list(rows.values())


def occasions_in(organizations: QuerySet[Organization], flt: OccasionFilter) -> QuerySet[Occasion]:
    return flt.occasions(Occasion.objects.filter(organization__in=organizations))


@dataclass(frozen=True)
class EquipmentProblem:
    equipment: Equipment
    violations: list[Violation]


def equipment_problems(
    organizations: QuerySet[Organization], today: dt.date
) -> tuple[int, list[EquipmentProblem]]:
    """The equipment in service that could not be used today: without proof of ownership, or
    leased without a lease the Director approved and valid today, or otherwise refused by the
    rules of 3.04(4) (judged as an occasion opening today would judge it). Two queries."""
    limits = limits_in_force(today)
    items = list(
        Equipment.objects.filter(organization__in=organizations)
        .filter(Q(retired_on__isnull=True) | Q(retired_on__gt=today))
        .select_related("organization", "lease_authorization")
        .order_by("organization__name", "kind", "description", "pk")
    )
    problems = []
    for item in items:
        decision = rules.judge(
            USE,
            equipment_facts(item),
            on=today,
            authorizations=lease_authorizations(item),
            limits=limits,
        )
        if not decision.allowed:
            problems.append(EquipmentProblem(item, list(decision.violations)))
    return len(items), problems


def card_inventory(organizations: QuerySet[Organization]) -> list[CardPurchase]:
    """Every card purchase of the scope, reconciled: bought − used − voided − issued to the
    door + counted back − destroyed ± stock-takes = on hand, with its proof (3.04(4)(e)). One
    query."""
    return list(
        with_movements(CardPurchase.objects.filter(organization__in=organizations))
        .select_related("organization")
        .order_by("organization__name", "card_type", "invoice_date", "pk")
    )


@dataclass
class InventoryTotals:
    organization: Organization
    card_type: str
    bought: int = 0
    used: int = 0
    voided: int = 0
    issued: int = 0
    returned: int = 0
    destroyed: int = 0
    adjusted: int = 0
    on_hand: int = 0


def inventory_totals(purchases: list[CardPurchase]) -> list[InventoryTotals]:
    """The purchases added up by organization and card type, in the purchases' order."""
    totals: dict[tuple[int, str], InventoryTotals] = {}
    for p in purchases:
        key = (p.organization_id, p.card_type)
        if key not in totals:
            totals[key] = InventoryTotals(p.organization, p.get_card_type_display())
        row = totals[key]
        row.bought += p.quantity
        row.used += p.used
        row.voided += p.voided
        row.issued += p.issued
        row.returned += p.returned
        row.destroyed += p.destroyed
        row.adjusted += p.adjusted
        row.on_hand += p.on_hand
    return list(totals.values())
