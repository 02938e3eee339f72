"""Uploaded documents (proofs of ownership, card invoices, raffle permits, the Director's
letters) are judged by what they hold, not only by their name, and come back as downloads the
browser does not open or sniff: a page made to look like a PDF is never shown as a page of this
site."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from beano import uploads
from occasions.models import RafflePermit
from organizations.models import CardPurchase, DirectorAuthorization, Equipment
from tests.conftest import login

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00"
TIFF = b"II*\x00\x08\x00\x00\x00"
PAGE = b"<html><script>alert(document.cookie)</script></html>"


@pytest.mark.parametrize(
    "name,content,expected",
    [
        ("scan.pdf", b"%PDF-1.7\n", "application/pdf"),
        ("scan.PNG", PNG, "image/png"),
        ("scan.jpg", JPEG, "image/jpeg"),
        ("scan.jpeg", JPEG, "image/jpeg"),
        ("scan.tif", TIFF, "image/tiff"),
        ("scan.tiff", b"MM\x00*\x00\x00\x00\x08", "image/tiff"),
        ("scan.pdf", PAGE, None),
        ("scan.pdf", PNG, None),
        ("scan.png", b"%PDF-1.7\n", None),
        ("scan.jpg", b"", None),
        ("scan.exe", b"MZ", None),
    ],
)
def test_a_file_is_what_its_name_says_only_if_its_first_bytes_say_so(name, content, expected):
    assert uploads.content_type(name, content[:16]) == expected


def _page_named(name: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, PAGE, content_type="application/pdf")


def test_a_web_page_named_like_a_proof_of_ownership_is_refused(client, tenant, media_root):
    login(client, tenant.head)
    response = client.post(
        reverse("equipment_add", args=[tenant.organization.pk]),
        {
            "description": "Ball set",
            "kind": "ball_set",
            "ownership": "owned",
            "in_good_repair": "on",
            "proof_of_ownership": _page_named("receipt.pdf"),
        },
    )
    assert response.status_code == 200
    assert "“receipt.pdf” is not a PDF" in response.content.decode()
    assert not Equipment.objects.exists()


def test_a_web_page_named_like_an_invoice_is_refused(client, tenant, media_root):
    login(client, tenant.head)
    response = client.post(
        reverse("card_purchase_add", args=[tenant.organization.pk]),
        {
            "supplier": "Arrow",
            "invoice_date": "2026-11-01",
            "card_type": "admission",
            "quantity": "100",
            "unit_cost": "0.10",
            "proof": _page_named("invoice.jpg"),
        },
    )
    assert response.status_code == 200
    assert "“invoice.jpg” is not a JPEG image" in response.content.decode()
    assert not CardPurchase.objects.exists()


@pytest.mark.parametrize("name", ["permit.pdf", "permit.html", "permit.svg"])
def test_a_raffle_permit_must_be_a_pdf_png_or_jpeg(client, tenant, media_root, name):
    login(client, tenant.member_in_charge)
    response = client.post(
        reverse("raffle_permits", args=[tenant.organization.pk]),
        {
            "permit_number": "FH-R-2026-0042",
            "issued_by": "Town Clerk",
            "town": "Fairhaven",
            "valid_from": "2026-01-01",
            "valid_to": "2026-12-31",
            "document": _page_named(name),
        },
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "is not a PDF" in page or "File extension" in page
    assert not RafflePermit.objects.exists()


def test_the_directors_letter_uploaded_in_the_admin_is_checked_too(
    client, tenant, commission_admin, media_root
):
    login(client, commission_admin)
    data = {
        "organization": tenant.organization.pk,
        "kind": "6c_arrangement",
        "reference_number": "MSLC-2026-0099",
        "subject": "Letter X",
        "valid_from": "2026-01-01",
    }
    url = reverse("admin:organizations_directorauthorization_add")
    response = client.post(url, data | {"document": _page_named("letter.tif")})
    assert response.status_code == 200
    assert "“letter.tif” is not a TIFF image" in response.content.decode()
    assert not DirectorAuthorization.objects.exists()
    letter = SimpleUploadedFile("letter.tif", TIFF + b"\x00" * 32, content_type="image/tiff")
    response = client.post(url, data | {"document": letter})
    assert response.status_code == 302, response.content.decode()[:3000]
    assert DirectorAuthorization.objects.get().document.name.endswith(".tif")


def _download_urls(tenant, equipment_item, card_purchase, raffle_permit, authorization):
    org = tenant.organization.pk
    return [
        reverse("equipment_proof", args=[org, equipment_item.pk]),
        reverse("card_purchase_proof", args=[org, card_purchase.pk]),
        reverse("raffle_permit_document", args=[org, raffle_permit.pk]),
        reverse("authorization_document", args=[org, authorization.pk]),
    ]


def test_every_document_is_a_download_never_sniffed_nor_kept(
    client, tenant, equipment_item, card_purchase, raffle_permit, authorization
):
    login(client, tenant.head)
    for url in _download_urls(tenant, equipment_item, card_purchase, raffle_permit, authorization):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["Content-Disposition"].startswith("attachment; filename="), url
        assert response["X-Content-Type-Options"] == "nosniff", url
        assert response["Content-Type"] == "application/pdf", url
        assert "no-store" in response["Cache-Control"], url
        assert b"".join(response.streaming_content).startswith(b"%PDF"), url


def test_a_document_stored_before_the_check_that_is_not_what_its_name_says_is_served_as_bytes(
    client, tenant, equipment_item, media_root
):
    """A file kept from before contents were checked (or put in storage some other way) is
    still served, but as bytes to save, never as the type its name claims."""
    with equipment_item.proof_of_ownership.open("wb") as handle:
        handle.write(PAGE)
    login(client, tenant.head)
    response = client.get(
        reverse("equipment_proof", args=[tenant.organization.pk, equipment_item.pk])
    )
    assert response["Content-Type"] == "application/octet-stream"
    assert response["Content-Disposition"].startswith("attachment;")
    b"".join(response.streaming_content)


def test_a_real_scan_is_still_accepted(client, tenant, media_root):
    login(client, tenant.head)
    response = client.post(
        reverse("equipment_add", args=[tenant.organization.pk]),
        {
            "description": "Ball set",
            "kind": "ball_set",
            "ownership": "owned",
            "in_good_repair": "on",
            "proof_of_ownership": SimpleUploadedFile("receipt.png", PNG + b"\x00" * 64),
        },
    )
    assert response.status_code == 302
    assert Equipment.objects.get().proof_of_ownership.name.endswith(".png")
