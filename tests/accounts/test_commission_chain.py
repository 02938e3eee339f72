"""Changes of who may see what and how they sign in are recorded on the Commission's audit chain:
an inspector's scope changed in the admin, an authenticator enrolled or removed, a user
deactivated, by whoever made the change."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django_otp.plugins.otp_totp.models import TOTPDevice

from beano.accounts.views import PENDING_KEY
from organizations.audit import verify_chain
from organizations.models import AuditEvent, CommissionStaff
from tests.conftest import login, make_user, totp_code


def commission_events(action: str | None = None) -> Any:
    events = AuditEvent.objects.filter(organization__isnull=True).order_by("sequence")
    return events.filter(action=action) if action else events


def test_the_admin_changing_an_inspectors_scope_is_recorded(
    client, commission_admin, inspector, tenant, other_tenant
):
    staff = CommissionStaff.objects.get(user=inspector)
    login(client, commission_admin)  # enrols the admin's authenticator: one event
    before = commission_events().count()
    url = reverse("admin:organizations_commissionstaff_change", args=[staff.pk])
    form = {"user": inspector.pk, "kind": "inspector"}
    both = [tenant.organization.pk, other_tenant.organization.pk]
    response = client.post(url, {**form, "organizations": both})
    assert response.status_code == 302, response.content.decode()[:2000]
    added = commission_events("commission.staff.organizations_added").last()
    assert added.new_values == {"organizations": [f"Parish Two (#{both[1]})"]}
    assert added.actor == commission_admin and added.target_repr == str(staff)

    response = client.post(url, {**form, "all_organizations": "on"})
    assert response.status_code == 302
    changed = commission_events("commission.staff.changed").last()
    assert changed.old_values == {"all_organizations": False}
    assert changed.new_values == {"all_organizations": True}
    removed = commission_events("commission.staff.organizations_removed").last()
    assert sorted(removed.old_values["organizations"]) == sorted(
        [f"Post One (#{both[0]})", f"Parish Two (#{both[1]})"]
    )
    assert commission_events().count() == before + 3
    assert verify_chain(None).ok


def test_staff_added_and_removed_are_recorded(tenant):
    user = make_user("new-inspector")
    staff = CommissionStaff.objects.create(user=user, kind=CommissionStaff.Kind.INSPECTOR)
    staff.organizations.add(tenant.organization)
    tenant.organization.inspectors.remove(staff)  # from the organization's side
    staff.delete()
    actions = [e.action for e in commission_events()][-4:]
    assert actions == [
        "commission.staff.added",
        "commission.staff.organizations_added",
        "commission.staff.organizations_removed",
        "commission.staff.removed",
    ]
    assert commission_events().last().actor_label == "system"
    assert verify_chain(None).ok


def test_enrolling_and_removing_an_authenticator_is_recorded(client, tenant):
    login(client, tenant.member_in_charge)
    client.get(reverse("otp_setup"))
    # The key the page showed, kept in the session until a code confirms it.
    pending = TOTPDevice(key=client.session[PENDING_KEY], name="Authenticator app")
    assert not commission_events("accounts.totp.enrolled").exists()  # not yet confirmed
    response = client.post(reverse("otp_setup"), {"code": totp_code(pending)})
    assert response.status_code == 302
    enrolled = commission_events("accounts.totp.enrolled").get()
    assert enrolled.actor == tenant.member_in_charge
    assert enrolled.new_values == {"user": tenant.member_in_charge.username, "device": pending.name}
    assert "key" not in str(enrolled.new_values).lower()

    device = TOTPDevice.objects.get(user=tenant.member_in_charge)
    device.last_t = -1  # the code of the enrolment may be given again in the same 30 seconds
    device.save()
    response = client.post(reverse("otp_disable"), {"code": totp_code(device)})
    assert response.status_code == 302
    removed = commission_events("accounts.totp.removed").get()
    assert (
        removed.actor == tenant.member_in_charge
        and removed.old_values["user"] == tenant.member_in_charge.username
    )
    assert verify_chain(None).ok


def test_a_user_deactivated_in_the_admin_is_recorded(client, tenant):
    root = make_user("root-admin", is_staff=True, is_superuser=True)
    login(client, root)
    worker = tenant.worker
    url = reverse("admin:auth_user_change", args=[worker.pk])
    form = {
        "username": worker.username,
        "date_joined_0": worker.date_joined.strftime("%Y-%m-%d"),
        "date_joined_1": worker.date_joined.strftime("%H:%M:%S"),
    }
    response = client.post(url, form)  # is_active left unticked
    assert response.status_code == 302, response.content.decode()[:3000]
    event = commission_events("accounts.user.deactivated").get()
    assert event.actor == root and event.target_id == str(worker.pk)
    assert event.old_values == {"user": worker.username, "is_active": True}
    assert event.new_values == {"is_active": False}

    client.post(url, {**form, "is_active": "on"})
    assert commission_events("accounts.user.reactivated").count() == 1
    assert verify_chain(None).ok


def test_ordinary_saves_record_nothing(client, tenant):
    """A login (last_login saved), a device's counters after a code: not changes of access."""
    login(client, tenant.head)  # a head's authenticator, made by the helper, is recorded
    before = commission_events().count()
    tenant.head.first_name = "Renamed"
    tenant.head.save()
    assert commission_events().count() == before
