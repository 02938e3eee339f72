"""The accounts' failed passwords in the Django admin: where a Commission admin sees an account
waiting or locked, and lifts the lock (a person locked out of their hall on a Friday night,
after someone else's guesses, need not wait out the hour)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from beano.accounts import ceiling
from beano.accounts.models import PasswordFailures
from organizations.access import commission_staff
from organizations.models import CommissionStaff


def _commission_admin(request: HttpRequest) -> bool:
    staff = commission_staff(request.user)
    return request.user.is_superuser or (
        staff is not None and staff.kind == CommissionStaff.Kind.ADMIN
    )


@admin.register(PasswordFailures)
class PasswordFailuresAdmin(admin.ModelAdmin):
    """Read, and lift; never edited or deleted by hand (the lift is audited)."""

    list_display = ["username_key", "failures", "state", "last_failure_at"]
    search_fields = ["username_key"]
    ordering = ["-last_failure_at"]
    actions = ["lift_lock"]

    @admin.display(description="State")
    def state(self, row: PasswordFailures) -> str:
        now = timezone.now()
        if row.locked_until is not None and row.locked_until > now:
            return f"Locked until {timezone.localtime(row.locked_until):%Y-%m-%d %H:%M}"
        if row.next_try_at is not None and row.next_try_at > now:
            return f"Waiting until {timezone.localtime(row.next_try_at):%H:%M:%S}"
        return "Open"

    @admin.action(description="Lift the lock (and the wait)", permissions=["lift"])
    def lift_lock(self, request: HttpRequest, queryset: QuerySet[PasswordFailures]) -> None:
        rows = list(queryset)
        for row in rows:
            ceiling.lift(row, by=request.user)
        messages.success(request, f"The lock is lifted for {len(rows)} account(s).")

    def has_lift_permission(self, request: HttpRequest) -> bool:
        return _commission_admin(request)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return _commission_admin(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _commission_admin(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
