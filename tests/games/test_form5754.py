"""A prize at or over the W-2G threshold shared by a group collects Form 5754: everyone's name,
address, TIN (sealed as the W-2G TIN is) and share, the shares adding up to the payout."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal as D

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from beano.rules.models import LawLimit
from games import payout_services
from games.form5754 import GroupMember, parse_lines
from games.models import Payout, PrizeShare
from games.sealed import unseal
from organizations.models import AuditEvent
from tests.conftest import PASSWORD
from tests.fixtures.floor import on_floor
from tests.games.claims_helpers import DETAILS

pytestmark = pytest.mark.django_db

GROUP = [
    GroupMember("Mary A. Costa", "12 Oak St, Fairhaven MA", "123-45-6789", D("40.00")),
    GroupMember("John Costa", "12 Oak St, Fairhaven MA", "987654321", D("35.00")),
]


@pytest.fixture
def big_win(winner, tenant):
    """The W-2G threshold lowered to $75 so this night's $75 win needs it."""
    on_floor(tenant.head, winner.claim.game.occasion)
    LawLimit.objects.create(
        name="w2g_threshold",
        value=D("75"),
        effective_from=dt.date(2026, 12, 1),
        source="test",
        status="verified",
    )
    return winner


def pay(winner, tenant, group):
    return payout_services.record_payout(
        winner=winner,
        by=tenant.member_in_charge,
        verified_by=tenant.head,
        verifier_secret=PASSWORD,
        w2g=DETAILS,
        group=group,
    )


def test_a_shared_prize_collects_each_persons_5754_details_tins_sealed(big_win, tenant):
    payout = pay(big_win, tenant, GROUP)
    shares = list(PrizeShare.objects.filter(payout=payout))
    assert [(s.legal_name, s.amount, s.masked_tin) for s in shares] == [
        ("Mary A. Costa", D("40.00"), "••••6789"),
        ("John Costa", D("35.00"), "••••4321"),
    ]
    assert unseal(shares[1].tin_sealed) == "987654321"
    assert "987654321" not in shares[1].tin_sealed
    event = AuditEvent.objects.get(action="games.payout.recorded")
    assert [s["legal_name"] for s in event.new_values["form5754"]] == [
        "Mary A. Costa",
        "John Costa",
    ]
    assert "987654321" not in str(event.new_values) and "4321" not in str(event.new_values)


@pytest.mark.parametrize(
    ("group", "words"),
    [
        ([GROUP[0]], "at least two people"),
        ([GROUP[0], GroupMember("John Costa", "", "987654321", D("35.00"))], "an address"),
        ([GROUP[0], GroupMember("John Costa", "Oak St", "98765", D("35.00"))], "nine digits"),
        ([GROUP[0], GroupMember("John Costa", "Oak St", "987654321", D("30.00"))], "add up"),
    ],
)
def test_incomplete_5754_details_are_refused_and_nothing_saved(big_win, tenant, group, words):
    with pytest.raises(ValidationError) as refused:
        pay(big_win, tenant, group)
    assert "Form 5754" in str(refused.value) and words in str(refused.value)
    assert not Payout.objects.exists() and not PrizeShare.objects.exists()


def test_a_group_below_the_threshold_is_refused(winner, tenant):
    on_floor(tenant.head, winner.claim.game.occasion)
    with pytest.raises(ValidationError, match="only a prize at or over the W-2G threshold"):
        payout_services.record_payout(
            winner=winner,
            by=tenant.member_in_charge,
            verified_by=tenant.head,
            verifier_secret=PASSWORD,
            group=GROUP,
        )
    assert not Payout.objects.exists()


def test_the_lines_typed_on_the_payout_form_are_read_and_bad_ones_explained():
    assert parse_lines("Ann Pires; 1 Elm St; 111-22-3333; $1,000.00\n\n") == [
        GroupMember("Ann Pires", "1 Elm St", "111-22-3333", D("1000.00"))
    ]
    with pytest.raises(ValidationError, match="four parts"):
        parse_lines("Ann Pires, 1 Elm St")
    with pytest.raises(
        ValidationError, match="Line 1, the share: Write the amount with the digits"
    ):
        parse_lines("Ann Pires; 1 Elm St; 111223333; lots")


@pytest.mark.parametrize(
    ("share", "words"),
    [
        ("٤٠٠", "Write the amount with the digits 0 to 9"),  # Arabic-Indic digits: not 400
        ("４００", "Write the amount with the digits 0 to 9"),  # full-width digits
        ("4e2", "Write the amount with the digits 0 to 9"),  # not 400
        ("1_000", "Write the amount with the digits 0 to 9"),
        ("NaN", "Write the amount with the digits 0 to 9"),
        ("Infinity", "Write the amount with the digits 0 to 9"),
        ("12.345", "at most two decimals"),
        ("-40.00", "cannot be negative"),
        ("99999999", "a prize is at most $10,000.00"),
    ],
)
def test_a_share_is_read_by_the_one_money_parser(share, words):
    """Issue 41: the share was read by Decimal() and took "٤٠٠" and "4e2" for $400."""
    with pytest.raises(ValidationError, match=rf"Line 2, the share: .*{re.escape(words)}"):
        parse_lines(f"Ann Pires; 1 Elm St; 111223333; 35.00\nJo Reis; 2 Elm St; 222334444; {share}")


def test_a_share_typed_as_people_write_money_is_read():
    lines = parse_lines("A; 1 Elm St; 111223333; $1,250.50\nB; 2 Elm St; 222334444; 75")
    assert [m.share for m in lines] == [D("1250.50"), D("75.00")]


def test_the_payout_page_takes_the_group(client, tenant, big_win):
    client.force_login(tenant.member_in_charge)
    game = big_win.claim.game
    kwargs = {"org_id": tenant.organization.pk, "pk": game.occasion_id, "game_pk": game.pk}
    page = client.get(reverse("game_claims", kwargs=kwargs)).content.decode()
    assert "Form 5754" in page
    p = f"payout{big_win.pk}-"
    data = {
        f"{p}verified_by": tenant.head.pk,
        f"{p}verifier_secret": PASSWORD,
        f"{p}amount": "75.00",
        f"{p}w2g_legal_name": DETAILS.legal_name,
        f"{p}w2g_address": DETAILS.address,
        f"{p}tin": "123-45-6789",
        f"{p}id1_kind": DETAILS.id1_kind,
        f"{p}id1_number": DETAILS.id1_number,
        f"{p}id2_kind": DETAILS.id2_kind,
        f"{p}id2_number": DETAILS.id2_number,
        f"{p}group": "Mary A. Costa; 12 Oak St; 123456789; 40.00\nJohn Costa; 12 Oak St; x; 35",
    }
    post = reverse("payout_record", kwargs={**kwargs, "winner_pk": big_win.pk})
    refused = client.post(post, data)
    assert refused.status_code == 200 and "nine digits" in refused.content.decode()
    assert not Payout.objects.exists()
    data[f"{p}group"] = data[f"{p}group"].replace("; x;", "; 987-65-4321;")
    assert client.post(post, data).status_code == 302
    assert PrizeShare.objects.count() == 2
