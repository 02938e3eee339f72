"""What the schema says of every failure: a problem (RFC 9457, ``api.problems``), served as
``application/problem+json``, the same body for each status. Every operation adds
``PROBLEM_RESPONSES`` to its own answers, so the schema names each way it can fail and a client
(or schemathesis) can hold every answer to it."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

from api.problems import CONTENT_TYPE


class RefusalSerializer(serializers.Serializer):
    """One refusal of the rules: its plain words, its citation and the rule's code."""

    words = serializers.CharField(allow_blank=True)
    citation = serializers.CharField(allow_blank=True)
    code = serializers.CharField(allow_blank=True)
    sheet = serializers.CharField(
        allow_blank=True, required=False, help_text="A night file's refusal: the sheet."
    )
    act = serializers.CharField(allow_blank=True, required=False)
    at = serializers.CharField(
        allow_null=True, required=False, help_text="The act's time as the night file writes it."
    )
    time = serializers.CharField(allow_blank=True, required=False)


class ProblemSerializer(serializers.Serializer):
    """A problem: what happened, in a sentence (``detail``). Bad input (400) names each field at
    fault (``errors``); a refusal (422) carries the rules' codes, citations, each refusal and
    the sentence the pages show."""

    type = serializers.CharField()
    title = serializers.CharField()
    status = serializers.IntegerField()
    detail = serializers.CharField(allow_blank=True)
    errors = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()), required=False
    )
    sentence = serializers.CharField(required=False)
    codes = serializers.ListField(child=serializers.CharField(), required=False)
    citations = serializers.ListField(child=serializers.CharField(), required=False)
    refusals = RefusalSerializer(many=True, required=False)


_SAID = {
    400: "Bad input: each field at fault is named in `errors`.",
    401: "No token, or a token not known, revoked, or whose maker no longer holds the office.",
    403: "This token's scope does not include this operation.",
    404: "Nothing of this token's reach is at this address (another organization's is not).",
    413: "The body is larger than the operation takes (a night file: 2 MB); it was not read.",
    422: "Refused by the rules: each refusal with its citation and code; nothing was saved.",
    429: "Too many requests for this token's rate: wait as long as `Retry-After` says.",
}

#: Every failure an operation may answer, as a problem: ``{**PROBLEM_RESPONSES, 200: ...}``.
#: Keyed by (status, media type) so the schema says ``application/problem+json``.
PROBLEM_RESPONSES: dict[int | tuple[int, str], OpenApiResponse] = {
    (code, CONTENT_TYPE): OpenApiResponse(response=ProblemSerializer, description=said)
    for code, said in _SAID.items()
}


def problems(*codes: int) -> dict[int | tuple[int, str], OpenApiResponse]:
    """Only these failures (e.g. a read refuses nothing: no 422)."""
    return {(code, CONTENT_TYPE): PROBLEM_RESPONSES[(code, CONTENT_TYPE)] for code in codes}


#: The failures of a read: it never refuses (no 422).
READ_PROBLEMS = problems(400, 401, 403, 404, 429)


class BearerTokenScheme(OpenApiAuthenticationExtension):
    """The schema's name for ``api.authentication.TokenAuthentication``: a bearer token."""

    target_class = "api.authentication.TokenAuthentication"
    name = "token"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "http", "scheme": "bearer", "bearerFormat": "beano_<id>_<secret>"}
