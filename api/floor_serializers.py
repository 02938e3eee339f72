"""The floor's writes as the API takes them (a door sale, a ball call) and answers them. These
only shape the JSON: the door's and the console's own forms then read the values as the pages
do, and the services and the rules judge them."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from occasions.sales_forms import RECEIPT_MAX
from occasions.sales_services import MAX_QUANTITY

#: The most lines one sale carries (the posted list has one line per item).
MAX_LINES = 50
BALLS = (1, 75)


class WholeNumberField(serializers.IntegerField):
    """A JSON integer and nothing else: "2", 2.5, 2.0 and true are not quantities."""

    default_error_messages = {
        **serializers.IntegerField.default_error_messages,
        "invalid": "A whole number (a JSON integer) is required.",
    }

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class SaleLineIn(serializers.Serializer):
    item = WholeNumberField(
        min_value=1, help_text="The id of an item of the occasion's posted price list."
    )
    quantity = WholeNumberField(
        min_value=1,
        max_value=MAX_QUANTITY,
        error_messages={
            "min_value": "A quantity is at least 1.",
            "max_value": f"At most {MAX_QUANTITY} of one item in a sale.",
        },
    )


class SaleIn(serializers.Serializer):
    lines = SaleLineIn(many=True, allow_empty=False, max_length=MAX_LINES)
    admission_receipt = WholeNumberField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=RECEIPT_MAX,
        help_text="The player's admission receipt the extras are sold against, if any.",
    )

    def validate_lines(self, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
        seen: set[int] = set()
        for line in lines:
            if line["item"] in seen:
                raise serializers.ValidationError(
                    f"Item {line['item']} is given twice: give each item once, with its quantity."
                )
            seen.add(line["item"])
        return lines


class SaleLineOut(serializers.Serializer):
    item = serializers.IntegerField(source="price_item_id")
    category = serializers.CharField()
    quantity = serializers.IntegerField()
    unit_price = serializers.DecimalField(max_digits=10, decimal_places=2)
    amount = serializers.DecimalField(max_digits=10, decimal_places=2)


class SaleOut(serializers.Serializer):
    number = serializers.IntegerField(help_text="The receipt's number at this occasion.")
    total = serializers.DecimalField(max_digits=12, decimal_places=2)
    lines = SaleLineOut(many=True)
    said = serializers.CharField(help_text="The receipt's words, as the door shows them.")
    replayed = serializers.BooleanField(
        help_text="True when this Idempotency-Key was recorded before: nothing new was recorded."
    )


class BallIn(serializers.Serializer):
    ball = WholeNumberField(
        min_value=BALLS[0],
        max_value=BALLS[1],
        error_messages={
            "min_value": "A ball is numbered 1 to 75.",
            "max_value": "A ball is numbered 1 to 75.",
        },
    )


class BallOut(serializers.Serializer):
    number = serializers.IntegerField(help_text="The ball's number, 1 to 75.")
    label = serializers.CharField(help_text="Its letter and number: N42.")
    sequence = serializers.IntegerField(help_text="Its place in the game's draw.")
    said = serializers.CharField()
    replayed = serializers.BooleanField(
        help_text="True when this Idempotency-Key was recorded before: nothing new was recorded."
    )
