"""The demo's practice night, as ``seed_demo`` leaves it, worked by the people of the night: only
the logins of the practice hall's signed-in workers act on its floor (961 CMR 3.04(1)(b))."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from beano import rules
from beano.demo.practice_hall import NAME
from occasions import sales_services
from occasions.models import Occasion, Sale


@pytest.fixture
def practice(seeded_demo, db):
    return Occasion.objects.get(organization__name=NAME, date=timezone.localdate())


def user(username: str):
    return get_user_model().objects.get(username=username)


@pytest.mark.parametrize("username", ["post171-mic", "post171-worker"])
def test_logins_on_no_list_of_the_practice_hall_sell_nothing_there(practice, username):
    """The hole: post171-mic and post171-worker sold admissions at the Practice Hall while
    neither was on its worker list nor signed in, and "Recent sales" named them as sellers."""
    admission = practice.price_items.get(category="admission")
    with pytest.raises(rules.RuleViolation) as refused:
        sales_services.record_sale(
            occasion=practice, lines=[(admission, 1)], admission_receipt=None, by=user(username)
        )
    assert refused.value.citations == ["961 CMR 3.04(1)(b)"]
    assert not Sale.objects.filter(occasion=practice).exists()
