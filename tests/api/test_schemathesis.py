"""The API fuzzed from its own schema (issue 43): every operation the schema lists, with a token
of each scope, on the seeded demo. Schemathesis draws requests, valid and not, from the schema
(drf-spectacular's, served by the app at /api/v1/schema/), sends them to the app in this
process (WSGI) and checks each answer: never a server error, a status the operation declares,
the content type it declares, and a body that matches its schema.

The operations are discovered from the schema, so an operation added later is fuzzed without a
change here. Each request is sent twice: as drawn (its ids mostly point at nothing: 404, or at
another organization: 404 too), and with the path's ids replaced by the demo's own that the
token reaches (``_real_ids``), so the answers of real records are checked as well. Writes go to
the test database and are rolled back after each operation. Derandomized: the same requests on
each run."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.utils import timezone
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from api import tokens
from api.models import ApiToken
from beano.demo import api_tokens as demo
from beano.wsgi import application

schema = schemathesis.openapi.from_wsgi("/api/v1/schema/", application)
#: The schema's examples and the fuzzing (drawn, ``EXAMPLES`` of each): the coverage phase's
#: boundary values, unbounded by ``max_examples``, would take minutes over every operation.
schema.config.phases.update(phases=["examples", "fuzzing"])

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
#: The demo's token of each scope (a floor operation on balls: the ball reader's).
TOKENS = {
    ApiToken.Scope.READ: demo.PRACTICE_FLASHBOARD,
    ApiToken.Scope.FLOOR: demo.PRACTICE_DOOR,
    ApiToken.Scope.NIGHT_FILES: demo.PRACTICE_BOOKS,
    ApiToken.Scope.COMMISSION_READ: demo.COMMISSION_FEED,
}
#: Requests per operation and scope: the suite's ~60 to 90 seconds on two cores, all merged.
EXAMPLES = 12


@pytest.fixture
def in_the_tests_transaction(seeded_demo: None, db: None) -> Iterator[None]:
    """The app called through its WSGI handler, as a server would, but on the test's own
    connection: the handler's ``close_old_connections`` would close it mid-transaction (Django's
    test client unhooks it the same way). Each token may ask as often as the fuzzing needs."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    ApiToken.objects.update(rate_per_minute=tokens.MOST_RATE)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def _real_ids(scope: str) -> dict[str, int]:
    """The ids the token of ``scope`` reaches: the practice hall's night of today (its game 1
    in play), or for the Commission's, Post 171 and its filed report."""
    from occasions.models import Occasion
    from reports.models import FinancialReport

    if scope == ApiToken.Scope.COMMISSION_READ:
        report = (
            FinancialReport.objects.filter(organization__name=demo.POST_171).order_by("-pk").first()
        )
        occasion = Occasion.objects.filter(
            organization__name=demo.POST_171, status=Occasion.Status.CLOSED
        ).latest("date")
        ids = {"report_id": report.pk if report else 0}
    else:
        occasion = Occasion.objects.get(
            organization__name=demo.PRACTICE_HALL, date=timezone.localdate()
        )
        ids = {}
    game = occasion.games.order_by("number").first()
    return {
        **ids,
        "org_id": occasion.organization_id,
        "occasion_id": occasion.pk,
        "game_id": game.pk if game else 0,
    }


@pytest.mark.parametrize("scope", list(TOKENS))
@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_answers_as_its_schema_says(
    case: Any, scope: str, in_the_tests_transaction: None
) -> None:
    plain = TOKENS[scope]
    if scope == ApiToken.Scope.FLOOR and "/balls/" in case.path:
        plain = demo.PRACTICE_READER
    headers = {"Authorization": f"Bearer {plain}"}
    case.call_and_validate(headers=headers, checks=CHECKS)
    known = {k: v for k, v in _real_ids(scope).items() if k in (case.path_parameters or {})}
    if known:
        case.path_parameters = {**case.path_parameters, **known}
        case.call_and_validate(headers=headers, checks=CHECKS)


def test_the_schema_lists_the_operations_and_each_scope_has_a_demo_token(seeded_demo, db):
    """The fuzzing above covers what the schema lists (at least the organizations' list), with
    the demo's tokens, each of the scope it is used for."""
    operations = [op.ok().label for op in schema.get_all_operations()]
    assert "GET /api/v1/organizations/" in operations
    for scope, plain in TOKENS.items():
        assert tokens.recognise(plain).scope == scope
