"""The Django admin, for Commission admins: licensing data. Every save and delete made here is
recorded in the audit trail in the same transaction as the change."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.files import File
from django.core.validators import FileExtensionValidator
from django.db import models
from django.forms import ModelForm
from django.http import HttpRequest

from beano.rules.models import LawLimit, RefusedAction
from beano.rules.money import QuantityField
from beano.uploads import ContentMatchesName
from organizations.audit import record_event
from organizations.models import (
    AuditEvent,
    CardPurchase,
    CommissionStaff,
    Conviction,
    DirectorAuthorization,
    Equipment,
    License,
    Membership,
    Organization,
    OrganizationRole,
    Person,
    RecordView,
    WorkerListEntry,
)


def _organization_of(obj: Any) -> Organization | None:
    if isinstance(obj, Organization):
        return obj
    return getattr(obj, "organization", None)


class AuditedAdmin(admin.ModelAdmin):
    # Whole numbers (serials, counts) in ASCII digits only, as in the organizations' forms.
    formfield_overrides = {models.IntegerField: {"form_class": QuantityField}}

    def formfield_for_dbfield(
        self, db_field: models.Field, request: HttpRequest, **kwargs: Any
    ) -> forms.Field | None:
        """A file uploaded here (the Director's letter) is judged by its content as well as by
        the extensions its model allows, as on the organizations' own pages."""
        formfield = super().formfield_for_dbfield(db_field, request, **kwargs)
        if isinstance(db_field, models.FileField) and formfield is not None:
            allowed = [
                extension
                for validator in db_field.validators
                if isinstance(validator, FileExtensionValidator)
                for extension in validator.allowed_extensions or ()
            ]
            formfield.validators.append(ContentMatchesName(allowed))
        return formfield

    def save_model(self, request: HttpRequest, obj: Any, form: ModelForm, change: bool) -> None:
        old = {name: form.initial.get(name) for name in form.changed_data} if change else {}
        super().save_model(request, obj, form, change)
        new = {name: form.cleaned_data.get(name) for name in form.changed_data}
        # A related row by its name; an uploaded file by the name it was stored under.
        new = {
            k: str(v) if hasattr(v, "pk") else getattr(obj, k).name if isinstance(v, File) else v
            for k, v in new.items()
        }
        record_event(
            organization=_organization_of(obj),
            actor=request.user,
            action=f"admin.{obj._meta.model_name}.{'changed' if change else 'added'}",
            target=obj,
            old=old,
            new=new,
        )

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        record_event(
            organization=_organization_of(obj),
            actor=request.user,
            action=f"admin.{obj._meta.model_name}.deleted",
            target=obj,
            old={"repr": str(obj)},
        )
        super().delete_model(request, obj)

    def get_actions(self, request: HttpRequest) -> dict:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)  # bulk deletes would bypass the audit trail
        return actions


class LicenseInline(admin.TabularInline):
    model = License
    extra = 0
    show_change_link = True
    fields = ["number", "valid_from", "valid_to", "status"]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Organization)
class OrganizationAdmin(AuditedAdmin):
    list_display = ["name", "kind", "town", "founded_on"]
    list_filter = ["kind", "town"]
    search_fields = ["name", "town", "licenses__number"]
    inlines = [LicenseInline]


@admin.register(License)
class LicenseAdmin(AuditedAdmin):
    list_display = ["number", "organization", "valid_from", "valid_to", "status"]
    list_filter = ["status"]
    search_fields = ["number", "organization__name"]
    autocomplete_fields = ["organization"]


@admin.register(Person)
class PersonAdmin(AuditedAdmin):
    list_display = ["legal_name", "date_of_birth", "commission_worker_id", "supplier_connected"]
    search_fields = ["legal_name", "commission_worker_id"]


@admin.register(Membership)
class MembershipAdmin(AuditedAdmin):
    list_display = ["person", "organization", "kind", "since", "until"]
    list_filter = ["kind"]
    search_fields = ["person__legal_name", "organization__name"]
    autocomplete_fields = ["person", "organization", "family_of"]


@admin.register(OrganizationRole)
class OrganizationRoleAdmin(AuditedAdmin):
    list_display = ["user", "organization", "role", "person"]
    list_filter = ["role"]
    autocomplete_fields = ["organization", "person"]


@admin.register(CommissionStaff)
class CommissionStaffAdmin(admin.ModelAdmin):
    list_display = ["user", "kind", "all_organizations"]
    filter_horizontal = ["organizations"]


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    """Read-only: the trail is written by services, never edited."""

    list_display = [
        "organization",
        "sequence",
        "created_at",
        "actor_label",
        "action",
        "target_repr",
    ]
    list_filter = ["action"]
    search_fields = ["target_repr", "actor_label", "action"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(DirectorAuthorization)
class DirectorAuthorizationAdmin(AuditedAdmin):
    list_display = [
        "reference_number",
        "organization",
        "kind",
        "person",
        "valid_from",
        "valid_to",
        "revoked_on",
    ]
    list_filter = ["kind"]
    search_fields = ["reference_number", "organization__name", "person__legal_name", "subject"]
    autocomplete_fields = ["organization", "person"]


@admin.register(LawLimit)
class LawLimitAdmin(AuditedAdmin):
    """The dated legal figures. A change of the law is a new row from its effective date; the
    old row stays so that earlier occasions are still judged by the figures of their day."""

    list_display = ["name", "value", "unit", "effective_from", "status", "source"]
    list_filter = ["status", "name"]


@admin.register(RefusedAction)
class RefusedActionAdmin(admin.ModelAdmin):
    list_display = ["created_at", "username", "organization_name", "action", "citations"]
    list_filter = ["action"]
    search_fields = ["username", "organization_name", "citations"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyAdmin(admin.ModelAdmin):
    """Records the organizations keep through their own pages, where the rules judge every
    change; the Commission reads them here but never edits around the rules."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(WorkerListEntry)
class WorkerListEntryAdmin(ReadOnlyAdmin):
    list_display = ["person", "worker_list", "identification", "compensated", "removed_on"]
    list_filter = ["worker_list__year"]
    search_fields = ["person__legal_name", "identification", "worker_list__organization__name"]


@admin.register(Conviction)
class ConvictionAdmin(ReadOnlyAdmin):
    list_display = ["person", "convicted_on", "traffic_only", "recorded_by_organization"]


@admin.register(Equipment)
class EquipmentAdmin(ReadOnlyAdmin):
    list_display = ["description", "organization", "kind", "ownership", "in_good_repair"]
    list_filter = ["ownership", "kind"]
    search_fields = ["description", "serial_number", "organization__name"]


@admin.register(CardPurchase)
class CardPurchaseAdmin(ReadOnlyAdmin):
    list_display = ["invoice_number", "organization", "card_type", "series", "quantity"]
    search_fields = ["invoice_number", "organization__name", "series"]


@admin.register(RecordView)
class RecordViewAdmin(ReadOnlyAdmin):
    """The pages the Commission's staff opened: written by the middleware, read here."""

    list_display = ["viewed_at", "username", "organization", "view_name", "path", "status_code"]
    list_filter = ["view_name", "organization"]
    search_fields = ["username", "path", "object_type", "object_id"]
    date_hierarchy = "viewed_at"
