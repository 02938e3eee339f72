"""The floor's writes through the API: a door sale from a point of sale, a ball call from a ball
reader. Each goes through the live page's own form and service (``occasions.door_acts``,
``games.draw_acts``): the JSON is put in the form's boxes as the page names them, the form reads
them, the service and the rules judge before anything is saved, and the audit names the token.
The token's worker may do here only what the live page lets them do (the access matrix).

The ``Idempotency-Key`` header is the submission's key (``occasions.submissions``): the same key
from the same token records once and answers the first record again (``replayed``); another
token's key is another act."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS
from django.db.models import prefetch_related_objects
from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer

from api import access, problems
from api.base import ApiView
from api.floor_serializers import BallIn, BallOut, SaleIn, SaleOut
from api.schema import PROBLEM_RESPONSES
from beano.rules.cards import ball_label
from games import draw_acts
from games.draw_forms import BallForm
from games.models import BallCall, Game
from occasions import door_acts
from occasions.models import Occasion, Sale
from organizations.models import Organization

HEADER = "Idempotency-Key"
#: The largest id a row can have (a 64-bit integer): an address with a larger one names nothing,
#: and the database is not asked (it would refuse the number itself).
LARGEST_ID = 2**63 - 1
KEY_MAX = 200
#: The namespace of the keys made from a token's Idempotency-Key (never change it: a key sent
#: again after a change would be recorded again).
KEY_NAMESPACE = uuid.UUID("5e0b7a52-4c1d-4f0e-9a43-0b1d2c3e4f43")

IDEMPOTENCY = OpenApiParameter(
    HEADER,
    type={"type": "string", "minLength": 1, "maxLength": KEY_MAX},
    location=OpenApiParameter.HEADER,
    required=True,
    description=(
        "One key for one act, made by the device (a UUID will do): the same key sent again "
        "records nothing new and answers the first record. At most 200 characters."
    ),
)
ORG = OpenApiParameter("org_id", OpenApiTypes.INT, OpenApiParameter.PATH)
OCCASION = OpenApiParameter("occasion_id", OpenApiTypes.INT, OpenApiParameter.PATH)
GAME = OpenApiParameter("game_id", OpenApiTypes.INT, OpenApiParameter.PATH)


def _problems(refused: str) -> dict[Any, OpenApiResponse]:
    """The failures of a floor write, as problems (``api.schema``), the refusal said its way."""
    said = dict(PROBLEM_RESPONSES)
    key = (422, problems.CONTENT_TYPE)
    said[key] = OpenApiResponse(response=said[key].response, description=refused)
    return said


def request_key(request: Request) -> uuid.UUID:
    """The submission key of this token's ``Idempotency-Key`` (400 that says why not)."""
    sent = request.headers.get(HEADER, "").strip()
    if not sent or len(sent) > KEY_MAX:
        said = "Required" if not sent else f"At most {KEY_MAX} characters"
        raise problems.Answered(
            problems.bad_input(
                {HEADER: [f"{said}: one key for each act, the same key when it is sent again."]}
            )
        )
    return uuid.uuid5(KEY_NAMESPACE, f"{access.token_of(request).public_id}:{sent}")


def field_names(errors: Any, prefix: str = "") -> dict[str, list[str]]:
    """A serializer's errors by the JSON path of each field at fault: ``lines[1].quantity``."""
    if isinstance(errors, Mapping):
        named: dict[str, list[str]] = {}
        for key, value in errors.items():
            if isinstance(key, int):  # a list's item (DRF keys a list's errors by index)
                name = f"{prefix}[{key}]"
            else:
                name = f"{prefix}.{key}" if prefix else str(key)
            if key == "non_field_errors" and prefix:
                name = prefix
            for field, messages in field_names(value, name).items():
                named.setdefault(field, []).extend(messages)
        return named
    if isinstance(errors, list) and any(isinstance(e, Mapping | list) for e in errors):
        named = {}
        for i, value in enumerate(errors):
            for field, messages in field_names(value, f"{prefix}[{i}]").items():
                named.setdefault(field, []).extend(messages)
        return named
    messages = errors if isinstance(errors, list) else [errors]
    return {prefix or "non_field_errors": [str(m) for m in messages]} if messages else {}


def read(serializer: Serializer) -> dict[str, Any]:
    """The body as ``serializer`` reads it (400 naming each field at fault by its JSON path)."""
    if not serializer.is_valid():
        raise problems.Answered(problems.bad_input(field_names(serializer.errors)))
    return serializer.validated_data


def refuse_writer(request: Request, page: str, *ids: int) -> Organization:
    """The organization (404 outside the token's reach, or for an id no row can have; 403 when
    the token's worker may not write through the live page ``page``)."""
    if any(i > LARGEST_ID for i in ids):
        raise Http404
    org_id = ids[0]
    held = access.org_access(request, org_id)
    if not held.may_write(page):
        raise problems.Answered(
            problems.problem(
                status.HTTP_403_FORBIDDEN,
                "The worker this token acts as may not do this on the live page.",
            )
        )
    return held.organization


def replayed(record: Sale | BallCall) -> bool:
    """Whether the service answered with the record of the key's first submission rather than
    a record of this request. Read from the record, not asked of the database: a record made
    now carries what the services add to it (a sale its lines, kept as a prefetch; a ball call
    the board's delta, ``live_count``); the first one's record is read again bare
    (``occasions.submissions.answered_once``). So it costs no query, and it is true also for
    the second of two requests sent at once with one key, which a lookup before the service
    could not tell (neither would find the key)."""
    if isinstance(record, Sale):
        return not hasattr(record, "_prefetched_objects_cache")
    return not hasattr(record, "live_count")


class Sales(ApiView):
    write_scopes = access.FLOOR

    @extend_schema(
        operation_id="record_sale",
        tags=["floor"],
        summary="Record a door sale",
        parameters=[ORG, OCCASION, IDEMPOTENCY],
        request=SaleIn,
        responses={
            201: SaleOut,
            **_problems("Refused by the rules: each refusal's code and citation; nothing saved."),
        },
    )
    def post(self, request: Request, org_id: int, occasion_id: int) -> Response:
        """A sale at the door, judged as the door's page judges it."""
        organization = refuse_writer(request, "sale_record", org_id, occasion_id)
        key = request_key(request)
        body = read(SaleIn(data=request.data))
        lines = body["lines"]
        where = {f"qty_{line['item']}": f"lines[{i}].quantity" for i, line in enumerate(lines)}
        data = {box: str(line["quantity"]) for box, line in zip(where, lines, strict=True)}
        receipt = body.get("admission_receipt")
        data["admission_receipt"] = "" if receipt is None else str(receipt)
        form = door_acts.sale_form(organization, occasion_id, data)
        posted = {item.pk for item in form.items}
        if (
            not posted
            and not Occasion.objects.filter(pk=occasion_id, organization=organization).exists()
        ):
            raise Http404
        wrong = {
            f"lines[{i}].item": [
                f"Item {line['item']} is not on this occasion's posted price list."
                if posted
                else "No price list is posted for this occasion."
            ]
            for i, line in enumerate(lines)
            if line["item"] not in posted
        }
        if wrong:
            return problems.bad_input(wrong)
        if not form.is_valid():
            return problems.bad_input(
                {
                    where.get(name, "non_field_errors" if name == NON_FIELD_ERRORS else name): list(
                        messages
                    )
                    for name, messages in form.errors.items()
                }
            )
        with access.through(request):
            try:
                sale = door_acts.record_sale_of(
                    form,
                    organization=organization,
                    occasion_id=occasion_id,
                    by=request.user,
                    request_key=key,
                )
            except Occasion.DoesNotExist:
                raise Http404 from None
        return Response(self.answer(sale, replayed(sale)), status=status.HTTP_201_CREATED)

    @staticmethod
    def answer(sale: Sale, again: bool) -> dict[str, Any]:
        if again:  # the first record, read again bare
            prefetch_related_objects([sale], "lines")
        return SaleOut(
            {
                "number": sale.number,
                "total": sale.total,
                "lines": list(sale.lines.all()),
                "said": door_acts.sale_words(sale),
                "replayed": again,
            }
        ).data


class Balls(ApiView):
    write_scopes = access.FLOOR

    @extend_schema(
        operation_id="call_ball",
        tags=["floor"],
        summary="Call a ball",
        parameters=[ORG, OCCASION, GAME, IDEMPOTENCY],
        request=BallIn,
        responses={
            201: BallOut,
            **_problems(
                "Refused by the rules (a ball already called, a game not in play…): each "
                "refusal's code and citation; nothing saved."
            ),
        },
    )
    def post(self, request: Request, org_id: int, occasion_id: int, game_id: int) -> Response:
        """A ball called in the game, judged as the caller's console judges it."""
        organization = refuse_writer(request, "draw_call", org_id, occasion_id, game_id)
        key = request_key(request)
        body = read(BallIn(data=request.data))
        form = BallForm({"ball": str(body["ball"])})
        if not form.is_valid():
            return problems.bad_input(dict(form.errors))
        with access.through(request):
            try:
                call = draw_acts.call_ball(
                    form,
                    organization=organization,
                    occasion_id=occasion_id,
                    game_id=game_id,
                    by=request.user,
                    request_key=key,
                )
            except Game.DoesNotExist:
                raise Http404 from None
        answer = {
            "number": call.number,
            "label": ball_label(call.number),
            "sequence": call.sequence,
            "said": draw_acts.called_words(call),
            "replayed": replayed(call),
        }
        return Response(BallOut(answer).data, status=status.HTTP_201_CREATED)
