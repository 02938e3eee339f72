"""Night files (``beano-night/1``): a night exported as its file, and a file imported with a
dry run first, judged by the same function as the upload page and the command
(``nightfile.upload.judge_for``: the night of this organization's license only, the same size,
count and time limits), as the token's bookkeeper or head, through the services and rules."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import parsers, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from api import access, problems
from api.base import ApiView
from api.nightfile_serializers import NightJudgedSerializer
from api.schema import READ_PROBLEMS
from api.schema import problems as failing
from nightfile import files, writer
from nightfile.format import NightFormatError
from nightfile.upload import NightOutcome, judge_for
from occasions.models import Occasion

#: The live page a night file's writer must be allowed to write (the upload page).
UPLOAD_PAGE = "night_upload"


class NightFileParser(parsers.BaseParser):
    """The body as bytes, never more than the night file's ceiling read into memory."""

    media_type = "application/json"

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        return files.read_at_most(stream) if stream is not None else b""


class DryRunSerializer(serializers.Serializer):
    dry_run = serializers.BooleanField(default=False)


class NightFileExport(ApiView):
    read_scopes = access.ORG_READ

    @extend_schema(
        operation_id="night_file_export",
        responses={200: OpenApiTypes.OBJECT, **READ_PROBLEMS},
        description="The night as its night file (beano-night/1). A W-2G's payee (legal name, "
        "address) and every taxpayer number are left out: personal data is shown only to a "
        "person who passed a second factor.",
    )
    def get(self, request: Request, org_id: int, occasion_id: int) -> Response:
        organization = access.organization(request, org_id)
        occasion = Occasion.objects.select_related("license").get(
            pk=occasion_id, organization=organization
        )
        return Response(writer.export(occasion, with_tins=False, with_payees=False))


class NightFileImport(ApiView):
    write_scopes = access.NIGHT_FILES
    parser_classes = [NightFileParser]

    @extend_schema(
        operation_id="night_file_import",
        parameters=[
            OpenApiParameter(
                "dry_run",
                bool,
                description="Judge every act and save nothing (the figures, or each refusal).",
            )
        ],
        request={"application/json": OpenApiTypes.OBJECT},
        responses={
            200: OpenApiResponse(NightJudgedSerializer, description="Dry run: every act accepted."),
            201: OpenApiResponse(NightJudgedSerializer, description="Recorded."),
            **failing(400, 401, 403, 404, 413, 422, 429),
        },
    )
    def post(self, request: Request, org_id: int) -> Response:
        query = DryRunSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        dry_run = query.validated_data["dry_run"]
        organization = access.organization(request, org_id)
        if not access.org_access(request, org_id).may_write(UPLOAD_PAGE):
            raise PermissionDenied("This token's person may not record a night file.")
        raw = request.data if isinstance(request.data, bytes) else b""  # no body: no file
        try:
            data = files.parse(raw)
        except NightFormatError as error:
            code = 413 if len(raw) > files.MAX_BYTES else status.HTTP_400_BAD_REQUEST
            if code == 413:
                return problems.problem(413, str(error))
            return problems.bad_input({"body": [str(error)]})
        with access.through(request):
            outcome = judge_for(
                organization=organization,
                data=data,
                by=request.user,
                file_name=f"{access.token_of(request).name} (API)",
                dry_run=dry_run,
            )
        return _answer(request, outcome)


def _answer(request: Request, outcome: NightOutcome) -> Response:
    if outcome.status == "unreadable":
        return problems.bad_input({"body": [outcome.message]})
    if outcome.status == "refused":
        refusals = [
            {
                "words": r.message,
                "citation": r.citation,
                "code": "",
                "sheet": r.sheet,
                "act": r.act,
                "at": r.at,
                "time": r.time,
            }
            for r in outcome.refusals
        ]
        sentence = " ".join(r.text or r.message for r in outcome.refusals)
        return problems.problem(
            422,
            sentence or "Refused.",
            sentence=sentence,
            codes=[],
            citations=sorted({r.citation for r in outcome.refusals if r.citation}),
            refusals=refusals,
        )
    occasion = outcome.occasion
    body = {
        "status": "accepted",
        "saved": outcome.saved,
        "license": outcome.license,
        "date": outcome.date.isoformat() if outcome.date else None,
        "figures": outcome.figures,
        "occasion": {
            "id": occasion.pk,
            "url": reverse(
                "api_occasion",
                kwargs={"org_id": occasion.organization_id, "occasion_id": occasion.pk},
            ),
        }
        if occasion is not None and outcome.saved
        else None,
    }
    return Response(body, status=201 if outcome.saved else 200)
