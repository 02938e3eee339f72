"""A night file uploaded on the web (issue 43, item 4): judged in a dry run by the command's own
judging (``nightfile.upload.judge_night``), its figures or each refusal shown with its citation,
sheet and time, nothing saved; then recorded by one confirmation of that very file, once, and on
to the night recorded. Bad files say what is wrong, never a 500; another organization's upload
is 404; only the head and the bookkeeper upload."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.urls import reverse

from beano.rules.models import RefusedAction
from nightfile import engine, files, upload
from nightfile.models import NightUpload
from occasions.models import Occasion, PaperRecord
from organizations.models import AuditEvent
from tests.conftest import login
from tests.nightfile.night_fixtures import known_night

DAY = "2026-12-04"


def as_user(user: Any) -> Client:
    client = Client()
    login(client, user)
    return client


def url(name: str, tenant: Any) -> str:
    return reverse(name, args=[tenant.organization.pk])


def night(tenant: Any, **changes: Any) -> dict[str, Any]:
    return known_night(tenant.organization.licenses.get().number, **changes)


def send(client: Client, tenant: Any, content: bytes | str, name: str = "night.json") -> Any:
    data = content.encode() if isinstance(content, str) else content
    return client.post(
        url("night_upload", tenant), {"file": SimpleUploadedFile(name, data, "application/json")}
    )


def confirm(client: Client, tenant: Any, kept: NightUpload, sha256: str | None = None) -> Any:
    return client.post(
        url("night_upload_confirm", tenant),
        {"upload": kept.pk, "sha256": sha256 or kept.sha256},
    )


def nothing_of_the_night_saved() -> bool:
    return not Occasion.objects.filter(date=DAY).exists() and not PaperRecord.objects.exists()


@pytest.fixture
def ready(night_records: Any, report_clock: Any) -> Any:
    return night_records


def test_the_dry_run_shows_the_figures_and_saves_nothing_of_the_night(ready):
    tenant = ready
    response = send(as_user(tenant.bookkeeper), tenant, json.dumps(night(tenant)))
    assert response.status_code == 200
    page = response.content.decode()
    outcome = response.context["outcome"]
    assert outcome.status == "accepted" and not outcome.saved
    assert "Dry run: every act accepted; nothing is saved yet" in page
    for key in ("gross_receipts", "beano_tax", "prizes_total", "net_proceeds"):
        assert f"${outcome.figures[key]}" in page.replace(",", "")
    assert "Record this night" in page
    assert nothing_of_the_night_saved()
    kept = NightUpload.objects.get()
    assert kept.state == NightUpload.State.DRY_RUN and kept.uploaded_by == tenant.bookkeeper
    assert kept.organization == tenant.organization and kept.figures == outcome.figures
    assert f'value="{kept.sha256}"' in page and f'value="{kept.pk}"' in page


def test_the_page_judges_as_the_command_does(ready):
    """The same function: the command's --json figures are the page's."""
    tenant = ready
    data = night(tenant)
    by_page = send(as_user(tenant.head), tenant, json.dumps(data)).context["outcome"]
    by_function = upload.judge_night(data, by=tenant.head, dry_run=True)
    assert by_page.figures == by_function.figures
    assert by_function.license == data["license"] and str(by_function.date) == DAY


def test_a_refused_night_shows_each_refusal_with_citation_sheet_and_time(ready):
    tenant = ready
    data = night(tenant)
    data["door_prizes"][1]["value"] = "190.00"  # $25 + $190: over the $200 in force
    response = send(as_user(tenant.bookkeeper), tenant, json.dumps(data), "refused.json")
    assert response.status_code == 200
    page = response.content.decode()
    [refusal] = response.context["outcome"].refusals
    assert (refusal.sheet, refusal.act, refusal.at, refusal.time) == (
        "Extras",
        "door prize (Quilt)",
        "20:00",
        "8:00 PM",
    )
    assert refusal.citation == "961 CMR 3.04(8)(e)"
    assert "refused.json: refused; nothing was saved." in page
    shown = page[page.index("Extras, door prize (Quilt) at 8:00 PM:") :]
    # The words first, then the citation in its quieter style.
    assert shown.index("$215.00") < shown.index('<span class="citation')
    assert shown.index('<span class="citation') < shown.index("961 CMR 3.04(8)(e)")
    assert "Record this night" not in page
    assert nothing_of_the_night_saved() and not NightUpload.objects.exists()
    assert RefusedAction.objects.filter(citations__contains="3.04(8)(e)").exists()


@pytest.mark.parametrize(
    "content,says",
    [
        (b"this is not JSON", "not a JSON file"),
        (b"\xff\xfe{}", "not a UTF-8 text file"),
        (b'{"format": "beano-night/2"}', '"format" must be "beano-night/1"'),
        (b"[1, 2, 3]", "night"),
        (b'{"format": "beano-night/1", "license": "NOPE", "date": "2026-12-04"}', "NOPE"),
        (
            json.dumps(
                {
                    "format": "beano-night/1",
                    "license": "L",
                    "date": DAY,
                    "games": [{"number": n, "claims": [{}] * 100} for n in range(1, 8)],
                }
            ).encode(),
            "700 claims in all; a night holds at most 600",
        ),
    ],
)
def test_a_file_that_cannot_be_read_says_what_and_saves_nothing(ready, content, says):
    tenant = ready
    response = send(as_user(tenant.bookkeeper), tenant, content, "bad.json")
    assert response.status_code == 200
    outcome = response.context["outcome"]
    assert outcome.status == "unreadable" and says in outcome.message
    page = response.content.decode()
    assert "bad.json cannot be read as a night file; nothing was saved." in page
    assert nothing_of_the_night_saved() and not NightUpload.objects.exists()


def test_a_file_over_the_ceiling_is_refused_by_the_form_unread(ready, monkeypatch):
    tenant = ready

    def never(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a file over the ceiling is never read, nor judged")

    monkeypatch.setattr(files, "read_at_most", never)
    monkeypatch.setattr(upload, "receive", never)
    big = b'{"pad": "' + b" " * files.MAX_BYTES + b'"}'
    response = send(as_user(tenant.bookkeeper), tenant, big, "big.json")
    assert response.status_code == 200
    assert "is too large for a night file: it holds at most 2 MB" in response.content.decode()
    assert not NightUpload.objects.exists()


def test_an_upload_over_the_ceiling_is_never_held_whole(ready, monkeypatch):
    """Its first MAX_BYTES + 1 bytes are kept, in memory; the form is told its whole size."""
    from nightfile import upload_views

    tenant = ready
    seen: dict[str, Any] = {}
    clean = upload_views.NightUploadForm.clean_file

    def spy(form: Any) -> Any:
        file = form.cleaned_data["file"]
        seen.update(size=file.size, held=len(file.read()), kind=type(file).__name__)
        file.seek(0)
        return clean(form)

    monkeypatch.setattr(upload_views.NightUploadForm, "clean_file", spy)
    big = b" " * (3 * files.MAX_BYTES)  # over Django's 2.5 MB kept in memory: else on disk
    response = send(as_user(tenant.bookkeeper), tenant, big, "big.json")
    assert "too large for a night file" in response.content.decode()
    assert seen == {
        "size": 3 * files.MAX_BYTES,
        "held": files.MAX_BYTES + 1,
        "kind": "InMemoryUploadedFile",
    }


def test_read_at_most_never_reads_past_the_ceiling():
    class Endless:
        read_total = 0

        def read(self, size: int = -1) -> bytes:
            assert size > 0, "never the whole stream"
            self.read_total += size
            return b" " * size

    stream = Endless()
    assert len(files.read_at_most(stream)) == files.MAX_BYTES + 1
    assert stream.read_total == files.MAX_BYTES + 1
    with pytest.raises(files.NightFormatError, match="too large"):
        files.parse(b" " * (files.MAX_BYTES + 1))


def test_no_file_is_a_message_on_the_form(ready):
    tenant = ready
    response = as_user(tenant.bookkeeper).post(url("night_upload", tenant), {})
    assert response.status_code == 200 and response.context["form"].errors["file"]


def test_a_night_of_another_organizations_license_is_not_uploaded_here(ready, other_tenant):
    tenant = ready
    response = send(as_user(other_tenant.bookkeeper), other_tenant, json.dumps(night(tenant)))
    outcome = response.context["outcome"]
    assert outcome.status == "unreadable" and "is not a license of Parish Two" in outcome.message
    assert nothing_of_the_night_saved() and not NightUpload.objects.exists()


def test_the_confirmation_records_the_night_once_and_lands_on_it(ready):
    tenant = ready
    client = as_user(tenant.bookkeeper)
    send(client, tenant, json.dumps(night(tenant)), "known.json")
    kept = NightUpload.objects.get()
    response = confirm(client, tenant, kept)
    occasion = Occasion.objects.get(organization=tenant.organization, date=DAY)
    assert response.status_code == 302
    assert response.url == reverse("occasion_detail", args=[tenant.organization.pk, occasion.pk])
    assert occasion.status == Occasion.Status.CLOSED
    record = PaperRecord.objects.get(occasion=occasion)
    assert (record.source, record.file_name, record.entered_by) == (
        "file",
        "known.json",
        tenant.bookkeeper,
    )
    kept.refresh_from_db()
    assert kept.state == NightUpload.State.RECORDED and kept.occasion == occasion
    imported = AuditEvent.objects.filter(action="reports.night.imported").count()

    again = confirm(client, tenant, kept)  # a double click, a second tab
    assert again.status_code == 302 and again.url == response.url
    assert Occasion.objects.filter(date=DAY).count() == 1
    assert PaperRecord.objects.count() == 1
    assert AuditEvent.objects.filter(action="reports.night.imported").count() == imported == 1
    assert AuditEvent.objects.filter(action="nightfile.upload.recorded").count() == 1


def test_the_confirmation_records_only_the_file_that_was_judged(ready):
    tenant = ready
    client = as_user(tenant.bookkeeper)
    send(client, tenant, json.dumps(night(tenant)))
    kept = NightUpload.objects.get()
    response = confirm(client, tenant, kept, sha256="0" * 64)
    assert response.status_code == 200
    assert "not the file that was judged" in response.context["outcome"].message
    NightUpload.objects.filter(pk=kept.pk).update(content=kept.content.replace("Quilt", "Quilts"))
    response = confirm(client, tenant, kept)
    assert "not the file that was judged" in response.context["outcome"].message
    assert nothing_of_the_night_saved()


def test_the_confirmation_judges_again(ready):
    """A night recorded meanwhile (from paper, or by the command): refused, nothing saved."""
    tenant = ready
    client = as_user(tenant.bookkeeper)
    data = night(tenant)
    send(client, tenant, json.dumps(data))
    kept = NightUpload.objects.get()
    assert upload.judge_night(data, by=tenant.head, dry_run=False).saved
    response = confirm(client, tenant, kept)
    assert response.status_code == 200
    [refusal] = response.context["outcome"].refusals
    assert "already holds a night" in refusal.message
    assert "already holds a night" in response.content.decode()
    kept.refresh_from_db()
    assert kept.state == NightUpload.State.DRY_RUN


def test_another_organizations_upload_is_404(ready, other_tenant):
    tenant = ready
    send(as_user(tenant.bookkeeper), tenant, json.dumps(night(tenant)))
    kept = NightUpload.objects.get()
    response = confirm(as_user(other_tenant.bookkeeper), other_tenant, kept)
    assert response.status_code == 404
    # Its own organization's page, another's upload: 404 too; and nothing recorded.
    assert nothing_of_the_night_saved()


def test_an_empty_confirmation_goes_back_to_the_upload(ready):
    tenant = ready
    response = as_user(tenant.bookkeeper).post(url("night_upload_confirm", tenant), {})
    assert response.status_code == 302 and response.url == url("night_upload", tenant)


@pytest.mark.parametrize("role", ["member_in_charge", "worker"])
def test_only_the_head_and_the_bookkeeper_upload(ready, role):
    tenant = ready
    client = as_user(getattr(tenant, role))
    assert client.get(url("night_upload", tenant)).status_code == 403
    assert send(client, tenant, json.dumps(night(tenant))).status_code == 403
    assert nothing_of_the_night_saved() and not NightUpload.objects.exists()


def test_an_inspector_uploads_nothing_and_confirms_nothing(ready, inspector):
    tenant = ready
    send(as_user(tenant.bookkeeper), tenant, json.dumps(night(tenant)))
    kept = NightUpload.objects.get()
    client = as_user(inspector)
    assert client.get(url("night_upload", tenant)).status_code == 403
    assert send(client, tenant, json.dumps(night(tenant))).status_code == 403
    assert confirm(client, tenant, kept).status_code == 403
    assert NightUpload.objects.count() == 1 and nothing_of_the_night_saved()


def test_the_reports_page_links_the_upload_to_whom_it_reads(ready, inspector):
    tenant = ready
    link = url("night_upload", tenant)
    reports = url("reports_home", tenant)
    assert link in as_user(tenant.bookkeeper).get(reports).content.decode()
    assert link not in as_user(inspector).get(reports).content.decode()


def test_out_of_time_saves_nothing(ready, monkeypatch):
    """The judging runs in the request: past its seconds no act is begun."""
    tenant = ready
    monkeypatch.setattr(upload, "UPLOAD_SECONDS", 1e-9)
    response = send(as_user(tenant.bookkeeper), tenant, json.dumps(night(tenant)))
    outcome = response.context["outcome"]
    assert outcome.status == "refused" and outcome.out_of_time
    assert "took longer than" in response.content.decode()
    assert nothing_of_the_night_saved() and not NightUpload.objects.exists()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's statement_timeout")
def test_a_statement_longer_than_the_judging_may_take_is_cancelled(ready, monkeypatch):
    """One statement that runs long (a lock waited for, a slow plan) is cancelled by the
    server; nothing is saved, and the caller's transaction goes on without the limit."""
    tenant = ready
    recorded = engine.import_night

    def slow(**kwargs: Any) -> Any:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_sleep(3)")
        return recorded(**kwargs)

    monkeypatch.setattr(engine, "import_night", slow)
    outcome = upload.judge_night(night(tenant), by=tenant.head, dry_run=False, seconds=0.5)
    assert outcome.status == "refused" and outcome.out_of_time
    assert nothing_of_the_night_saved()
    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        assert cursor.fetchone()[0] == "0"
