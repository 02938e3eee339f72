"""Plain words first, citation second (issue 19, item 5): the rules service's messages keep
their citation first for the logs and the audit trail, and every page shows the words a
volunteer reads first with the paragraph after them; a refusal the Director may waive says so."""

from __future__ import annotations

from django.template import Context, Template

from beano.refusals import Part, plain_first
from beano.rules.service import WAY_OUT
from beano.rules.workers import RECORD_WINNER, PlayerFacts
from tests.rules.test_workers_rules import judge, worker

WORDS = "Television ($155.01) would bring door prizes to $200.01, over the $200.00 allowed."


def test_a_message_is_cut_into_its_words_and_citation():
    assert plain_first(f"961 CMR 3.04(8)(e): {WORDS}") == [Part(WORDS, "961 CMR 3.04(8)(e)")]
    assert plain_first("M.G.L. c. 10 § 37: Not licensed.") == [
        Part("Not licensed.", "M.G.L. c. 10 § 37")
    ]


def test_messages_joined_into_one_are_each_cut():
    joined = "961 CMR 3.04(4)(c): The occasion is not open. 961 CMR 3.04(5)(b): Admission first."
    assert plain_first(joined) == [
        Part("The occasion is not open.", "961 CMR 3.04(4)(c)"),
        Part("Admission first.", "961 CMR 3.04(5)(b)"),
    ]
    assert plain_first("Refused; 961 CMR 3.04(7): Outside the hours.") == [
        Part("Refused;"),
        Part("Outside the hours.", "961 CMR 3.04(7)"),
    ]


def test_a_message_without_a_citation_is_left_whole():
    assert plain_first("Enter an amount in dollars.") == [Part("Enter an amount in dollars.")]


def test_the_filter_shows_the_words_then_the_citation_quieter_and_escapes_both():
    html = Template("{{ m|refusal }}").render(
        Context({"m": "961 CMR 3.04(1)(i): Joseph Rebello's <b>character</b> is not attested."})
    )
    assert html == (
        "Joseph Rebello&#x27;s &lt;b&gt;character&lt;/b&gt; is not attested. "
        '<span class="citation">961 CMR 3.04(1)(i)</span>'
    )


def test_a_waivable_refusal_says_the_director_can_allow_it():
    facts = PlayerFacts(person_id=7, name="Linda Souza", on_worker_list=True)
    decision = judge(facts, RECORD_WINNER)
    (violation,) = [v for v in decision.violations if v.code == "W-1H-WORKER-PLAYS"]
    assert violation.message == (
        f"Linda Souza is on this organization's worker list and cannot play or win. {WAY_OUT}"
    )


def test_a_refusal_that_cannot_be_waived_offers_no_authorization():
    (violation,) = judge(worker(roles=("caller",))).violations
    assert violation.code == "W-1I-CALLER" and WAY_OUT not in violation.message
