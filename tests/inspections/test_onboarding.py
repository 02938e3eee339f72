"""The Commission admin's onboarding pages: an organization and its license in one form (the
weekdays as boxes, the hours as times), a later license, a Director's letter uploaded, the
winning arrangements a letter grants; each on the Commission's audit chain; bad input saves
nothing; nobody but a Commission admin reaches them."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Arrangement, ArrangementAuthorization
from organizations.models import (
    AuditEvent,
    DirectorAuthorization,
    License,
    Organization,
    Person,
)
from tests.builders import OrganizationFactory
from tests.conftest import login
from tests.fixtures.night import pdf_upload

ADD = "onboarding_organization_add"


def _org_post(**over: Any) -> dict[str, Any]:
    data = {
        "org-name": "Knights of Columbus Council 99",
        "org-kind": "fraternal",
        "org-founded_on": "1961-05-01",
        "org-street": "12 Elm Street",
        "org-town": "Westport",
        "org-zip_code": "02790",
        "org-telephone": "508-555-0199",
        "org-federal_id": "04-1234567",
        "license-number": "BN-2027-0099",
        "license-valid_from": "2027-01-01",
        "license-valid_to": "2027-12-31",
        "license-authorized_weekdays": ["1", "4"],
        "license-start_time": "18:30",
        "license-end_time": "23:00",
        "license-premises_name": "Council Hall",
        "license-premises_address": "12 Elm Street, Westport",
        "license-local_licensing_authority": "Westport Select Board",
    }
    data.update(over)
    return data


@pytest.fixture
def admin_client(client, commission_admin):
    login(client, commission_admin)
    return client


def test_an_organization_and_its_license_in_one_form(admin_client, commission_admin):
    page = admin_client.get(reverse(ADD)).content.decode()
    assert 'type="checkbox"' in page and 'name="license-authorized_weekdays"' in page
    assert 'type="time"' in page and "null" not in page
    response = admin_client.post(reverse(ADD), _org_post())
    assert response.status_code == 302
    org = Organization.objects.get(name="Knights of Columbus Council 99")
    lic = License.objects.get(organization=org)
    assert lic.authorized_weekdays == [1, 4]
    assert (lic.start_time, lic.end_time) == (dt.time(18, 30), dt.time(23, 0))
    assert lic.local_licensing_authority == "Westport Select Board"
    assert lic.status == License.Status.ACTIVE
    events = list(AuditEvent.objects.filter(organization=None).order_by("sequence"))
    assert [e.action for e in events[-2:]] == [
        "commission.organization.added",
        "commission.license.added",
    ]
    assert events[-1].actor == commission_admin
    assert events[-1].new_values["authorized_weekdays"] == [1, 4]
    listing = admin_client.get(response["Location"]).content.decode()
    assert "Knights of Columbus Council 99" in listing and "Next step:" in listing
    # Its head is invited from there, the organization chosen already.
    assert f"/commission/invite-head/?organization={org.pk}" in listing
    assert "Tuesday, Friday" in listing


@pytest.mark.parametrize(
    ("over", "says"),
    [
        ({"license-authorized_weekdays": []}, "This field is required"),
        ({"license-valid_to": "2026-12-31"}, "cannot end before it starts"),
        ({"license-end_time": ""}, "both the start and the end"),
        ({"license-authorized_weekdays": ["7"]}, "Select a valid choice"),
        ({"org-founded_on": "yesterday"}, "Enter a valid date"),
    ],
)
def test_bad_input_is_shown_and_saves_nothing(admin_client, over, says):
    before = (Organization.objects.count(), License.objects.count(), AuditEvent.objects.count())
    response = admin_client.post(reverse(ADD), _org_post(**over))
    assert response.status_code == 400
    assert says in response.content.decode()
    after = (Organization.objects.count(), License.objects.count(), AuditEvent.objects.count())
    assert after == before


def test_a_license_number_already_used_keeps_the_organization_out_too(admin_client, tenant):
    taken = License.objects.get(organization=tenant.organization).number
    before = Organization.objects.count()
    response = admin_client.post(reverse(ADD), _org_post(**{"license-number": taken}))
    assert response.status_code == 400
    assert "already exists" in response.content.decode()
    assert Organization.objects.count() == before
    again = admin_client.post(reverse(ADD), _org_post(**{"org-name": tenant.organization.name}))
    assert again.status_code == 400 and Organization.objects.count() == before


def test_a_renewal_and_an_overlapping_license(admin_client, tenant):
    org = tenant.organization
    url = reverse("onboarding_license_add", args=[org.pk])
    data = {k.removeprefix("license-"): v for k, v in _org_post().items() if k.startswith("lic")}
    response = admin_client.post(url, data | {"number": "BN-OVERLAP"})
    assert response.status_code == 400
    assert "the dates overlap" in response.content.decode()
    assert not License.objects.filter(number="BN-OVERLAP").exists()
    renewal = data | {"number": "BN-RENEWAL", "valid_from": "2030-10-01", "valid_to": "2031-09-30"}
    assert admin_client.post(url, renewal).status_code == 302
    lic = License.objects.get(number="BN-RENEWAL")
    assert lic.organization == org
    event = AuditEvent.objects.filter(organization=None).latest("sequence")
    assert event.action == "commission.license.added" and event.target_id == str(lic.pk)


def _letter_post(**over: Any) -> dict[str, Any]:
    data = {
        "kind": "6c_arrangement",
        "reference_number": "MSLC-2027-014",
        "subject": "Letter X, postage stamp",
        "valid_from": "2027-01-01",
        "valid_to": "",
        "granted_by": "Director",
        "document": pdf_upload("letter.pdf"),
    }
    data.update(over)
    return data


def test_a_directors_letter_uploaded(admin_client, tenant, media_root):
    url = reverse("onboarding_authorization_add", args=[tenant.organization.pk])
    assert 'enctype="multipart/form-data"' in admin_client.get(url).content.decode()
    assert admin_client.post(url, _letter_post()).status_code == 302
    letter = DirectorAuthorization.objects.get(reference_number="MSLC-2027-014")
    assert letter.organization == tenant.organization and letter.document.name.endswith(".pdf")
    assert letter.document.read().startswith(b"%PDF-")
    event = AuditEvent.objects.filter(organization=None).latest("sequence")
    assert event.action == "commission.authorization.recorded"
    assert event.new_values["document"] == letter.document.name


def test_a_letter_to_a_person_names_them(admin_client, tenant, media_root):
    url = reverse("onboarding_authorization_add", args=[tenant.organization.pk])
    person_kind = {"kind": "1c_four_orgs", "reference_number": "MSLC-P-1"}
    response = admin_client.post(url, _letter_post(**person_kind))
    assert response.status_code == 400
    assert "granted to a person" in response.content.decode()
    assert not DirectorAuthorization.objects.filter(reference_number="MSLC-P-1").exists()
    named = person_kind | {"person_name": "Mary  Walsh", "person_born": "1970-03-02"}
    assert admin_client.post(url, _letter_post(**named)).status_code == 302
    letter = DirectorAuthorization.objects.get(reference_number="MSLC-P-1")
    assert letter.person == Person.objects.get(legal_name="Mary Walsh")


def test_a_letter_that_is_not_what_its_name_says_is_refused(admin_client, tenant, media_root):
    url = reverse("onboarding_authorization_add", args=[tenant.organization.pk])
    fake = SimpleUploadedFile("letter.pdf", b"<html><script>x</script>", "application/pdf")
    missing = _letter_post()
    del missing["document"]
    before = AuditEvent.objects.count()
    for data in (_letter_post(document=fake), missing):
        response = admin_client.post(url, data)
        assert response.status_code == 400
    assert (
        "its content is not what its name says"
        in admin_client.post(
            url, _letter_post(document=SimpleUploadedFile("l.pdf", b"GIF89a", "application/pdf"))
        ).content.decode()
    )
    assert DirectorAuthorization.objects.count() == 0 and AuditEvent.objects.count() == before


def test_arrangements_granted_in_one_form(admin_client, tenant, authorization):
    url = reverse("onboarding_arrangements", args=[tenant.organization.pk])
    assert authorization.reference_number in admin_client.get(url).content.decode()
    chosen = list(Arrangement.objects.order_by("name")[:3])
    assert len(chosen) == 3
    data = {"authorization": authorization.pk, "arrangements": [a.pk for a in chosen]}
    assert admin_client.post(url, data).status_code == 302
    granted = set(
        ArrangementAuthorization.objects.filter(authorization=authorization).values_list(
            "arrangement_id", flat=True
        )
    )
    assert granted == {a.pk for a in chosen}
    event = AuditEvent.objects.filter(organization=None).latest("sequence")
    assert event.action == "commission.arrangements.granted"
    assert event.new_values["arrangements"] == sorted(a.name for a in chosen)
    # The same again: nothing new to grant, refused with a message, nothing saved.
    again = admin_client.post(url, data)
    assert again.status_code == 400
    assert "does not grant yet" in again.content.decode()
    assert ArrangementAuthorization.objects.filter(authorization=authorization).count() == 3


def test_another_organizations_letter_cannot_be_granted_to(admin_client, tenant, other_tenant):
    theirs = DirectorAuthorization.objects.create(
        organization=other_tenant.organization,
        kind="6c_arrangement",
        reference_number="MSLC-OTHER",
        subject="x",
        valid_from=dt.date(2025, 1, 1),
    )
    url = reverse("onboarding_arrangements", args=[tenant.organization.pk])
    arrangement = Arrangement.objects.first()
    response = admin_client.post(
        url, {"authorization": theirs.pk, "arrangements": [arrangement.pk]}
    )
    assert response.status_code == 400
    assert not ArrangementAuthorization.objects.exists()


def _urls(org: Organization) -> list[str]:
    return [
        reverse("onboarding_home"),
        reverse(ADD),
        *(
            reverse(name, args=[org.pk])
            for name in (
                "onboarding_license_add",
                "onboarding_authorization_add",
                "onboarding_arrangements",
            )
        ),
    ]


def test_an_inspector_and_the_organizations_own_people_are_refused(
    client, tenant, other_tenant, inspector
):
    commission_acts = AuditEvent.objects.filter(action__startswith="commission.")
    before = (Organization.objects.count(), commission_acts.count())
    for user in (inspector, tenant.head, tenant.bookkeeper):
        login(client, user)
        for url in _urls(tenant.organization):
            assert client.get(url).status_code == 403, (user, url)
            assert client.post(url, _org_post()).status_code == 403, (user, url)
    # Another organization's head: the organization's pages do not exist for them.
    login(client, other_tenant.head)
    for url in _urls(tenant.organization)[2:]:
        assert client.get(url).status_code == 404
        assert client.post(url, {}).status_code == 404
    assert (Organization.objects.count(), commission_acts.count()) == before


def test_the_licensing_list_reads_in_constant_queries(admin_client):
    OrganizationFactory.create_batch(2)
    admin_client.get(reverse("onboarding_home"))  # the session's first request does more
    with CaptureQueriesContext(connection) as small:
        assert admin_client.get(reverse("onboarding_home")).status_code == 200
    OrganizationFactory.create_batch(8)
    with CaptureQueriesContext(connection) as large:
        assert admin_client.get(reverse("onboarding_home")).status_code == 200
    assert len(large) == len(small)
