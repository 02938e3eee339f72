"""What the reads of one organization answer, field by field (the schema is made from these):
its licenses, its occasions with their figures, an occasion's price list and program, and the
night's state for flashboards and points of sale. Money is a string with two decimals, times are
ISO 8601 with their offset, and a value that may be missing is declared nullable."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.models import Game, PrizePart
from occasions.models import Occasion, PriceListItem
from organizations.models import License


def Money(**kwargs: Any) -> serializers.DecimalField:
    """Dollars and cents as a string: "12.50"."""
    return serializers.DecimalField(max_digits=12, decimal_places=2, **kwargs)


@extend_schema_field(
    {
        "type": ["string", "null"],
        "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$",
        "description": "A time of day on the hall's clock (Massachusetts), 24-hour: 18:30.",
    }
)
class HallTimeField(serializers.TimeField):
    """A time of day with no date, so no offset: "18:30" on the hall's clock (JSON Schema's
    ``format: time`` asks for an offset, which a license's hours do not have)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(format="%H:%M", **kwargs)


class LicenseSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.CharField()
    valid_from = serializers.DateField()
    valid_to = serializers.DateField()
    status = serializers.ChoiceField(choices=License.Status.choices)
    premises_name = serializers.CharField()
    premises_address = serializers.CharField()
    authorized_weekdays = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=6),
        help_text="Days of the week the license authorizes, 0 = Monday … 6 = Sunday.",
    )
    start_time = HallTimeField(allow_null=True)
    end_time = HallTimeField(allow_null=True)
    local_licensing_authority = serializers.CharField()
    practice = serializers.BooleanField(
        help_text="A practice license: its days owe no report, its occasions are not counted."
    )


class LicenseRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.CharField()


class TotalsSerializer(serializers.Serializer):
    """An occasion's figures as the Commission's lists show them: a closed occasion's as kept
    at its close, filing and amendment; any other's counted from its records now."""

    admissions = serializers.IntegerField(help_text="Admissions sold, voided sales left out.")
    gross_receipts = Money(help_text="What the door sold, voided sales left out.")
    prizes = Money(help_text="Prizes awarded to winners.")
    games_played = serializers.IntegerField()
    attendance = serializers.IntegerField(
        allow_null=True, help_text="The attendance announced (961 CMR 3.04(5)(c)), if it was."
    )
    net_proceeds = Money(
        allow_null=True, help_text="As the filed report states them; null until it is filed."
    )


class OccasionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    date = serializers.DateField()
    status = serializers.ChoiceField(choices=Occasion.Status.choices)
    license = LicenseRefSerializer()
    opened_at = serializers.DateTimeField(allow_null=True)
    closed_at = serializers.DateTimeField(allow_null=True)
    totals = TotalsSerializer(source="*")


class PriceItemSerializer(serializers.Serializer):
    """One posted price: a point of sale names the item by its id in a sale's lines."""

    id = serializers.IntegerField()
    category = serializers.ChoiceField(choices=PriceListItem.Category.choices)
    category_label = serializers.CharField()
    label = serializers.CharField()
    price = Money()
    package_contents = serializers.CharField(allow_blank=True)
    max_quantity = serializers.IntegerField(help_text="The most of this item one sale carries.")


class PatternSerializer(serializers.Serializer):
    """A winning arrangement: its code, its name and its first variant as a 5×5 picture, row by
    row, each square "on", "free" (the centre) or "off"."""

    code = serializers.CharField()
    name = serializers.CharField()
    picture = serializers.ListField(
        child=serializers.ListField(
            child=serializers.ChoiceField(choices=["on", "free", "off"]),
            min_length=5,
            max_length=5,
        ),
        min_length=5,
        max_length=5,
    )


class PrizeSerializer(serializers.Serializer):
    order = serializers.IntegerField()
    pattern = PatternSerializer()
    kind = serializers.ChoiceField(choices=PrizePart.Kind.choices)
    amount = Money(help_text="Cash, or the merchandise's value.")
    description = serializers.CharField(allow_blank=True)
    donated = serializers.BooleanField()
    is_bonus = serializers.BooleanField()
    announced_at = serializers.DateTimeField(allow_null=True)


class GameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    half = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Game.Kind.choices)
    status = serializers.ChoiceField(choices=Game.Status.choices)
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    balls_called = serializers.IntegerField(help_text="Voided entries left out.")
    prizes = PrizeSerializer(many=True)


class CategoryCountSerializer(serializers.Serializer):
    category = serializers.ChoiceField(choices=PriceListItem.Category.choices)
    label = serializers.CharField()
    quantity = serializers.IntegerField()
    amount = Money()


class DoorSerializer(serializers.Serializer):
    """The door's counts by category (961 CMR 3.04(4)(d)2), voided sales left out."""

    receipts = serializers.IntegerField(help_text="Receipts sold, voided ones left out.")
    voided = serializers.IntegerField()
    total = Money()
    admissions = serializers.IntegerField()
    attendance = serializers.IntegerField(
        allow_null=True, help_text="The players announced, if the attendance was."
    )
    categories = CategoryCountSerializer(many=True)


class FiguresSerializer(serializers.Serializer):
    """The financial report's headline figures: as filed (its latest version), or, for a closed
    occasion not filed yet, as the report computes them now."""

    source = serializers.ChoiceField(choices=["filed", "computed"])
    report_version = serializers.IntegerField(allow_null=True)
    figures_sha256 = serializers.CharField(allow_null=True)
    door_total = Money()
    charity_game_tickets = Money()
    refunds = Money()
    gross_receipts = Money()
    beano_tax = Money()
    interest = Money()
    tax_due = Money()
    prizes_total = Money()
    prizes_expensed = Money()
    door_prizes = Money()
    charity_prizes = Money()
    expenses_total = Money()
    net_proceeds = Money()


class OccasionDetailSerializer(OccasionSerializer):
    not_played_reason = serializers.CharField(allow_blank=True)
    price_list = PriceItemSerializer(many=True)
    games = GameSerializer(many=True)
    door = DoorSerializer()
    figures = FiguresSerializer(
        allow_null=True, help_text="Null until the occasion is closed (or its report filed)."
    )


class BallSerializer(serializers.Serializer):
    sequence = serializers.IntegerField()
    number = serializers.IntegerField(min_value=1, max_value=75)
    label = serializers.CharField(help_text='The ball as called: "B5".')
    called_at = serializers.DateTimeField()


class CurrentGameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Game.Kind.choices)
    status = serializers.ChoiceField(choices=Game.Status.choices)
    started_at = serializers.DateTimeField(allow_null=True)
    prizes = PrizeSerializer(many=True)


class NightOccasionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    date = serializers.DateField()
    status = serializers.ChoiceField(choices=Occasion.Status.choices)


class NightSerializer(serializers.Serializer):
    """What a flashboard or a point of sale shows: the door's counts, the game in play (or the
    last one played), its patterns and prizes, the balls called in order and the last one."""

    occasion = NightOccasionSerializer()
    door = DoorSerializer()
    game = CurrentGameSerializer(allow_null=True)
    balls = BallSerializer(many=True)
    last_ball = BallSerializer(allow_null=True)


class _OccasionFilterBase(serializers.Serializer):
    to = serializers.DateField(required=False, help_text="Occasions on or before this day.")
    status = serializers.ChoiceField(choices=Occasion.Status.choices, required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        start, end = attrs.get("from"), attrs.get("to")
        if start is not None and end is not None and end < start:
            raise serializers.ValidationError({"to": "The last day comes before the first."})
        return attrs


#: The filters of the occasions' list, from the query string (``from`` is Python's word).
OccasionFilterSerializer = type(
    "OccasionFilterSerializer",
    (_OccasionFilterBase,),
    {"from": serializers.DateField(required=False, help_text="Occasions on or after this day.")},
)
