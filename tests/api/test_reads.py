"""The reads of one organization through the API: its licenses, its occasions with their
figures, an occasion's price list and program, the night for flashboards and points of sale.
Each answers every token of the organization and the Commission's, 404 to another
organization's, 401 without a token; the night's ETag moves with the board and the door, and
every read costs the same queries however much the night holds."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from api.models import ApiToken
from games.models import BallCall
from occasions import services as occasion_services
from occasions.models import Occasion
from occasions.sales_services import record_sale
from organizations.access_matrix import API_ENDPOINTS, ORG_READERS
from tests.api.conftest import api_client, token_for
from tests.fixtures.games import GAME_BALLS, at_night

pytestmark = pytest.mark.django_db

READS = ("api_licenses", "api_occasions", "api_occasion", "api_night")
ORG_SCOPES = ("read", "floor", "night_files", "commission_read")


def token_of(scope: str, tenant: Any, commission_admin: Any) -> str:
    if scope == "commission_read":
        return token_for(scope, by=commission_admin)
    acts_as = {"floor": tenant.member_in_charge, "night_files": tenant.bookkeeper}.get(scope)
    return token_for(scope, by=tenant.head, organization=tenant.organization, acts_as=acts_as)


def url_of(name: str, occasion: Any) -> str:
    kwargs = {"org_id": occasion.organization_id}
    if name in ("api_occasion", "api_night"):
        kwargs["occasion_id"] = occasion.pk
    return reverse(name, kwargs=kwargs)


def test_the_reads_are_in_the_access_matrix_as_their_views_say():
    from django.urls import resolve

    for name in READS:
        assert API_ENDPOINTS[name].read == ORG_READERS
        view = resolve(reverse(name, kwargs=_kwargs(name, 1, 1))).func.view_class
        assert set(view.read_scopes) == set(ORG_READERS)
        assert not view.write_scopes


def _kwargs(name: str, org_id: int, occasion_id: int) -> dict[str, int]:
    if name in ("api_occasion", "api_night"):
        return {"org_id": org_id, "occasion_id": occasion_id}
    return {"org_id": org_id}


@pytest.mark.parametrize("scope", ORG_SCOPES)
@pytest.mark.parametrize("name", READS)
def test_each_read_answers_each_scope_of_the_organization(
    name, scope, tenant, commission_admin, open_occasion
):
    answer = api_client(token_of(scope, tenant, commission_admin)).get(url_of(name, open_occasion))
    assert answer.status_code == 200, answer.content
    assert answer["Content-Type"] == "application/json"


@pytest.mark.parametrize("name", READS)
def test_another_organizations_token_gets_404_and_no_token_401(
    name, open_occasion, other_read_token
):
    url = url_of(name, open_occasion)
    answer = api_client(other_read_token).get(url)
    assert answer.status_code == 404
    assert answer["Content-Type"] == "application/problem+json"
    assert str(open_occasion.organization.name) not in answer.content.decode()
    assert api_client(None).get(url).status_code == 401
    assert api_client(None).get(url)["Content-Type"] == "application/problem+json"


@pytest.mark.parametrize("name", ("api_occasion", "api_night"))
def test_another_organizations_occasion_is_404_to_this_organizations_token(
    name, tenant, other_tenant, read_token, commission_token
):
    theirs = occasion_services.occasion_for_day(
        organization=other_tenant.organization,
        day=dt.date(2026, 12, 4),
        by=other_tenant.member_in_charge,
    )
    url = reverse(name, kwargs={"org_id": tenant.organization.pk, "occasion_id": theirs.pk})
    assert api_client(read_token).get(url).status_code == 404
    # The Commission reads it under its own organization, never under another's.
    assert api_client(commission_token).get(url).status_code == 404
    assert api_client(commission_token).get(url_of(name, theirs)).status_code == 200


def test_licenses(tenant, read_token):
    answer = api_client(read_token).get(url_of("api_licenses", _org(tenant)))
    body = answer.json()
    license = tenant.organization.licenses.get()
    assert body["count"] == 1
    assert body["results"] == [
        {
            "id": license.pk,
            "number": license.number,
            "valid_from": "2020-10-01",
            "valid_to": "2030-09-30",
            "status": "active",
            "premises_name": license.premises_name,
            "premises_address": "1 Main Street",
            "authorized_weekdays": [4],
            "start_time": None,
            "end_time": None,
            "local_licensing_authority": "Select Board",
            "practice": False,
        }
    ]


class _org:
    """What ``url_of`` needs of an occasion for an organization's list: its organization."""

    def __init__(self, tenant: Any) -> None:
        self.organization_id = tenant.organization.pk


def _fridays(tenant: Any, count: int, start: dt.date = dt.date(2026, 10, 2)) -> list[Occasion]:
    return [
        occasion_services.occasion_for_day(
            organization=tenant.organization,
            day=start + dt.timedelta(days=7 * i),
            by=tenant.member_in_charge,
        )
        for i in range(count)
    ]


def test_occasions_filtered_by_day_and_status(tenant, read_token):
    first, second, third = _fridays(tenant, 3)
    Occasion.objects.filter(pk=first.pk).update(
        status=Occasion.Status.NOT_PLAYED, not_played_reason="Snow"
    )
    url = url_of("api_occasions", _org(tenant))
    client = api_client(read_token)
    assert [o["id"] for o in client.get(url).json()["results"]] == [third.pk, second.pk, first.pk]
    later = client.get(url, {"from": second.date.isoformat()}).json()["results"]
    assert [o["id"] for o in later] == [third.pk, second.pk]
    until = client.get(url, {"to": second.date.isoformat(), "status": "scheduled"}).json()
    assert [o["id"] for o in until["results"]] == [second.pk]
    page = client.get(url, {"limit": 1, "offset": 1}).json()
    assert page["count"] == 3 and [o["id"] for o in page["results"]] == [second.pk]
    row = until["results"][0]
    assert row["license"]["number"] == tenant.organization.licenses.get().number
    assert row["totals"] == {
        "admissions": 0,
        "gross_receipts": "0.00",
        "prizes": "0.00",
        "games_played": 0,
        "attendance": None,
        "net_proceeds": None,
    }


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"from": "notadate"}, "from"),
        ({"to": "2026-13-01"}, "to"),
        ({"status": "sleeping"}, "status"),
        ({"from": "2026-12-04", "to": "2026-12-01"}, "to"),
    ],
)
def test_bad_filters_are_400_naming_the_parameter(tenant, read_token, query, field):
    answer = api_client(read_token).get(url_of("api_occasions", _org(tenant)), query)
    assert answer.status_code == 400
    assert answer["Content-Type"] == "application/problem+json"
    assert list(answer.json()["errors"]) == [field]
    assert field in answer.json()["detail"]


def test_an_occasion_has_its_price_list_and_program(tenant, read_token, game_in_play, sale):
    occasion = game_in_play.occasion
    body = api_client(read_token).get(url_of("api_occasion", occasion)).json()
    assert body["status"] == "open" and body["figures"] is None
    items = {i["category"]: i for i in body["price_list"]}
    admission = occasion.price_items.get(category="admission")
    assert items["admission"] == {
        "id": admission.pk,
        "category": "admission",
        "category_label": "Admission",
        "label": "Admission (3-on regular card)",
        "price": "2.00",
        "package_contents": "",
        "max_quantity": 99,
    }
    (game,) = body["games"]
    assert game["number"] == 3 and game["status"] == "in_play"
    assert game["balls_called"] == len(GAME_BALLS)
    (prize,) = game["prizes"]
    assert prize["amount"] == "75.00" and prize["pattern"]["code"] == "four_corners"
    assert prize["pattern"]["picture"][0] == ["on", "off", "off", "off", "on"]
    assert prize["pattern"]["picture"][2][2] == "free"
    # The door's counts as the occasion page shows them: the sale's admission and two cards.
    assert body["door"]["receipts"] == 1 and body["door"]["total"] == "4.00"
    assert body["door"]["admissions"] == 1
    assert body["totals"]["gross_receipts"] == "4.00"


def test_a_closed_occasions_figures_as_the_report_computes_them(
    report_clock, known_occasion, read_token
):
    from reports.figures import compute_figures
    from tests.reports.conftest import KNOWN

    body = api_client(read_token).get(url_of("api_occasion", known_occasion)).json()
    figures = body["figures"]
    computed = compute_figures(known_occasion)
    assert figures["source"] == "computed" and figures["report_version"] is None
    assert figures["door_total"] == str(KNOWN["door_total"])
    assert figures["gross_receipts"] == str(KNOWN["gross"])
    assert figures["beano_tax"] == str(KNOWN["tax"])
    assert figures["prizes_total"] == str(KNOWN["prizes_total"])
    assert figures["net_proceeds"] == f"{computed['net']['net_proceeds']:.2f}"


def test_a_filed_occasions_figures_as_filed(report_clock, filed_report, read_token):
    body = api_client(read_token).get(url_of("api_occasion", filed_report.occasion)).json()
    figures = body["figures"]
    assert figures["source"] == "filed" and figures["report_version"] == 1
    assert figures["figures_sha256"] == filed_report.figures_sha256
    assert figures["net_proceeds"] == filed_report.figures["net"]["net_proceeds"]
    assert body["totals"]["net_proceeds"] == figures["net_proceeds"]


def test_the_night_for_a_flashboard(game_in_play, read_token):
    BallCall.objects.filter(game=game_in_play, sequence=2).update(
        voided_at=at_night(game_in_play.occasion, 18, 52)
    )
    body = api_client(read_token).get(url_of("api_night", game_in_play.occasion)).json()
    assert body["game"]["id"] == game_in_play.pk and body["game"]["status"] == "in_play"
    assert body["game"]["prizes"][0]["pattern"]["code"] == "four_corners"
    called = [n for n in GAME_BALLS if n != GAME_BALLS[1]]  # the voided entry left out
    assert [b["number"] for b in body["balls"]] == called
    assert body["last_ball"] == body["balls"][-1]
    assert body["last_ball"]["label"] == "G47"
    assert body["door"]["receipts"] == 0 and body["door"]["attendance"] is None


def test_the_nights_etag_moves_with_the_board_and_the_door(tenant, game_in_play, read_token):
    from games.draw_services import record_ball_call

    client, url = api_client(read_token), url_of("api_night", game_in_play.occasion)
    first = client.get(url)
    tag = first["ETag"]
    assert tag and first.status_code == 200
    unchanged = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert unchanged.status_code == 304 and unchanged["ETag"] == tag and not unchanged.content
    record_ball_call(game=game_in_play, number=70, by=tenant.member_in_charge)
    moved = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert moved.status_code == 200 and moved.json()["last_ball"]["label"] == "O70"
    tag = moved["ETag"]
    items = {i.category: i for i in game_in_play.occasion.price_items.all()}
    record_sale(
        occasion=game_in_play.occasion,
        lines=[(items["admission"], 1)],
        admission_receipt=None,
        by=tenant.worker,
    )
    sold = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert sold.status_code == 200 and sold.json()["door"]["admissions"] == 1
    assert client.get(url, HTTP_IF_NONE_MATCH=sold["ETag"]).status_code == 304


def test_the_nights_etag_without_a_cache_is_the_answers(settings, game_in_play, read_token):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    client, url = api_client(read_token), url_of("api_night", game_in_play.occasion)
    tag = client.get(url)["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    BallCall.objects.create(
        game=game_in_play, sequence=7, number=70, called_at=at_night(game_in_play.occasion, 19, 0)
    )
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 200


def _queries(client: Any, url: str, **headers: Any) -> int:
    """The queries of a request after one like it (a token's first use of the day is written,
    the posted price list kept: neither grows with the night)."""
    client.get(url, **headers)
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(url, **headers)
    assert answer.status_code in (200, 304), answer.content
    return len(queries)


def _more_of_the_night(tenant: Any, game: Any, balls: int, sales: int) -> None:
    occasion = game.occasion
    items = {i.category: i for i in occasion.price_items.all()}
    start = BallCall.objects.filter(game=game).count()
    for i in range(balls):
        BallCall.objects.create(
            game=game,
            sequence=start + i + 1,
            number=[n for n in range(1, 76) if n not in GAME_BALLS][i],
            called_at=at_night(occasion, 19, 1 + i),
        )
    for _ in range(sales):
        record_sale(
            occasion=occasion,
            lines=[(items["admission"], 1), (items["bonus"], 2)],
            admission_receipt=None,
            by=tenant.worker,
        )


def _cold(client: Any, url: str, occasion_id: int) -> int:
    """The queries of the night read again: the board and the door both moved."""
    from occasions import live

    live.changed(occasion_id)
    live.changed(occasion_id, live.DOOR)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_night_costs_the_same_queries_however_much_it_holds(tenant, game_in_play, read_token):
    client, url = api_client(read_token), url_of("api_night", game_in_play.occasion)
    small, small_cold = _queries(client, url), _cold(client, url, game_in_play.occasion_id)
    _more_of_the_night(tenant, game_in_play, balls=20, sales=5)
    large_cold, large = _cold(client, url, game_in_play.occasion_id), _queries(client, url)
    assert (small, small_cold) == (large, large_cold)
    assert large < large_cold  # the board and the door read from the cache while they stand
    # Unchanged, its 304 reads nothing of the night: the token and the occasion only.
    unchanged = _queries(client, url, HTTP_IF_NONE_MATCH=client.get(url)["ETag"])
    assert unchanged < large


def test_the_lists_and_an_occasion_cost_the_same_queries_at_two_sizes(
    tenant, game_in_play, read_token
):
    client = api_client(read_token)
    occasion = game_in_play.occasion
    urls = [url_of(n, occasion) for n in ("api_licenses", "api_occasions", "api_occasion")]
    small = [_queries(client, u) for u in urls]
    _fridays(tenant, 4)
    from games.models import Arrangement, Game, PrizePart

    for number in (4, 5):
        game = Game.objects.create(occasion=occasion, number=number, half=2, kind="regular")
        for order in (1, 2):
            PrizePart.objects.create(
                game=game,
                order=order,
                arrangement=Arrangement.objects.get(code="four_corners"),
                amount=Decimal("10.00"),
            )
    _more_of_the_night(tenant, game_in_play, balls=10, sales=3)
    from tests.builders import LicenseFactory

    LicenseFactory(
        organization=tenant.organization,
        number="BN-SECOND",
        valid_from=dt.date(2010, 1, 1),
        valid_to=dt.date(2019, 12, 31),
    )
    large = [_queries(client, u) for u in urls]
    assert small == large


def test_a_token_of_another_scope_is_403(tenant, commission_admin, open_occasion, monkeypatch):
    from api import reads_views

    # Every scope reads; a view's scopes narrowed to none show the permission in force.
    monkeypatch.setattr(reads_views.Night, "read_scopes", frozenset({ApiToken.Scope.FLOOR}))
    answer = api_client(token_of("read", tenant, commission_admin)).get(
        url_of("api_night", open_occasion)
    )
    assert answer.status_code == 403
    assert answer["Content-Type"] == "application/problem+json"


def test_the_schema_is_valid_openapi_3_1_with_the_reads(client):
    from drf_spectacular.validation import validate_schema

    schema = json.loads(client.get(reverse("api_schema"), HTTP_ACCEPT="application/json").content)
    assert schema["openapi"].startswith("3.1")
    validate_schema(schema)
    operations = {
        op["operationId"]: op for path in schema["paths"].values() for op in path.values()
    }
    for name in (*READS, "api_organizations"):
        problem = operations[name]["responses"]["404"]["content"]["application/problem+json"]
        assert problem["schema"]["$ref"] == "#/components/schemas/Problem"
    assert "304" in operations["api_night"]["responses"]
    detail = schema["components"]["schemas"]["OccasionDetail"]["properties"]["figures"]
    assert "null" in json.dumps(detail)


def _validator(schema: dict[str, Any], operation_id: str, status: str) -> Any:
    """A JSON Schema (2020-12, as OpenAPI 3.1's) validator of ``operation_id``'s answer
    ``status``, as the schema says, its references resolved in the schema's components."""
    import jsonschema

    operation = next(
        op
        for path in schema["paths"].values()
        for op in path.values()
        if op["operationId"] == operation_id
    )
    (content,) = operation["responses"][status]["content"].values()
    document = {**content["schema"], "components": schema["components"]}
    return jsonschema.Draft202012Validator(document)


@pytest.mark.parametrize("night", ["open", "filed"])
def test_every_answer_matches_the_schema(request, client, night, read_token, other_read_token):
    if night == "open":
        request.getfixturevalue("sale")
        occasion = request.getfixturevalue("game_in_play").occasion
    else:
        occasion = request.getfixturevalue("filed_report").occasion
    schema = json.loads(client.get(reverse("api_schema"), HTTP_ACCEPT="application/json").content)
    reader = api_client(read_token)
    for name in READS:
        answer = reader.get(url_of(name, occasion))
        assert answer.status_code == 200
        _validator(schema, name, "200").validate(answer.json())
        missing = api_client(other_read_token).get(url_of(name, occasion))
        _validator(schema, name, "404").validate(missing.json())
    bad = reader.get(url_of("api_occasions", occasion), {"from": "x", "status": "y"})
    _validator(schema, "api_occasions", "400").validate(bad.json())


def test_an_id_beyond_any_row_is_404_not_an_error(tenant, read_token, commission_token):
    huge = 2**70
    mine = reverse("api_night", kwargs={"org_id": tenant.organization.pk, "occasion_id": huge})
    assert api_client(read_token).get(mine).status_code == 404
    theirs = reverse("api_occasions", kwargs={"org_id": huge})
    assert api_client(commission_token).get(theirs).status_code == 404
