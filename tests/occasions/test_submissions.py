"""The floor's submissions answered once (occasions/submissions.py): a door sale, a ball call or
a claim sent again with the key its browser made records once and answers with the first one's
record; a key is one person's and one act's; a refused submission keeps no key. The pages are in
test_sales_views.py, tests/games/test_draw.py and tests/games/test_claims.py."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest
from django.core.exceptions import ValidationError

from beano.rules import RuleViolation
from games import claims_services, draw_services
from games.models import BallCall, Claim
from occasions import sales_services as services
from occasions import services as occasion_services
from occasions import submissions
from occasions.models import FloorSubmission, Sale, SaleLine
from organizations.models import AuditEvent


def _items(occasion):
    return {i.category: i for i in occasion.price_items.all()}


def _sell(occasion, by, *lines, receipt=None, key=None):
    items = _items(occasion)
    return services.record_sale(
        occasion=occasion,
        lines=[(items[category], quantity) for category, quantity in lines],
        admission_receipt=receipt,
        by=by,
        request_key=key,
    )


def _state():
    return (
        Sale.objects.count(),
        SaleLine.objects.count(),
        AuditEvent.objects.count(),
        FloorSubmission.objects.count(),
    )


def test_a_sale_sent_twice_with_its_key_is_recorded_once_and_answered_alike(tenant, open_occasion):
    key = uuid.uuid4()
    first = _sell(open_occasion, tenant.worker, ("admission", 1), ("bonus", 3), key=key)
    after_first = _state()
    again = _sell(open_occasion, tenant.worker, ("admission", 1), ("bonus", 3), key=key)
    assert again == first and again.number == 1
    assert _state() == after_first
    assert (Sale.objects.count(), FloorSubmission.objects.count()) == (1, 1)
    assert AuditEvent.objects.filter(action="occasions.sale.recorded").count() == 1
    kept = FloorSubmission.objects.get()
    assert (kept.occasion, kept.key, kept.action, kept.user) == (
        open_occasion,
        key,
        FloorSubmission.Action.SALE,
        tenant.worker,
    )
    assert (kept.target_type, kept.target_id) == ("occasions.sale", first.pk)


def test_the_answer_is_the_first_sale_whatever_the_second_request_says(tenant, open_occasion):
    key = uuid.uuid4()
    first = _sell(open_occasion, tenant.worker, ("admission", 1), key=key)
    again = _sell(open_occasion, tenant.worker, ("admission", 2), ("bonus", 1), key=key)
    assert again == first and again.total == first.total
    assert Sale.objects.count() == 1


def test_each_new_key_and_no_key_record_a_sale_each(tenant, open_occasion):
    _sell(open_occasion, tenant.worker, ("admission", 1), key=uuid.uuid4())
    _sell(open_occasion, tenant.worker, ("admission", 1), key=uuid.uuid4())
    _sell(open_occasion, tenant.worker, ("admission", 1))
    _sell(open_occasion, tenant.worker, ("admission", 1))
    assert list(Sale.objects.values_list("number", flat=True)) == [1, 2, 3, 4]
    assert FloorSubmission.objects.count() == 2


def test_another_persons_key_is_refused_and_nothing_is_recorded(tenant, open_occasion):
    key = uuid.uuid4()
    _sell(open_occasion, tenant.worker, ("admission", 1), key=key)
    before = _state()
    with pytest.raises(ValidationError) as refused:
        _sell(open_occasion, tenant.member_in_charge, ("admission", 1), key=key)
    assert "key of another person's entry, so nothing was recorded" in refused.value.messages[0]
    assert _state() == before


def test_a_key_used_for_another_act_is_refused(tenant, open_occasion, draw_game):
    key = uuid.uuid4()
    draw_services.record_ball_call(game=draw_game, number=42, by=tenant.worker, request_key=key)
    before = _state()
    with pytest.raises(ValidationError) as refused:
        _sell(open_occasion, tenant.worker, ("admission", 1), key=key)
    assert refused.value.messages == [
        "This entry carries the key of a ball call, so nothing was recorded: reload the page "
        "and enter it again."
    ]
    assert _state() == before


def test_a_refused_sale_keeps_no_key_and_is_recorded_when_corrected_and_sent_again(
    tenant, open_occasion
):
    key = uuid.uuid4()
    before = _state()
    with pytest.raises(RuleViolation):  # extras without an admission (3.04(5)(b))
        _sell(open_occasion, tenant.worker, ("bonus", 3), key=key)
    assert _state() == before
    sale = _sell(open_occasion, tenant.worker, ("admission", 1), ("bonus", 3), key=key)
    assert sale.number == 1
    assert FloorSubmission.objects.get().target_id == sale.pk


def test_a_key_is_unique_within_its_occasion_only(tenant, open_occasion):
    key = uuid.uuid4()
    first = _sell(open_occasion, tenant.worker, ("admission", 1), key=key)
    other = occasion_services.occasion_for_day(
        organization=tenant.organization, day=dt.date(2026, 12, 11), by=tenant.member_in_charge
    )
    FloorSubmission.objects.filter(key=key).update(occasion=other)
    again = _sell(open_occasion, tenant.worker, ("admission", 1), key=key)
    assert again != first
    assert FloorSubmission.objects.filter(key=key).count() == 2


def test_a_key_found_taken_by_its_insert_rolls_back_and_answers_with_the_first(
    tenant, open_occasion, monkeypatch
):
    """The key is written after the record, in the statement that finds it taken (on
    PostgreSQL, a doubled request waits there on the unique index until the first one's
    transaction ends): the second sale is made, finds the key taken, rolls back with
    everything it wrote, and the answer is the first sale, looked up once."""
    key = uuid.uuid4()
    first = _sell(open_occasion, tenant.worker, ("admission", 1), key=key)
    after_first = _state()
    real = submissions._earlier
    looks: list[bool] = []

    def looked(*args, **kwargs):
        looks.append(True)
        return real(*args, **kwargs)

    monkeypatch.setattr(submissions, "_earlier", looked)
    again = _sell(open_occasion, tenant.worker, ("admission", 1), key=key)
    assert len(looks) == 1  # no lookup before: only once the insert found the key taken
    assert again == first
    assert _state() == after_first


def test_a_new_key_costs_one_insert_and_no_lookup(tenant, open_occasion, monkeypatch):
    monkeypatch.setattr(submissions, "_earlier", lambda *a, **k: pytest.fail("looked up"))
    sale = _sell(open_occasion, tenant.worker, ("admission", 1), key=uuid.uuid4())
    assert FloorSubmission.objects.get().target_id == sale.pk


def test_a_database_error_of_the_service_itself_is_not_taken_for_a_repeat(
    tenant, draw_game, ball_call, monkeypatch
):
    """The ball's own unique index (tests/games/test_draw.py) still refuses with its rule."""
    locked = draw_services._locked_game_for_call

    def missing_the_call(game, number, organization, by):
        game = locked(game, number, organization, by)
        game.live_sequence = None
        return game

    monkeypatch.setattr(draw_services, "_locked_game_for_call", missing_the_call)
    with pytest.raises(RuleViolation):
        draw_services.record_ball_call(
            game=draw_game, number=ball_call.number, by=tenant.worker, request_key=uuid.uuid4()
        )
    assert not FloorSubmission.objects.exists()


def test_a_ball_call_sent_twice_is_called_once(tenant, draw_game):
    key = uuid.uuid4()
    first = draw_services.record_ball_call(
        game=draw_game, number="N42", by=tenant.worker, request_key=key
    )
    again = draw_services.record_ball_call(
        game=draw_game, number="N42", by=tenant.worker, request_key=key
    )
    assert again == first and first.sequence == 1
    assert BallCall.objects.filter(game=draw_game).count() == 1
    assert AuditEvent.objects.filter(action="games.ball.called").count() == 1


def test_a_claim_sent_twice_is_recorded_once(tenant, game_in_play):
    key = uuid.uuid4()
    values = {
        "game": game_in_play,
        "part": game_in_play.parts.get(),
        "ball_in_hand": None,
        "calling_begun": False,
        "player_name": "Mary Costa",
        "table": "7",
        "by": tenant.worker,
        "request_key": key,
    }
    first = claims_services.record_claim(**values)
    again = claims_services.record_claim(**values)
    assert again == first
    assert Claim.objects.count() == 1
    assert FloorSubmission.objects.get().action == FloorSubmission.Action.CLAIM


def test_the_services_say_they_take_the_key():
    import inspect

    for service in (
        services.record_sale,
        draw_services.record_ball_call,
        claims_services.record_claim,
    ):
        parameter = inspect.signature(service).parameters["request_key"]
        assert parameter.kind is inspect.Parameter.KEYWORD_ONLY and parameter.default is None
