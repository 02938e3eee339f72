"""Night files through the API: a night exported as its file (without a W-2G payee's personal
data), and a file imported by a night-file token, dry run first, by the same judging as the
upload page and the command (``nightfile.upload.judge_for``): the figures, or each refusal with
its citation, sheet and time, as a 422 problem; a file that cannot be read, 400; over the
ceiling, 413; another organization's night, refused; nothing saved but by a real import."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse

from api.models import ApiToken
from nightfile import files, upload
from occasions.models import Occasion, PaperRecord
from organizations.models import AuditEvent
from tests.api.conftest import api_client, token_for
from tests.nightfile.night_fixtures import known_night

DAY = "2026-12-04"


@pytest.fixture
def ready(night_records: Any, report_clock: Any) -> Any:
    return night_records


def books_token(tenant: Any) -> str:
    return token_for(
        ApiToken.Scope.NIGHT_FILES,
        by=tenant.head,
        organization=tenant.organization,
        acts_as=tenant.bookkeeper,
        name="Bookkeeping system",
    )


def night(tenant: Any) -> dict[str, Any]:
    return known_night(tenant.organization.licenses.get().number)


def post(plain: str, tenant: Any, body: Any, *, dry_run: bool | None = None) -> Any:
    url = reverse("api_night_files", args=[tenant.organization.pk])
    if dry_run is not None:
        url += f"?dry_run={'true' if dry_run else 'false'}"
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    return api_client(plain).post(url, data, content_type="application/json")


def nothing_saved() -> bool:
    return not Occasion.objects.filter(date=DAY).exists() and not PaperRecord.objects.exists()


def test_a_dry_run_answers_the_figures_of_the_pages_judging_and_saves_nothing(ready):
    tenant = ready
    data = night(tenant)
    answer = post(books_token(tenant), tenant, data, dry_run=True)
    assert answer.status_code == 200, answer.content
    body = answer.json()
    same = upload.judge_night(data, by=tenant.bookkeeper, dry_run=True)
    assert body["figures"] == same.figures and body["saved"] is False
    assert body["license"] == data["license"] and body["date"] == DAY
    assert body["occasion"] is None
    assert nothing_saved()


def test_an_import_records_once_as_the_tokens_bookkeeper_named_in_the_audit(ready):
    tenant = ready
    plain = books_token(tenant)
    answer = post(plain, tenant, night(tenant))
    assert answer.status_code == 201, answer.content
    occasion = Occasion.objects.get(date=DAY, organization=tenant.organization)
    assert answer.json()["occasion"]["id"] == occasion.pk
    events = AuditEvent.objects.filter(organization=tenant.organization, actor=tenant.bookkeeper)
    sent = [e for e in events if e.provenance.get("client") == "Bookkeeping system"]
    assert sent and all(e.provenance.get("made_by") == tenant.head.username for e in sent)
    assert any(e.provenance.get("sheet") for e in sent)  # the paper's own provenance kept
    again = post(plain, tenant, night(tenant))  # the same night again: refused, one night
    assert again.status_code == 422
    assert Occasion.objects.filter(date=DAY, organization=tenant.organization).count() == 1


def test_a_refusal_is_a_problem_with_citation_sheet_and_time(ready):
    tenant = ready
    data = night(tenant)
    data["door_prizes"][1]["value"] = "190.00"  # $25 + $190: over the $200 in force
    answer = post(books_token(tenant), tenant, data, dry_run=True)
    assert answer.status_code == 422
    assert answer["Content-Type"] == "application/problem+json"
    body = answer.json()
    [refusal] = body["refusals"]
    assert refusal["citation"] == "961 CMR 3.04(8)(e)" == body["citations"][0]
    assert (refusal["sheet"], refusal["at"], refusal["time"]) == ("Extras", "20:00", "8:00 PM")
    assert "$215.00" in refusal["words"]
    assert nothing_saved()


@pytest.mark.parametrize(
    "content,says",
    [
        (b"this is not JSON", "not a JSON file"),
        (b'{"format": "beano-night/2"}', '"format" must be "beano-night/1"'),
        (b"[1, 2, 3]", "night"),
        (b"", "JSON"),
    ],
)
def test_a_file_that_cannot_be_read_is_bad_input(ready, content, says):
    tenant = ready
    answer = post(books_token(tenant), tenant, content, dry_run=True)
    assert answer.status_code == 400
    assert says in answer.json()["errors"]["body"][0]
    assert nothing_saved()


def test_a_file_over_the_ceiling_is_413_unread(ready, monkeypatch):
    tenant = ready
    monkeypatch.setattr(files, "MAX_BYTES", 1000)
    answer = post(books_token(tenant), tenant, b'{"x": "' + b"y" * 5000 + b'"}')
    assert answer.status_code == 413
    assert "too large" in answer.json()["detail"]


def test_a_bad_dry_run_flag_names_it(ready):
    tenant = ready
    url = reverse("api_night_files", args=[tenant.organization.pk]) + "?dry_run=perhaps"
    answer = api_client(books_token(tenant)).post(url, b"{}", content_type="application/json")
    assert answer.status_code == 400 and "dry_run" in answer.json()["errors"]


def test_another_organizations_night_is_refused(ready, other_tenant):
    tenant = ready
    data = known_night(other_tenant.organization.licenses.get().number)
    answer = post(books_token(tenant), tenant, data, dry_run=True)
    assert answer.status_code == 400
    assert "is not a license of" in answer.json()["errors"]["body"][0]


def test_only_a_night_file_token_imports(ready, read_token, floor_token):
    tenant = ready
    for plain in (read_token, floor_token):
        assert post(plain, tenant, night(tenant), dry_run=True).status_code == 403
    assert post("", tenant, night(tenant), dry_run=True).status_code == 401
    assert nothing_saved()


def test_another_organizations_token_gets_404(ready, other_tenant):
    tenant = ready
    other = books_token(other_tenant)
    assert post(other, tenant, night(tenant), dry_run=True).status_code == 404


def test_the_export_leaves_the_payees_personal_data_out(ready):
    tenant = ready
    post(books_token(tenant), tenant, night(tenant))
    occasion = Occasion.objects.get(date=DAY, organization=tenant.organization)
    url = reverse("api_night_file", args=[tenant.organization.pk, occasion.pk])
    reader = token_for("read", by=tenant.head, organization=tenant.organization)
    exported = api_client(reader).get(url).json()
    assert exported["format"] == "beano-night/1" and exported["date"] == DAY
    text = json.dumps(exported)
    payees = [
        p["w2g"]
        for g in night(tenant).get("games", [])
        for c in g.get("claims", [])
        for p in [c.get("payout") or {}]
        if p.get("w2g")
    ]
    for w2g in payees:
        assert w2g["legal_name"] not in text and w2g["address"] not in text
    assert '"tin"' not in text
    other = reverse("api_night_file", args=[tenant.organization.pk + 999, occasion.pk])
    assert api_client(reader).get(other).status_code == 404
