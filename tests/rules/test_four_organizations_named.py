"""961 CMR 3.04(1)(c), as the volunteer reads its refusal: one plain sentence naming the other
organizations whose lists came first (and since when), and that a Director's written
authorization can allow more. Pure rules: no database."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

from beano.rules import AuthorizationKind
from beano.rules.workers import ADD, SIGN_IN, ListMade
from tests.rules.test_workers_rules import authorization, judge, worker

MADE = (
    ListMade(1, "American Legion Post 171", dt.date(2026, 1, 5)),
    ListMade(2, "St. Anne's Parish", dt.date(2026, 2, 9)),
    ListMade(3, "Knights of Columbus 4", dt.date(2026, 3, 2)),
    ListMade(4, "VFW Post 9", dt.date(2026, 3, 10)),
    ListMade(5, "Sons of Italy", dt.date(2026, 3, 13)),
)


def fifth(**changes: object):
    return replace(
        worker(organizations_this_year=(1, 2, 3, 4, 5), organization_id=5, lists_made=MADE),
        **changes,
    )


def test_four_organizations_are_allowed():
    facts = worker(organizations_this_year=(1, 2, 3, 4), organization_id=4, lists_made=MADE[:4])
    assert judge(facts).allowed


def test_the_refusal_names_each_earlier_organization_and_the_way_out():
    refused = judge(fifth())
    assert [(v.code, v.citation) for v in refused.violations] == [
        ("W-1C-FOUR-ORGANIZATIONS", "961 CMR 3.04(1)(c)")
    ]
    (message,) = [v.message for v in refused.violations]
    assert message == (
        "Linda Souza is already on the 2026 worker lists of American Legion Post 171 (listed "
        "January 5), St. Anne's Parish (listed February 9), Knights of Columbus 4 (listed "
        "March 2) and VFW Post 9 (listed March 10); a person may assist at most 4 licensed "
        "organizations in a calendar year, and only a Director's written authorization can "
        "allow a 5th."
    )
    assert message.replace("St.", "St").count(".") == 1  # one sentence
    assert "Sons of Italy" not in message  # the list being judged is not an "other"
    assert refused.violations[0].waivable


def test_a_sixth_list_names_the_five_before_it():
    made = (*MADE, ListMade(6, "Elks Lodge 12", dt.date(2026, 4, 1)))
    facts = fifth(organizations_this_year=(1, 2, 3, 4, 5, 6), organization_id=6, lists_made=made)
    (message,) = [v.message for v in judge(facts).violations]
    assert "VFW Post 9 (listed March 10) and Sons of Italy (listed March 13);" in message
    assert "can allow a 6th." in message


def test_a_new_list_not_yet_made_is_named_against_all_the_others():
    """Being added now, the list has no day of its own yet: the four made are named."""
    facts = fifth(organizations_this_year=(1, 2, 3, 4, 5), organization_id=5, lists_made=MADE[:4])
    (message,) = [v.message for v in judge(facts).violations]
    assert message.startswith("Linda Souza is already on the 2026 worker lists of American")
    assert "VFW Post 9 (listed March 10);" in message


def test_without_the_names_it_still_says_how_many_and_the_way_out():
    facts = fifth(lists_made=())
    (message,) = [v.message for v in judge(facts).violations]
    assert "worker lists of 4 other licensed organizations;" in message
    assert "only a Director's written authorization can allow a 5th." in message


def test_it_refuses_at_the_sign_in_too():
    refused = judge(fifth(), SIGN_IN)
    assert [v.citation for v in refused.violations] == ["961 CMR 3.04(1)(c)"]
    assert "VFW Post 9" in refused.violations[0].message


def test_a_directors_authorization_waives_it():
    granted = authorization(AuthorizationKind.MORE_THAN_FOUR_ORGANIZATIONS)
    for action in (ADD, SIGN_IN):
        decision = judge(fifth(), action, authorizations=[granted])
        assert decision.allowed, action
        assert [(w.code, w.reference) for w in decision.waivers] == [
            ("W-1C-FOUR-ORGANIZATIONS", "DIR-2026-014")
        ]
