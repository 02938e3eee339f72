"""What a floor write through the API costs beside the live page's: the page's queries and the
token's row (the page reads its session from the cache), at two sizes. Time is measured in
bench/floor_writes.py, never here."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from tests.api.test_floor import ball_url, items, post, sale_body, sale_url

pytestmark = pytest.mark.django_db


def queries_of(send):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as queries:
        answer = send()
    assert answer.status_code in (200, 201), answer.content
    return len(queries)


def page_client(client, user):
    from tests.conftest import login, totp_device

    totp_device(user)
    login(client, user)
    return client


HTMX = {"HTTP_HX_REQUEST": "true"}


def test_an_api_sale_costs_one_query_more_than_the_doors_page(
    client, tenant, open_occasion, floor_token
):
    seller = page_client(client, tenant.worker)
    page_url = reverse("sale_record", args=[open_occasion.organization_id, open_occasion.pk])
    posted = items(open_occasion)

    def page_sale():
        data = {f"qty_{posted['admission']}": "1", f"qty_{posted['extra_regular']}": "2"}
        return seller.post(page_url, {**data, "request_key": str(uuid.uuid4())}, **HTMX)

    url, body = sale_url(open_occasion), sale_body(open_occasion)

    def api_sale():
        return post(floor_token, url, body, key=str(uuid.uuid4()))

    page_sale(), api_sale()  # warm (the session, the price list's copy)
    page, api = queries_of(page_sale), queries_of(api_sale)
    assert api <= page + 1, (api, page)
    for _ in range(10):
        api_sale()
    assert queries_of(api_sale) == api  # the same after a dozen sales


def test_an_api_ball_call_costs_one_query_more_than_the_consoles_page(
    client, tenant, draw_game, floor_token
):
    caller = page_client(client, tenant.worker)
    page_url = reverse(
        "draw_call", args=[draw_game.occasion.organization_id, draw_game.occasion_id, draw_game.pk]
    )
    balls = iter(range(1, 76))

    def page_call():
        return caller.post(page_url, {"ball": next(balls), "request_key": uuid.uuid4()}, **HTMX)

    def api_call():
        return post(floor_token, ball_url(draw_game), {"ball": next(balls)}, key=str(uuid.uuid4()))

    page_call(), api_call()
    page, api = queries_of(page_call), queries_of(api_call)
    assert api <= page + 1, (api, page)
