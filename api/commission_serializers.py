"""What the Commission's operations answer, field by field, and the query strings they take.

A filed report is answered as its PDF embeds it (``reports.pdf.payload``: the filing's identity
and the figures exactly as filed), with its organization and occasion, and what the inspector's
pages say of it (``reports.integrity``). Personal data never leaves through these answers: the
name of a winner paid a prize that needs a Form W-2G, the names on a group's Form 5754, and the
names in a change between versions that concern winners are withheld (``null``), each withheld
value's path listed in ``withheld``. TINs and home addresses are never in the figures (they are
in the W-2G register, which the API does not offer). With something withheld, the figures no
longer hash to ``figures_sha256``: that digest is of the figures as filed, in the PDF."""

from __future__ import annotations

import copy
import datetime as dt
import re
from typing import Any

from django.utils import timezone
from rest_framework import serializers

from reports import selectors as report_selectors

# --- The query strings ---------------------------------------------------------------------


class Moment(serializers.DateTimeField):
    """A moment of the query string (ISO 8601, with its offset). One so near the year 1 or the
    year 9999 that it has no UTC is before (or after) every record, not a 400: it is valid by
    the schema, and holds no record either way."""

    def enforce_timezone(self, value: dt.datetime) -> dt.datetime:
        if timezone.is_aware(value):
            try:
                return value.astimezone(dt.UTC)
            except OverflowError:
                edge = dt.datetime.min if value.year < 2 else dt.datetime.max
                return edge.replace(tzinfo=dt.UTC)
        return super().enforce_timezone(value)


class NoQuery(serializers.Serializer):
    """An operation that takes no query parameter."""


class _PageQuery(serializers.Serializer):
    """``limit`` and ``offset`` (``LimitOffsetPagination``), held to numbers: a word is 400, not
    the first page."""

    limit = serializers.IntegerField(
        required=False, min_value=1, help_text="How many in a page: 50 unless asked, at most 500."
    )
    offset = serializers.IntegerField(
        required=False, min_value=0, max_value=10**9, help_text="How many to skip."
    )


class _OrganizationQuery(_PageQuery):
    organization = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=2**53,
        help_text=(
            "Only this organization's (its id). An organization outside the token's reach, or "
            "none of that id, is filtered out: the list is empty, never 404."
        ),
    )


def _with_dates(base: type[serializers.Serializer], name: str, about: str) -> type:
    """``base`` with ``from`` and ``to`` (dates, YYYY-MM-DD; a range that ends before it starts
    holds nothing): Python cannot name a field ``from`` in a class body."""
    fields = {
        "from": serializers.DateField(required=False, help_text=f"{about} on or after this date."),
        "to": serializers.DateField(required=False, help_text=f"{about} on or before this date."),
    }
    return type(name, (base,), fields)


class _ReportsBase(_OrganizationQuery):
    since = Moment(
        required=False,
        help_text="Only the reports filed at or after this moment (ISO 8601, with its offset).",
    )


ReportsQuery = _with_dates(_ReportsBase, "ReportsQuery", "Only the reports of occasions")


class _OwedBase(_OrganizationQuery):
    status = serializers.ChoiceField(
        required=False,
        choices=["open", "all", *report_selectors.FILTER_LABELS],
        help_text=(
            "open (due, late or missing: the default, as the Commission's page), all, or one "
            "state: " + ", ".join(report_selectors.FILTER_LABELS) + "."
        ),
    )


ReportsOwedQuery = _with_dates(_OwedBase, "ReportsOwedQuery", "Only the days owed")


class RefusedQuery(_OrganizationQuery):
    since = Moment(
        required=False,
        help_text="Only the actions refused at or after this moment (ISO 8601, with its offset).",
    )
    citation = serializers.CharField(
        required=False, max_length=60, help_text="Only those refused under this citation."
    )


class ChainsQuery(_OrganizationQuery):
    pass


# --- The answers ---------------------------------------------------------------------------


class CommissionOrganizationRef(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)


class CommissionOccasionRef(serializers.Serializer):
    id = serializers.IntegerField()
    date = serializers.DateField()


class CommissionAuditChainAtFiling(serializers.Serializer):
    through_event = serializers.IntegerField()
    head = serializers.CharField()


class CommissionReportSerializer(serializers.Serializer):
    """A filed report (one version): the PDF's embedded JSON, and where it stands."""

    id = serializers.IntegerField()
    organization = CommissionOrganizationRef()
    occasion = CommissionOccasionRef()
    document = serializers.CharField(help_text="financial_report")
    report_id = serializers.IntegerField(help_text="The same as id, as the PDF embeds it.")
    version = serializers.IntegerField(help_text="1: the report; 2 and on: its amendments.")
    reason = serializers.CharField(allow_blank=True, help_text="An amendment's reason.")
    filed_at = serializers.CharField(help_text="ISO 8601, with its offset.")
    filed_by = serializers.CharField(allow_blank=True)
    due_on = serializers.CharField(help_text="YYYY-MM-DD")
    days_late = serializers.IntegerField()
    audit_chain = CommissionAuditChainAtFiling()
    figures_sha256 = serializers.CharField(help_text="SHA-256 of the figures as filed.")
    changes = serializers.ListField(
        child=serializers.DictField(), help_text="What changed from the version before."
    )
    figures = serializers.DictField(help_text="The figures as filed (money as strings).")
    withheld = serializers.ListField(
        child=serializers.CharField(),
        help_text="The paths of the values withheld as personal data (set to null).",
    )
    checks = serializers.BooleanField(
        help_text="Its figures, their digest and its filing's audit event agree."
    )
    problems = serializers.ListField(
        child=serializers.CharField(), help_text="What does not check, in words."
    )
    pdf_ready = serializers.BooleanField()


class CommissionObligationSerializer(serializers.Serializer):
    """A day a report is owed for, and its state (``reports.obligations``)."""

    organization = CommissionOrganizationRef()
    license_number = serializers.CharField()
    day = serializers.DateField()
    due_on = serializers.DateField()
    status = serializers.CharField(help_text=", ".join(report_selectors.STATUS_LABELS))
    status_label = serializers.CharField()
    amended = serializers.BooleanField()
    versions = serializers.IntegerField(help_text="Versions filed: 0 when none.")
    occasion_id = serializers.IntegerField(allow_null=True)
    occasion_status = serializers.CharField(allow_null=True)
    report_id = serializers.IntegerField(allow_null=True, help_text="Its first filing.")
    filed_at = serializers.DateTimeField(allow_null=True)
    days_late = serializers.IntegerField(allow_null=True)


class CommissionRefusalSerializer(serializers.Serializer):
    code = serializers.CharField(allow_blank=True)
    citation = serializers.CharField(allow_blank=True)
    message = serializers.CharField(allow_blank=True)


class CommissionRefusedActionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    when = serializers.DateTimeField()
    who = serializers.CharField(allow_blank=True, help_text="The login that tried it.")
    organization = CommissionOrganizationRef()
    action = serializers.CharField()
    judged_for = serializers.DateField(help_text="The date the action was judged for.")
    refusals = CommissionRefusalSerializer(many=True)


class CommissionChainCheckSerializer(serializers.Serializer):
    """The last whole check of the chain (``ChainVerification``), as recorded."""

    checked_at = serializers.DateTimeField()
    verified_at = serializers.DateTimeField(
        allow_null=True, help_text="When the whole chain was last found intact."
    )
    through_event = serializers.IntegerField(help_text="The checkpoint: found intact through.")
    through_hash = serializers.CharField()
    sealed = serializers.BooleanField(help_text="The checkpoint's seal checks.")
    problem = serializers.CharField(allow_blank=True)


class CommissionAuditChainSerializer(serializers.Serializer):
    organization = CommissionOrganizationRef()
    length = serializers.IntegerField(help_text="Events in the chain.")
    head_hash = serializers.CharField()
    state = serializers.CharField(
        help_text=(
            "By the last whole check: intact (through its checkpoint), broken (at broken_at), "
            "or unchecked (never checked whole, or its checkpoint's seal does not check)."
        ),
    )
    broken_at = serializers.IntegerField(
        allow_null=True, help_text="The first event that did not check."
    )
    unchecked_events = serializers.IntegerField(
        help_text="Events after the checkpoint, written since the last whole check."
    )
    last_check = CommissionChainCheckSerializer(allow_null=True)


# --- Personal data withheld ----------------------------------------------------------------

#: A change between versions that may carry a winner's name: the name itself, or a winner (or a
#: Form 5754's member) added or taken away, summed up by name.
_PERSONAL_CHANGE = re.compile(r"(winners|form5754)(\[[^\]]*\]\.name)?$")


def without_personal_data(embedded: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The PDF's embedded JSON with its personal data withheld, and the paths withheld."""
    out = copy.deepcopy(embedded)
    withheld: list[str] = []
    for g, game in enumerate(out.get("figures", {}).get("games") or []):
        for p, part in enumerate(game.get("parts") or []):
            for w, winner in enumerate(part.get("winners") or []):
                at = f"figures.games[{g}].parts[{p}].winners[{w}]"
                if winner.get("w2g") and winner.get("name") is not None:
                    winner["name"] = None
                    withheld.append(f"{at}.name")
                for s, share in enumerate(winner.get("form5754") or []):
                    share["name"] = None
                    withheld.append(f"{at}.form5754[{s}].name")
    for c, change in enumerate(out.get("changes") or []):
        path = str(change.get("path", ""))
        summed_up = path.startswith("games") and any(
            isinstance(v, str) and v.startswith("{") for v in (change.get("old"), change.get("new"))
        )
        if _PERSONAL_CHANGE.search(path) or summed_up:
            change["old"] = change["new"] = None
            withheld.append(f"changes[{c}]")
    return out, withheld
