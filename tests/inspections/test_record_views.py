"""Every page a Commission user opens is logged: who, which page, which record, when. The
organization sees its own on its Inspections page; no one else's views are logged."""

from __future__ import annotations

from django.urls import reverse

from organizations.models import RecordView
from tests.conftest import login


def test_it_logs_an_inspectors_page_with_the_record_it_opened(client, tenant, inspector, played):
    login(client, inspector)
    url = reverse("occasion_record", args=[tenant.organization.pk, played.pk])
    assert client.get(url + "?x=1").status_code == 200
    view = RecordView.objects.get()
    assert (view.user, view.username, view.organization) == (
        inspector,
        inspector.username,
        tenant.organization,
    )
    assert (view.path, view.view_name, view.method, view.status_code) == (
        url + "?x=1",
        "occasion_record",
        "GET",
        200,
    )
    assert (view.object_type, view.object_id) == ("occasions.occasion", str(played.pk))


def test_it_logs_commission_wide_pages_refusals_and_misses_too(
    client, tenant, other_tenant, inspector
):
    login(client, inspector)
    client.get(reverse("inspector_dashboard"), {"q": "Rebello"})
    client.post(reverse("member_add", args=[tenant.organization.pk]), {})
    client.get(reverse("organization_home", args=[other_tenant.organization.pk]))
    rows = list(
        RecordView.objects.order_by("pk").values_list("view_name", "status_code", "organization")
    )
    assert rows == [
        ("inspector_dashboard", 200, None),
        ("member_add", 403, tenant.organization.pk),
        ("organization_home", 404, None),  # outside the scope: nothing of it is named
    ]
    assert RecordView.objects.order_by("pk").first().path.endswith("?q=Rebello")


def test_it_does_not_log_the_organizations_own_users_or_anonymous_visitors(client, tenant, played):
    client.get(reverse("occasion_record", args=[tenant.organization.pk, played.pk]))
    login(client, tenant.head)
    client.get(reverse("occasion_record", args=[tenant.organization.pk, played.pk]))
    assert not RecordView.objects.exists()


def test_a_failed_log_never_costs_the_inspector_the_page(client, tenant, inspector, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(RecordView, "save", broken)
    login(client, inspector)
    assert (
        client.get(reverse("organization_home", args=[tenant.organization.pk])).status_code == 200
    )


def test_the_organization_sees_who_inspected_its_records(client, tenant, inspector, played):
    login(client, inspector)
    client.get(reverse("occasion_record", args=[tenant.organization.pk, played.pk]))
    login(client, tenant.head)
    page = client.get(reverse("inspections_list", args=[tenant.organization.pk])).content.decode()
    assert inspector.username in page and "occasion_record" in page
    assert f"occasions.occasion #{played.pk}" in page
    login(client, tenant.worker)
    assert client.get(reverse("inspections_list", args=[tenant.organization.pk])).status_code == 403


def test_commission_admins_read_the_log_in_the_admin_and_cannot_change_it(
    client, tenant, inspector, commission_admin
):
    login(client, inspector)
    client.get(reverse("organization_home", args=[tenant.organization.pk]))
    login(client, commission_admin)
    view = RecordView.objects.get(user=inspector)
    listing = client.get(reverse("admin:organizations_recordview_changelist"))
    assert listing.status_code == 200 and inspector.username in listing.content.decode()
    change = reverse("admin:organizations_recordview_change", args=[view.pk])
    assert client.post(change, {"path": "/forged/"}).status_code == 403
    assert (
        client.post(reverse("admin:organizations_recordview_delete", args=[view.pk])).status_code
        == 403
    )
    assert RecordView.objects.get(pk=view.pk).path == view.path
