"""The floor's writes through the API: a door sale and a ball call go through the live page's form
and service, judged by the rules before anything is saved (a refusal: 422 with the rule's code
and citation), recorded once per Idempotency-Key, audited under the token, held to what the
token's worker may do on the live page; bad input is 400 naming the field, never 500."""

from __future__ import annotations

import json
import uuid

import pytest
from django.urls import reverse

from api.floor_views import KEY_MAX, KEY_NAMESPACE
from api.models import ApiToken
from games.models import BallCall
from occasions.models import FloorSubmission, Occasion, Sale
from organizations import access_matrix
from organizations.models import AuditEvent
from tests.api.conftest import api_client, token_for
from tests.fixtures.floor import off_the_floor

pytestmark = pytest.mark.django_db

WORKER_OF_THE_NIGHT = ("W-1B-WORKER-OF-THE-NIGHT", "961 CMR 3.04(1)(b)")


def sale_url(occasion, org_id=None):
    org = org_id or occasion.organization_id
    return reverse("api_sales", kwargs={"org_id": org, "occasion_id": occasion.pk})


def ball_url(game, org_id=None, occasion_id=None):
    kwargs = {
        "org_id": org_id or game.occasion.organization_id,
        "occasion_id": occasion_id or game.occasion_id,
        "game_id": game.pk,
    }
    return reverse("api_balls", kwargs=kwargs)


def post(plain, url, body, key="key-1", **headers):
    if key is not None:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    raw = body if isinstance(body, str | bytes) else json.dumps(body)
    return api_client(plain).post(url, raw, content_type="application/json", **headers)


def items(occasion):
    return {i.category: i.pk for i in occasion.price_items.all()}


def sale_body(occasion, **quantities):
    posted = items(occasion)
    wanted = quantities or {"admission": 1, "extra_regular": 2}
    return {"lines": [{"item": posted[c], "quantity": n} for c, n in wanted.items()]}


def saved():
    return (
        Sale.objects.count(),
        BallCall.objects.count(),
        FloorSubmission.objects.count(),
        AuditEvent.objects.exclude(action__startswith="api_token").count(),
    )


def assert_refused(answer, code, citation):
    assert answer.status_code == 422, answer.content
    assert answer["Content-Type"] == "application/problem+json"
    body = answer.json()
    assert code in body["codes"] and citation in body["citations"]
    assert any(r["code"] == code and r["citation"] == citation for r in body["refusals"])
    return body


# A door sale


def test_a_sale_is_recorded_by_the_door_service_and_audited_under_the_token(
    tenant, open_occasion, floor_token
):
    answer = post(floor_token, sale_url(open_occasion), sale_body(open_occasion))
    assert answer.status_code == 201, answer.content
    body = answer.json()
    posted = items(open_occasion)
    assert body == {
        "number": 1,
        "total": "4.00",
        "lines": [
            {
                "item": posted["admission"],
                "category": "admission",
                "quantity": 1,
                "unit_price": "2.00",
                "amount": "2.00",
            },
            {
                "item": posted["extra_regular"],
                "category": "extra_regular",
                "quantity": 2,
                "unit_price": "1.00",
                "amount": "2.00",
            },
        ],
        "said": "Receipt 1 recorded — $4.00: 1 × Admission, 2 × Extra regular card.",
        "replayed": False,
    }
    sale = Sale.objects.get()
    assert sale.sold_by == tenant.member_in_charge
    event = AuditEvent.objects.get(action="occasions.sale.recorded")
    token = ApiToken.objects.get(acts_as=tenant.member_in_charge)
    assert event.provenance["source"] == "api"
    assert event.provenance["client_id"] == token.public_id
    assert event.provenance["made_by"] == tenant.head.get_username()


def test_extras_against_an_admission_receipt(open_occasion, floor_token):
    post(floor_token, sale_url(open_occasion), sale_body(open_occasion, admission=1))
    body = {**sale_body(open_occasion, bonus=3), "admission_receipt": 1}
    answer = post(floor_token, sale_url(open_occasion), body, key="key-2")
    assert answer.status_code == 201, answer.content
    assert (answer.json()["number"], answer.json()["total"]) == (2, "3.00")
    assert Sale.objects.get(number=2).admission_sale.number == 1


def test_the_same_key_records_once_and_answers_the_same_sale(open_occasion, floor_token):
    url, body = sale_url(open_occasion), sale_body(open_occasion)
    first = post(floor_token, url, body, key="till-7").json()
    state = saved()
    again = post(floor_token, url, body, key="till-7")
    assert again.status_code == 201
    assert again.json() == {**first, "replayed": True}
    assert saved() == state and Sale.objects.count() == 1
    assert post(floor_token, url, body, key="till-8").json()["number"] == 2


def test_the_same_key_from_another_token_is_another_sale(
    open_occasion, floor_token, worker_floor_token
):
    url, body = sale_url(open_occasion), sale_body(open_occasion)
    assert post(floor_token, url, body, key="same").json()["number"] == 1
    other = post(worker_floor_token, url, body, key="same")
    assert other.status_code == 201
    assert other.json()["number"] == 2 and other.json()["replayed"] is False
    assert Sale.objects.count() == 2


def test_a_key_of_a_ball_call_is_not_a_sale(draw_game, floor_token):
    occasion = draw_game.occasion
    assert post(floor_token, ball_url(draw_game), {"ball": 42}, key="k").status_code == 201
    state = saved()
    answer = post(floor_token, sale_url(occasion), sale_body(occasion), key="k")
    assert answer.status_code == 422
    assert "key of a ball call" in answer.json()["detail"]
    assert saved() == state


def test_two_admissions_in_one_sale_are_refused_by_the_rule(open_occasion, floor_token):
    state = saved()
    answer = post(floor_token, sale_url(open_occasion), sale_body(open_occasion, admission=2))
    body = assert_refused(answer, "C-5B-ONE-ADMISSION", "961 CMR 3.04(5)(b)")
    assert body["sentence"].startswith("961 CMR 3.04(5)(b): 2 admissions in one sale")
    assert saved() == state


def test_a_sale_at_an_occasion_not_open_is_refused(open_occasion, floor_token):
    Occasion.objects.filter(pk=open_occasion.pk).update(status=Occasion.Status.SCHEDULED)
    state = saved()
    answer = post(floor_token, sale_url(open_occasion), sale_body(open_occasion))
    assert_refused(answer, "C-4C-SOLD-DURING-OCCASION", "961 CMR 3.04(4)(c)")
    assert saved() == state


def test_a_seller_not_on_the_nights_floor_sells_nothing(tenant, open_occasion, floor_token):
    off_the_floor(open_occasion, tenant.member_in_charge)
    state = saved()
    answer = post(floor_token, sale_url(open_occasion), sale_body(open_occasion))
    body = assert_refused(answer, *WORKER_OF_THE_NIGHT)
    assert "not signed in on this night's floor" in body["detail"]
    assert saved() == state
    # Refused, its key was not kept: signed in, the same key is then recorded.
    from tests.fixtures.floor import on_floor

    on_floor(tenant.member_in_charge, open_occasion, "member_in_charge")
    again = post(floor_token, sale_url(open_occasion), sale_body(open_occasion))
    assert again.status_code == 201 and again.json()["replayed"] is False


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"lines": []}, "lines"),
        ({}, "lines"),
        ({"lines": "1 admission"}, "lines"),
        ({"lines": [{"item": "ITEM", "quantity": 1}]}, "lines[0].item"),
        ({"lines": [{"item": 1, "quantity": 0}]}, "lines[0].quantity"),
        ({"lines": [{"item": 1, "quantity": -1}]}, "lines[0].quantity"),
        ({"lines": [{"item": 1, "quantity": 1.5}]}, "lines[0].quantity"),
        ({"lines": [{"item": 1, "quantity": "2"}]}, "lines[0].quantity"),
        ({"lines": [{"item": 1, "quantity": True}]}, "lines[0].quantity"),
        ({"lines": [{"item": 1, "quantity": 100}]}, "lines[0].quantity"),
        ({"lines": [{"item": 1}]}, "lines[0].quantity"),
        ({"lines": [None]}, "lines[0]"),
        ({"lines": [{"item": 1, "quantity": 1}], "admission_receipt": "x"}, "admission_receipt"),
        ({"lines": [{"item": 1, "quantity": 1}], "admission_receipt": 0}, "admission_receipt"),
        ([1, 2], "non_field_errors"),
        ("null", "non_field_errors"),
    ],
)
def test_bad_input_is_400_naming_the_field(open_occasion, floor_token, body, field):
    state = saved()
    raw = body if isinstance(body, str) else json.dumps(body)
    answer = post(floor_token, sale_url(open_occasion), raw)
    assert answer.status_code == 400, answer.content
    assert answer["Content-Type"] == "application/problem+json"
    assert field in answer.json()["errors"], answer.json()
    assert saved() == state


def test_an_item_not_on_the_posted_list_or_given_twice_is_400(open_occasion, floor_token):
    from occasions import services as occasion_services
    from tests.fixtures.night import SAMPLE_PRICES

    def occasion_on(day):
        return occasion_services.occasion_for_day(
            organization=open_occasion.organization,
            day=open_occasion.date.replace(day=day),
            by=None,
        )

    posted = items(open_occasion)
    elsewhere = occasion_on(11)
    occasion_services.set_price_list(occasion=elsewhere, items=SAMPLE_PRICES, by=None)
    foreign = elsewhere.price_items.first().pk
    bare = occasion_on(18)
    state = saved()
    lines = [{"item": posted["admission"], "quantity": 1}, {"item": foreign, "quantity": 1}]
    answer = post(floor_token, sale_url(open_occasion), {"lines": lines})
    assert answer.status_code == 400
    assert answer.json()["errors"] == {
        "lines[1].item": [f"Item {foreign} is not on this occasion's posted price list."]
    }
    twice = [{"item": posted["admission"], "quantity": 1}] * 2
    answer = post(floor_token, sale_url(open_occasion), {"lines": twice})
    assert answer.status_code == 400
    assert answer.json()["errors"] == {
        "lines": [
            f"Item {posted['admission']} is given twice: give each item once, with its quantity."
        ]
    }
    # An occasion of the organization with no list posted: nothing is on it.
    answer = post(floor_token, sale_url(bare), {"lines": lines[:1]})
    assert answer.status_code == 400
    assert answer.json()["errors"] == {
        "lines[0].item": ["No price list is posted for this occasion."]
    }
    assert saved() == state


def test_a_body_that_is_not_json_is_400(open_occasion, floor_token):
    answer = post(floor_token, sale_url(open_occasion), "lines=1")
    assert answer.status_code == 400
    assert answer["Content-Type"] == "application/problem+json"
    assert not Sale.objects.exists()


@pytest.mark.parametrize("key", [None, "", "   ", "k" * (KEY_MAX + 1)])
def test_the_idempotency_key_is_required(open_occasion, floor_token, key):
    answer = post(floor_token, sale_url(open_occasion), sale_body(open_occasion), key=key)
    assert answer.status_code == 400
    assert "Idempotency-Key" in answer.json()["errors"]
    assert not Sale.objects.exists()


def test_a_key_of_200_characters_is_taken(open_occasion, floor_token):
    answer = post(floor_token, sale_url(open_occasion), sale_body(open_occasion), key="k" * 200)
    assert answer.status_code == 201


# A ball call


def test_a_ball_is_called_by_the_console_service_and_audited(tenant, draw_game, floor_token):
    answer = post(floor_token, ball_url(draw_game), {"ball": 42})
    assert answer.status_code == 201, answer.content
    assert answer.json() == {
        "number": 42,
        "label": "N42",
        "sequence": 1,
        "said": "N42 called (#1).",
        "replayed": False,
    }
    call = BallCall.objects.get()
    assert (call.number, call.called_by) == (42, tenant.member_in_charge)
    event = AuditEvent.objects.get(action="games.ball.called")
    assert event.provenance["source"] == "api" and event.provenance["client"] == "Test floor"


def test_the_same_ball_key_records_once(draw_game, floor_token):
    first = post(floor_token, ball_url(draw_game), {"ball": 7}, key="b-1").json()
    state = saved()
    again = post(floor_token, ball_url(draw_game), {"ball": 7}, key="b-1")
    assert again.status_code == 201 and again.json() == {**first, "replayed": True}
    assert saved() == state and BallCall.objects.count() == 1


def test_a_ball_already_called_is_refused_with_its_citation(draw_game, floor_token):
    post(floor_token, ball_url(draw_game), {"ball": 7}, key="b-1")
    state = saved()
    answer = post(floor_token, ball_url(draw_game), {"ball": 7}, key="b-2")
    assert_refused(answer, "D-6A-NOT-RETURNED", "961 CMR 3.04(6)(a)")
    assert saved() == state


def test_a_caller_not_on_the_floor_calls_nothing(tenant, draw_game, floor_token):
    off_the_floor(draw_game.occasion, tenant.member_in_charge)
    state = saved()
    answer = post(floor_token, ball_url(draw_game), {"ball": 7})
    assert_refused(answer, *WORKER_OF_THE_NIGHT)
    assert saved() == state


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"ball": 0}, "ball"),
        ({"ball": 76}, "ball"),
        ({"ball": "x"}, "ball"),
        ({"ball": "42"}, "ball"),
        ({"ball": 4.2}, "ball"),
        ({"ball": None}, "ball"),
        ({}, "ball"),
        (["ball"], "non_field_errors"),
    ],
)
def test_a_bad_ball_is_400_naming_the_field(draw_game, floor_token, body, field):
    answer = post(floor_token, ball_url(draw_game), body)
    assert answer.status_code == 400, answer.content
    assert field in answer.json()["errors"]
    assert not BallCall.objects.exists()


def test_a_game_of_another_occasion_or_organization_is_404(draw_game, floor_token, other_tenant):
    from games.models import Game
    from occasions import services as occasion_services

    theirs = occasion_services.occasion_for_day(
        organization=other_tenant.organization, day=draw_game.occasion.date, by=None
    )
    their_game = Game.objects.create(occasion=theirs, number=1, half=1, kind="regular")
    url = ball_url(their_game, org_id=draw_game.occasion.organization_id)
    assert post(floor_token, url, {"ball": 7}).status_code == 404
    url = ball_url(draw_game, occasion_id=theirs.pk)
    assert post(floor_token, url, {"ball": 7}).status_code == 404
    assert not BallCall.objects.exists() and not FloorSubmission.objects.exists()


# Who may


def test_another_organizations_token_or_occasion_is_404(
    open_occasion, draw_game, floor_token, other_floor_token, other_tenant
):
    from occasions import services as occasion_services
    from tests.fixtures.night import open_for_tests

    answer = post(other_floor_token, sale_url(open_occasion), sale_body(open_occasion))
    assert answer.status_code == 404
    assert answer["Content-Type"] == "application/problem+json"
    assert post(other_floor_token, ball_url(draw_game), {"ball": 7}).status_code == 404
    theirs = open_for_tests(
        occasion_services.occasion_for_day(
            organization=other_tenant.organization, day=open_occasion.date, by=None
        )
    )
    # The token's own organization in the address, the other's occasion: 404, its list unread.
    url = sale_url(theirs, org_id=open_occasion.organization_id)
    assert post(floor_token, url, sale_body(theirs)).status_code == 404
    assert not Sale.objects.exists() and not BallCall.objects.exists()


@pytest.mark.parametrize("scope", ["read", "night_files", "commission_read"])
def test_tokens_of_other_scopes_are_403(tenant, commission_admin, draw_game, scope):
    occasion = draw_game.occasion
    if scope == "commission_read":
        plain = token_for(scope, by=commission_admin)
    else:
        acts_as = tenant.bookkeeper if scope == "night_files" else None
        plain = token_for(scope, by=tenant.head, organization=tenant.organization, acts_as=acts_as)
    assert post(plain, sale_url(occasion), sale_body(occasion)).status_code == 403
    assert post(plain, ball_url(draw_game), {"ball": 7}).status_code == 403
    assert not Sale.objects.exists() and not BallCall.objects.exists()


def test_no_token_is_401(draw_game):
    occasion = draw_game.occasion
    assert post(None, sale_url(occasion), sale_body(occasion)).status_code == 401
    assert post(None, ball_url(draw_game), {"ball": 7}).status_code == 401


def test_the_token_does_only_what_its_worker_may_on_the_live_page(
    draw_game, floor_token, monkeypatch
):
    """Were the door and the console a head's only, a member in charge's token sells nothing."""
    heads_only = access_matrix._form(frozenset({access_matrix.H}))
    monkeypatch.setitem(access_matrix.ORG_PAGES, "sale_record", heads_only)
    monkeypatch.setitem(access_matrix.ORG_PAGES, "draw_call", heads_only)
    occasion = draw_game.occasion
    state = saved()
    assert post(floor_token, sale_url(occasion), sale_body(occasion)).status_code == 403
    assert post(floor_token, ball_url(draw_game), {"ball": 7}).status_code == 403
    assert saved() == state


def test_the_views_answer_the_scopes_the_matrix_names():
    from api.floor_views import Balls, Sales

    for name, view in (("api_sales", Sales), ("api_balls", Balls)):
        entry = access_matrix.API_ENDPOINTS[name]
        assert (view.read_scopes, view.write_scopes) == (entry.read, entry.write)


def test_the_key_is_the_tokens_header_in_a_namespace_of_its_own(open_occasion, floor_token):
    post(floor_token, sale_url(open_occasion), sale_body(open_occasion), key="nightly-1")
    public_id = ApiToken.objects.get(scope="floor").public_id
    expected = uuid.uuid5(KEY_NAMESPACE, f"{public_id}:nightly-1")
    assert FloorSubmission.objects.get().key == expected


def test_ids_beyond_any_row_are_404_not_500(draw_game, floor_token):
    occasion, huge = draw_game.occasion, 10**30
    org = occasion.organization_id
    urls = [
        f"/api/v1/organizations/{org}/occasions/{huge}/sales/",
        f"/api/v1/organizations/{huge}/occasions/{occasion.pk}/sales/",
    ]
    for url in urls:
        assert post(floor_token, url, sale_body(occasion)).status_code == 404
    urls = [
        f"/api/v1/organizations/{org}/occasions/{occasion.pk}/games/{huge}/balls/",
        f"/api/v1/organizations/{org}/occasions/{huge}/games/{draw_game.pk}/balls/",
    ]
    for url in urls:
        assert post(floor_token, url, {"ball": 7}).status_code == 404
    assert not Sale.objects.exists() and not BallCall.objects.exists()
