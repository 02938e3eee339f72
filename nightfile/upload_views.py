"""A night file uploaded on the web by the bookkeeper or the head (``nightfile.upload``): the
file judged in a dry run, its figures or each refusal shown, then recorded by one confirmation
of that very file (its upload's id and SHA-256), once, and on to the night recorded."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render

from nightfile import files, upload
from nightfile.models import NightUpload
from organizations.access import OrgRequest, get_for_org, org_view

MB = files.MAX_BYTES // 1024 // 1024


class NightUploadForm(forms.Form):
    file = forms.FileField(
        label="Night file",
        help_text=f"A beano-night/1 file (JSON), at most {MB} MB.",
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )

    def clean_file(self) -> Any:
        file = self.cleaned_data["file"]
        if file.size > files.MAX_BYTES:
            raise forms.ValidationError(
                f"{file.size / 1024 / 1024:.1f} MB is too large for a night file: it holds at "
                f"most {MB} MB (a whole night is far less); nothing was read."
            )
        return file


class ConfirmForm(forms.Form):
    upload = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    sha256 = forms.RegexField(regex=r"^[0-9a-f]{64}$", widget=forms.HiddenInput)


def _page(request: OrgRequest, **context: Any) -> HttpResponse:
    context.setdefault("form", NightUploadForm())
    return render(
        request,
        "nightfile/upload.html",
        {
            "org": request.access.organization,
            "access": request.access,
            "tab": "reports",
            "mb": MB,
            **context,
        },
    )


@org_view()
def night_upload(request: OrgRequest) -> HttpResponse:
    """GET: the form; POST: the file judged in a dry run (nothing of the night saved), and its
    figures with the one confirmation, or each refusal, or what cannot be read."""
    if request.method != "POST":
        return _page(request)
    form = NightUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _page(request, form=form)
    file = form.cleaned_data["file"]
    kept, outcome = upload.receive(
        organization=request.access.organization,
        raw=files.read_at_most(file),  # never more than the ceiling into memory
        file_name=file.name,
        by=request.user,
    )
    confirm = None
    if kept is not None:
        confirm = ConfirmForm(initial={"upload": kept.pk, "sha256": kept.sha256})
    return _page(request, outcome=outcome, upload=kept, confirm=confirm, file_name=file.name)


@org_view()
def night_upload_confirm(request: OrgRequest) -> HttpResponse:
    """POST: the upload dry-run on this page recorded, once (a second confirmation finds it
    recorded), then the night recorded; a refusal now (the file is judged again) is shown as
    on the dry run. GET: back to the upload page."""
    if request.method != "POST":
        return redirect("night_upload", org_id=request.access.organization.pk)
    form = ConfirmForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Nothing to record: upload the night file first.")
        return redirect("night_upload", org_id=request.access.organization.pk)
    kept = get_for_org(NightUpload.objects.all(), request.access, pk=form.cleaned_data["upload"])
    outcome = upload.record(upload=kept, sha256=form.cleaned_data["sha256"], by=request.user)
    if outcome.occasion is None:
        return _page(request, outcome=outcome, file_name=kept.file_name)
    if outcome.saved:
        messages.success(request, f"{kept.file_name}: the night is recorded.")
    else:
        messages.info(request, f"{kept.file_name} was already recorded: here is its night.")
    night = outcome.occasion
    return redirect("occasion_detail", org_id=night.organization_id, pk=night.pk)
