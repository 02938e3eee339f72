import datetime as dt

from django.urls import reverse

from organizations.models import AuditEvent, License
from tests.conftest import login


def test_a_commission_admin_edits_a_license_and_it_is_audited(client, tenant, commission_admin):
    login(client, commission_admin)
    lic = tenant.organization.licenses.get()
    url = reverse("admin:organizations_license_change", args=[lic.pk])
    assert client.get(url).status_code == 200
    response = client.post(
        url,
        {
            "organization": tenant.organization.pk,
            "number": lic.number,
            "valid_from": "2020-10-01",
            "valid_to": "2031-09-30",
            "status": "active",
            "premises_name": lic.premises_name,
            "premises_address": lic.premises_address,
            "authorized_weekdays": "[4, 5]",
            "start_time": "",
            "end_time": "",
            "local_licensing_authority": lic.local_licensing_authority,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    lic.refresh_from_db()
    assert lic.valid_to == dt.date(2031, 9, 30)
    event = AuditEvent.objects.filter(organization=tenant.organization).last()
    assert event.action == "admin.license.changed"
    assert event.actor == commission_admin
    assert set(event.new_values) == {"valid_to", "authorized_weekdays"}


def test_the_admin_refuses_bad_weekdays(client, tenant, commission_admin):
    login(client, commission_admin)
    lic = tenant.organization.licenses.get()
    response = client.post(
        reverse("admin:organizations_license_change", args=[lic.pk]),
        {
            "organization": tenant.organization.pk,
            "number": lic.number,
            "valid_from": "2020-10-01",
            "valid_to": "2019-09-30",
            "status": "active",
            "premises_name": "x",
            "premises_address": "x",
            "authorized_weekdays": "[9]",
            "local_licensing_authority": "x",
        },
    )
    assert response.status_code == 200
    assert License.objects.get(pk=lic.pk).authorized_weekdays == [4]


def test_no_one_edits_the_audit_trail_in_the_admin(client, tenant, commission_admin, member):
    login(client, commission_admin)
    event = AuditEvent.objects.first()
    url = reverse("admin:organizations_auditevent_change", args=[event.pk])
    assert client.post(url, {"action": "forged"}).status_code == 403
    assert AuditEvent.objects.get(pk=event.pk).action == event.action


def test_inspectors_and_organization_users_have_no_admin(client, tenant, inspector):
    for user in (inspector, tenant.head):
        login(client, user)
        response = client.get(reverse("admin:index"))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("admin:login"))


def test_the_commission_reads_rule_judged_records_in_the_admin_but_cannot_edit_them(
    client, tenant, commission_admin, worker_entry, equipment_item
):
    login(client, commission_admin)
    for model, obj in (("workerlistentry", worker_entry), ("equipment", equipment_item)):
        assert client.get(reverse(f"admin:organizations_{model}_changelist")).status_code == 200
        url = reverse(f"admin:organizations_{model}_change", args=[obj.pk])
        assert client.get(url).status_code == 200
        assert client.post(url, {}).status_code == 403
        assert client.get(reverse(f"admin:organizations_{model}_add")).status_code == 403


def test_a_directors_letter_added_in_the_admin_is_audited_by_its_stored_name(
    client, tenant, commission_admin, media_root
):
    """The uploaded file went into the audit event as it was (not JSON): a 500 for every letter
    added with its scan."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from organizations.models import DirectorAuthorization

    login(client, commission_admin)
    client.raise_request_exception = False
    response = client.post(
        reverse("admin:organizations_directorauthorization_add"),
        {
            "organization": tenant.organization.pk,
            "kind": "6c_arrangement",
            "reference_number": "MSLC-2026-0098",
            "subject": "Letter X",
            "valid_from": "2026-01-01",
            "document": SimpleUploadedFile("letter.pdf", b"%PDF-1.4 letter"),
        },
    )
    assert response.status_code == 302
    stored = DirectorAuthorization.objects.get().document.name
    assert stored.startswith("authorizations/") and stored.endswith(".pdf")
    event = AuditEvent.objects.get(action="admin.directorauthorization.added")
    assert event.new_values["document"] == stored
