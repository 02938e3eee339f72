"""The Django admin for occasions' Commission data: prevailing police rates (961 CMR 3.04(3)(e))
and the charity game ticket serials the Commission assigns (3.04(8)(f)). Every change is audited
through ``AuditedAdmin``. Records the organizations keep are read here, never edited."""

from __future__ import annotations

from django import forms
from django.contrib import admin

from beano.rules.money import HOURLY_RATE, MoneyField
from occasions.models import (
    CharityTicketSerialAssignment,
    PoliceDetail,
    PrevailingPoliceRate,
    RafflePermit,
)
from organizations.admin import AuditedAdmin, ReadOnlyAdmin


class PrevailingPoliceRateForm(forms.ModelForm):
    """The rate as the Commission's staff type it, read by the one money parser: a rate of
    "1e9" would make every police detail's pay lawful."""

    hourly_rate = MoneyField(kind=HOURLY_RATE)

    class Meta:
        model = PrevailingPoliceRate
        fields = ["town", "hourly_rate", "effective_from", "source"]


@admin.register(PrevailingPoliceRate)
class PrevailingPoliceRateAdmin(AuditedAdmin):
    """A change of rate is a new row from its effective date; the old row stays so that earlier
    occasions are still judged by the rate of their day."""

    form = PrevailingPoliceRateForm

    list_display = ["town", "hourly_rate", "effective_from", "source"]
    list_filter = ["town"]
    search_fields = ["town", "source"]


@admin.register(CharityTicketSerialAssignment)
class CharityTicketSerialAssignmentAdmin(AuditedAdmin):
    list_display = ["organization", "serial_prefix", "serial_from", "serial_to", "assigned_on"]
    search_fields = ["organization__name", "serial_prefix", "reference"]
    autocomplete_fields = ["organization"]


@admin.register(RafflePermit)
class RafflePermitAdmin(ReadOnlyAdmin):
    list_display = ["permit_number", "organization", "issued_by", "valid_from", "valid_to"]
    search_fields = ["permit_number", "organization__name"]


@admin.register(PoliceDetail)
class PoliceDetailAdmin(ReadOnlyAdmin):
    list_display = ["occasion", "officer_name", "department_town", "hours", "hourly_rate"]
    search_fields = ["officer_name", "occasion__organization__name"]
