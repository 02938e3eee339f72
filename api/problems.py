"""Every answer that is not a success is ``application/problem+json`` (RFC 9457): a rule's
refusal is 422 with the rule's code, its citation and the sentence the pages show (words first,
then the citation, as ``beano.refusals.plain_first`` cuts it); bad input is 400 naming each
field at fault; 401, 403, 404, 405, 406, 415 and 429 say what happened in a sentence."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ObjectDoesNotExist, PermissionDenied, ValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_handler

from beano import rules
from beano.refusals import plain_first

CONTENT_TYPE = "application/problem+json"
#: The problem types, as URIs under the API's documentation (docs/API.md, "Problems").
TYPES = {
    400: ("bad-input", "The request is not as the API takes it"),
    401: ("unauthenticated", "A valid token is needed"),
    403: ("forbidden", "This token may not do this"),
    404: ("not-found", "Not found"),
    405: ("method-not-allowed", "Method not allowed"),
    406: ("not-acceptable", "Not acceptable"),
    409: ("conflict", "Conflict"),
    413: ("too-large", "Too large"),
    415: ("unsupported-media-type", "Unsupported media type"),
    422: ("refused", "Refused by the rules"),
    429: ("too-many-requests", "Too many requests"),
}


def problem(
    status_code: int, detail: str, *, headers: Mapping[str, str] | None = None, **extra: Any
) -> Response:
    kind, title = TYPES.get(status_code, ("error", "Error"))
    body = {
        "type": f"/api/v1/docs/problems/#{kind}",
        "title": title,
        "status": status_code,
        "detail": detail,
        **extra,
    }
    return Response(body, status=status_code, headers=headers, content_type=CONTENT_TYPE)


def refusal_body(error: ValidationError) -> dict[str, Any]:
    """A service's refusal: its sentence, and each refusal's words, citation and rule code."""
    cause = error if isinstance(error, rules.RuleViolation) else error.__cause__
    violations = list(cause.violations) if isinstance(cause, rules.RuleViolation) else []
    if hasattr(error, "error_dict"):
        messages = [str(m) for errors in error.message_dict.values() for m in errors]
    else:
        messages = [str(m) for m in error.messages]
    sentence = " ".join(messages) or "Refused."
    codes = {v.citation: v.code for v in violations}
    refusals = [
        {"words": part.words, "citation": part.citation, "code": codes.get(part.citation, "")}
        for part in plain_first(sentence)
    ]
    return {
        "detail": " ".join(
            f"{p['words']} ({p['citation']})" if p["citation"] else p["words"] for p in refusals
        ),
        "sentence": sentence,
        "codes": sorted({v.code for v in violations}),
        "citations": sorted({v.citation for v in violations}),
        "refusals": refusals,
    }


def refused(error: ValidationError) -> Response:
    """422 for a refusal of the rules or the service (nothing was saved)."""
    body = refusal_body(error)
    return problem(status.HTTP_422_UNPROCESSABLE_ENTITY, body.pop("detail"), **body)


def bad_input(errors: Mapping[str, Any]) -> Response:
    """400 naming each field at fault."""
    fields = {name: [str(m) for m in _flat(msgs)] for name, msgs in errors.items()}
    said = "; ".join(f"{name}: {' '.join(msgs)}" for name, msgs in fields.items())
    return problem(status.HTTP_400_BAD_REQUEST, said or "Bad input.", errors=fields)


def _flat(messages: Any) -> list[Any]:
    if isinstance(messages, Mapping):
        return [f"{k}: {m}" for k, v in messages.items() for m in _flat(v)]
    if isinstance(messages, list | tuple):
        return [m for item in messages for m in _flat(item)]
    return [messages]


class Answered(Exception):
    """Raised with the problem a view has already made (``bad_input``, ``problem``), so that a
    helper deep in the view can end the request with it."""

    def __init__(self, response: Response) -> None:
        super().__init__(response.data)
        self.response = response


def handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's exception handler, answering problems."""
    if isinstance(exc, Answered):
        return exc.response
    if isinstance(exc, rules.RuleViolation) or (
        isinstance(exc, ValidationError) and not isinstance(exc, exceptions.ValidationError)
    ):
        return refused(exc)
    if isinstance(exc, exceptions.ValidationError):
        detail = exc.detail if isinstance(exc.detail, Mapping) else {"non_field_errors": exc.detail}
        return bad_input(detail)
    if isinstance(exc, Http404 | ObjectDoesNotExist):
        exc = exceptions.NotFound("Nothing of this token's reach is at this address.")
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or "This token may not do this.")
    response = drf_handler(exc, context)
    if response is None:
        return None
    detail = response.data.get("detail", "") if isinstance(response.data, dict) else ""
    headers = {
        k: v
        for k, v in response.headers.items()
        if k in ("Retry-After", "WWW-Authenticate", "Allow")
    }
    return problem(response.status_code, str(detail), headers=headers)
