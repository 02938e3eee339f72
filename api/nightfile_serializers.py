"""The night file's operations: what the import answers (the night file itself is the
``beano-night/1`` format of docs/formats/night-file.md, given as a JSON object)."""

from __future__ import annotations

from rest_framework import serializers


class NightFiguresSerializer(serializers.Serializer):
    door_total = serializers.CharField()
    gross_receipts = serializers.CharField()
    beano_tax = serializers.CharField()
    prizes_total = serializers.CharField()
    expenses_total = serializers.CharField()
    net_proceeds = serializers.CharField()


class RecordedOccasionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.CharField(help_text="The occasion in the API.")


class NightJudgedSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["accepted"])
    saved = serializers.BooleanField(help_text="False for a dry run: nothing was recorded.")
    license = serializers.CharField()
    date = serializers.DateField()
    figures = NightFiguresSerializer()
    occasion = RecordedOccasionSerializer(allow_null=True)
