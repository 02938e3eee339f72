"""Who may see what, and how they sign in, recorded on the Commission's audit chain
(``record_event`` with no organization).

These changes are not made by the services: a Commission admin changes an inspector's scope or
deactivates a user in the Django admin, a user enrols or removes an authenticator from the
account pages, django-otp saves its devices. So they are recorded from the models' signals,
wherever the change comes from (the admin, a page, a command, the shell), by the user of the
request being answered (``organizations.audit.acting_in``) or "system". Each event is written in
the transaction of the change when there is one (the admin's, the account pages', a delete's).

Recorded: a Commission staff member added, changed (kind, Commission-wide scope) or removed, and
organizations added to or removed from their scope; an authenticator enrolled (confirmed) or
removed; a user deactivated or reactivated. Rows loaded from a fixture or an archive (``raw``)
are not changes and are not recorded.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Model
from django.db.models.signals import m2m_changed, post_delete, post_init, post_save
from django.dispatch import receiver
from django_otp.plugins.otp_totp.models import TOTPDevice

from organizations.audit import changed, current_actor, record_event
from organizations.models import CommissionStaff, Organization

User = get_user_model()


def _record(
    action: str, target: Model, *, old: dict | None = None, new: dict | None = None
) -> None:
    with transaction.atomic():
        record_event(
            organization=None, actor=current_actor(), action=action, target=target, old=old, new=new
        )


def _as_loaded(instance: Model, *fields: str) -> dict[str, Any]:
    """The fields as the row was loaded or made (never loading a deferred one)."""
    return {name: instance.__dict__.get(name) for name in fields}


# -- Commission staff and their scope --------------------------------------------------------

STAFF_FIELDS = ("kind", "all_organizations")


def _staff(staff: CommissionStaff) -> dict[str, Any]:
    return {"user": staff.user.get_username(), **_as_loaded(staff, *STAFF_FIELDS)}


@receiver(post_init, sender=CommissionStaff)
def _staff_loaded(sender: type, instance: CommissionStaff, **kwargs: Any) -> None:
    instance._audit_loaded = _as_loaded(instance, *STAFF_FIELDS)


@receiver(post_save, sender=CommissionStaff)
def _staff_saved(
    sender: type, instance: CommissionStaff, created: bool, raw: bool, **kwargs: Any
) -> None:
    if raw:
        return
    if created:
        _record("commission.staff.added", instance, new=_staff(instance))
    else:
        old, new = changed(instance._audit_loaded, _as_loaded(instance, *STAFF_FIELDS))
        if new:
            _record("commission.staff.changed", instance, old=old, new=new)
    instance._audit_loaded = _as_loaded(instance, *STAFF_FIELDS)


@receiver(post_delete, sender=CommissionStaff)
def _staff_removed(sender: type, instance: CommissionStaff, **kwargs: Any) -> None:
    _record("commission.staff.removed", instance, old=_staff(instance))


@receiver(m2m_changed, sender=CommissionStaff.organizations.through)
def _scope_changed(
    sender: type,
    instance: Model,
    action: str,
    reverse: bool,
    pk_set: set[int] | None,
    **kwargs: Any,
) -> None:
    """Organizations added to or removed from an inspector's scope, from either side
    (``staff.organizations`` or ``organization.inspectors``)."""
    if action == "pre_clear":
        related = instance.inspectors if reverse else instance.organizations
        instance._audit_cleared = set(related.values_list("pk", flat=True))
        return
    if action not in ("post_add", "post_remove", "post_clear"):
        return
    ids = pk_set if action != "post_clear" else getattr(instance, "_audit_cleared", set())
    if not ids:
        return
    if reverse:
        pairs = [(staff, [instance]) for staff in CommissionStaff.objects.filter(pk__in=ids)]
    else:
        pairs = [(instance, list(Organization.objects.filter(pk__in=ids).order_by("pk")))]
    for staff, organizations in pairs:
        names = {"organizations": [f"{o} (#{o.pk})" for o in organizations]}
        if action == "post_add":
            _record("commission.staff.organizations_added", staff, new=names)
        else:
            _record("commission.staff.organizations_removed", staff, old=names)


# -- Authenticators ---------------------------------------------------------------------------


def _device(device: TOTPDevice) -> dict[str, Any]:
    return {"user": device.user.get_username(), "device": device.name}


@receiver(post_init, sender=TOTPDevice)
def _device_loaded(sender: type, instance: TOTPDevice, **kwargs: Any) -> None:
    instance._audit_confirmed = instance.__dict__.get("confirmed")


@receiver(post_save, sender=TOTPDevice)
def _device_saved(
    sender: type, instance: TOTPDevice, created: bool, raw: bool, **kwargs: Any
) -> None:
    """Enrolment is the device confirmed (a pending one, not yet confirmed with a code, is not
    a second factor); taking the confirmation back is a removal."""
    was = False if created else instance._audit_confirmed
    if not raw and was is not None and was != instance.confirmed:
        if instance.confirmed:
            _record("accounts.totp.enrolled", instance, new=_device(instance))
        else:
            _record("accounts.totp.removed", instance, old=_device(instance))
    instance._audit_confirmed = instance.confirmed


@receiver(post_delete, sender=TOTPDevice)
def _device_removed(sender: type, instance: TOTPDevice, **kwargs: Any) -> None:
    if instance.confirmed:
        _record("accounts.totp.removed", instance, old=_device(instance))


# -- Users ------------------------------------------------------------------------------------


@receiver(post_init, sender=User)
def _user_loaded(sender: type, instance: Any, **kwargs: Any) -> None:
    instance._audit_active = instance.__dict__.get("is_active")


@receiver(post_save, sender=User)
def _user_saved(sender: type, instance: Any, created: bool, raw: bool, **kwargs: Any) -> None:
    was = instance._audit_active
    if not (created or raw) and was is not None and was != instance.is_active:
        _record(
            "accounts.user.reactivated" if instance.is_active else "accounts.user.deactivated",
            instance,
            old={"user": instance.get_username(), "is_active": was},
            new={"is_active": instance.is_active},
        )
    instance._audit_active = instance.is_active
