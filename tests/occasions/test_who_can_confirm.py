"""The lists of second persons offer only people who could confirm at that moment: users of the
organization whose person is signed in on the night's floor then (for the cash count, who
worked that night), other than the first person, not a compensated bookkeeper or accountant
without the Director's written authorization (961 CMR 3.04(1)(g)), and not paused after wrong
PINs. When nobody can, the form says so and what to do. The hole: at the Practice Hall the
void's witness and the payout's verifier offered Karen Pacheco and Thomas Ferreira, on none of
its lists, so that a void or a payout could never be completed there."""

from __future__ import annotations

import datetime as dt
import html
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from beano.accounts import pins
from occasions.models import WorkerPresence
from occasions.second_person import who_can_confirm
from organizations.models import DirectorAuthorization
from tests.conftest import login, make_user
from tests.fixtures.floor import off_the_floor, on_floor


def offered(page: str, name: str) -> list[str]:
    """The people a page's first ``<select name=...>`` offers, by their label, in order."""
    found = re.search(rf'<select[^>]*name="{re.escape(name)}"[^>]*>(.*?)</select>', page, re.S)
    assert found, f"no select named {name}"
    options = re.findall(r'<option value="(\d+)"[^>]*>([^<]*)</option>', found.group(1))
    return [html.unescape(label).strip() for _, label in options]


def by_name(*users: Any) -> list[Any]:
    """Users in the order the lists offer them."""
    return sorted(users, key=lambda u: (u.first_name, u.last_name, u.username))


def label(user: Any) -> str:
    return user.get_full_name() or user.get_username()


def paid(tenant: Any, occasion: Any) -> Any:
    """The bookkeeper on the floor, compensated; their person."""
    on_floor(tenant.bookkeeper, occasion, role="bookkeeper")
    person = tenant.bookkeeper.org_roles.first().person
    person.worker_list_entries.update(compensated=True)
    return person


def authorize(tenant: Any, person: Any) -> DirectorAuthorization:
    return DirectorAuthorization.objects.create(
        organization=tenant.organization,
        kind="1g_bookkeeper",
        reference_number="MSLC-1G-0007",
        subject="The bookkeeper may witness and verify",
        person=person,
        valid_from=dt.date(2025, 1, 1),
        document=SimpleUploadedFile("letter.pdf", b"%PDF-1.4 letter", "application/pdf"),
    )


# Who could confirm now


def test_only_people_signed_in_on_the_floor_now_other_than_the_first(
    tenant, other_tenant, open_occasion, clock_at_eleven
):
    """The head and the worker on the floor; the bookkeeper a user of the organization on no
    list, and the other organization's head: never offered. The member in charge, on the
    floor too, is the first person."""
    on_floor(tenant.head, open_occasion)
    on_floor(tenant.worker, open_occasion)
    on_floor(tenant.member_in_charge, open_occasion, role="member_in_charge")
    mic = tenant.member_in_charge
    assert who_can_confirm(open_occasion, mic, clock_at_eleven) == sorted(
        [tenant.head, tenant.worker], key=lambda u: (u.first_name, u.last_name, u.username)
    )
    assert tenant.bookkeeper not in who_can_confirm(open_occasion, mic, clock_at_eleven)
    assert other_tenant.head not in who_can_confirm(open_occasion, mic, clock_at_eleven)


def test_someone_who_signed_out_is_not_offered_after_but_worked_that_night(
    tenant, open_occasion, clock_at_eleven
):
    on_floor(tenant.head, open_occasion)
    left = clock_at_eleven - dt.timedelta(hours=1)
    WorkerPresence.objects.filter(occasion=open_occasion).update(signed_out_at=left)
    mic = tenant.member_in_charge
    assert who_can_confirm(open_occasion, mic, clock_at_eleven) == []
    worked = by_name(tenant.head, tenant.worker)  # the worker signed in by the fixture too
    assert who_can_confirm(open_occasion, mic, left - dt.timedelta(minutes=1)) == worked
    assert who_can_confirm(open_occasion, mic, None) == worked  # the cash count's


def test_a_compensated_bookkeeper_only_with_the_directors_authorization(
    tenant, open_occasion, clock_at_eleven
):
    off_the_floor(open_occasion, tenant.worker)
    person = paid(tenant, open_occasion)
    mic = tenant.member_in_charge
    assert who_can_confirm(open_occasion, mic, clock_at_eleven) == []
    authorize(tenant, person)
    assert who_can_confirm(open_occasion, mic, clock_at_eleven) == [tenant.bookkeeper]


def test_a_person_paused_after_wrong_pins_is_not_offered(tenant, open_occasion, clock_at_eleven):
    off_the_floor(open_occasion, tenant.worker)
    on_floor(tenant.head, open_occasion)
    for _ in range(pins.MAX_TRIES):
        assert not pins.confirms(tenant.head, "0000")
    assert who_can_confirm(open_occasion, tenant.member_in_charge, clock_at_eleven) == []


def test_an_inactive_login_is_not_offered(tenant, open_occasion, clock_at_eleven):
    off_the_floor(open_occasion, tenant.worker)
    on_floor(tenant.head, open_occasion)
    tenant.head.is_active = False
    tenant.head.save(update_fields=["is_active"])
    assert who_can_confirm(open_occasion, tenant.member_in_charge, clock_at_eleven) == []


def test_the_list_costs_the_same_queries_with_one_or_six_on_the_floor(
    tenant, open_occasion, clock_at_eleven
):
    def queries() -> tuple[int, int]:
        with CaptureQueriesContext(connection) as captured:
            found = who_can_confirm(open_occasion, tenant.member_in_charge, clock_at_eleven)
        return len(captured), len(found)

    off_the_floor(open_occasion, tenant.worker)
    on_floor(tenant.head, open_occasion)
    one = queries()
    for n in range(5):
        user = make_user(f"floor-{n}")
        tenant.organization.user_roles.create(user=user, role="worker")
        on_floor(user, open_occasion)
    six = queries()
    assert (one[1], six[1]) == (1, 6)
    assert one[0] == six[0] == 1


@pytest.fixture
def clock_at_eleven(open_occasion: Any) -> dt.datetime:
    from django.utils import timezone

    return timezone.now()  # open_occasion's clock: 11 PM on its night


# The door's void


def door(occasion: Any) -> str:
    return reverse("door_sales", args=[occasion.organization_id, occasion.pk])


@pytest.fixture
def in_charge(client: Any, tenant: Any) -> Any:
    login(client, tenant.member_in_charge)
    return client


def test_the_voids_witness_offers_only_who_is_on_the_floor(
    in_charge, tenant, other_tenant, open_occasion, sale
):
    """The hole: every user of the organization was offered, on the floor or not."""
    on_floor(tenant.head, open_occasion)
    paid(tenant, open_occasion)
    page = in_charge.get(door(open_occasion)).content.decode()
    assert offered(page, "witness") == [label(tenant.head)]
    assert "Nobody can witness" not in page


def test_the_void_says_when_nobody_can_witness_and_what_to_do(
    in_charge, tenant, open_occasion, sale
):
    on_floor(tenant.worker, open_occasion)  # the seller of receipt 1: no witness of it
    page = in_charge.get(door(open_occasion)).content.decode()
    assert offered(page, "witness") == []
    assert "Nobody can witness the void now" in page
    workers = reverse("workers_present", args=[open_occasion.organization_id, open_occasion.pk])
    assert f'href="{workers}"' in page and "Workers page" in page


# The payout's verifier


def claims_page(winner: Any) -> str:
    game = winner.claim.game
    return reverse(
        "game_claims",
        kwargs={
            "org_id": game.occasion.organization_id,
            "pk": game.occasion_id,
            "game_pk": game.pk,
        },
    )


def payout_label(user: Any) -> str:
    full = user.get_full_name()
    return f"{full} ({user.get_username()})" if full else user.get_username()


def test_the_payouts_verifier_offers_only_who_is_on_the_floor(in_charge, tenant, winner):
    occasion = winner.claim.game.occasion
    off_the_floor(occasion, tenant.worker)
    on_floor(tenant.head, occasion)
    paid(tenant, occasion)
    page = in_charge.get(claims_page(winner)).content.decode()
    assert offered(page, f"payout{winner.pk}-verified_by") == [payout_label(tenant.head)]
    assert "Nobody can verify the payout" not in page


def test_the_payout_says_when_nobody_can_verify_and_what_to_do(in_charge, tenant, winner):
    occasion = winner.claim.game.occasion
    off_the_floor(occasion, tenant.worker)
    on_floor(tenant.member_in_charge, occasion, role="member_in_charge")  # the first person
    page = in_charge.get(claims_page(winner)).content.decode()
    assert offered(page, f"payout{winner.pk}-verified_by") == []
    assert "Nobody can verify the payout now" in page
    workers = reverse("workers_present", args=[occasion.organization_id, occasion.pk])
    assert f'href="{workers}"' in page


# The cash count's verifier, after the close: who worked that night


def report_page(name: str, occasion: Any) -> str:
    return reverse(name, args=[occasion.organization_id, occasion.pk])


@pytest.mark.parametrize(
    ("page_name", "field"),
    [("report_closeout", "cash_verified_by"), ("report_drawer", "verified_by")],
)
def test_the_cash_counts_verifier_offers_who_worked_that_night(
    client, tenant, known_occasion, page_name, field
):
    login(client, tenant.bookkeeper)
    off_the_floor(known_occasion, tenant.worker, tenant.member_in_charge)
    on_floor(tenant.head, known_occasion)
    WorkerPresence.objects.filter(occasion=known_occasion).update(
        signed_out_at=known_occasion.closed_at  # left at the close: worked that night
    )
    on_floor(tenant.bookkeeper, known_occasion, role="bookkeeper")  # the one counting
    page = client.get(report_page(page_name, known_occasion)).content.decode()
    assert offered(page, field) == [payout_label(tenant.head)]
    assert "Nobody can verify the count" not in page


@pytest.mark.parametrize(
    ("page_name", "field"),
    [("report_closeout", "cash_verified_by"), ("report_drawer", "verified_by")],
)
def test_the_cash_count_says_when_nobody_can_verify(
    client, tenant, known_occasion, page_name, field
):
    login(client, tenant.bookkeeper)
    off_the_floor(known_occasion, tenant.worker, tenant.member_in_charge)
    page = client.get(report_page(page_name, known_occasion)).content.decode()
    assert offered(page, field) == []
    assert "Nobody can verify the count." in page


def test_the_door_and_claims_pages_cost_the_same_queries_however_many_are_on_the_floor(
    in_charge, tenant, sale, winner
):
    occasion = winner.claim.game.occasion
    assert sale.occasion == occasion
    off_the_floor(occasion, tenant.worker)
    on_floor(tenant.head, occasion)
    paid(tenant, occasion)  # the authorizations are read when a paid bookkeeper is there
    pages = (door(occasion), claims_page(winner))

    def queries() -> list[int]:
        counts = []
        for url in pages:
            with CaptureQueriesContext(connection) as captured:
                assert in_charge.get(url).status_code == 200
            counts.append(len(captured))
        return counts

    queries()  # the session and the caches warmed alike for both
    few = queries()
    for n in range(5):
        user = make_user(f"floor-{n}")
        tenant.organization.user_roles.create(user=user, role="worker")
        on_floor(user, occasion)
    page = in_charge.get(claims_page(winner)).content.decode()
    assert len(offered(page, f"payout{winner.pk}-verified_by")) == 6
    assert queries() == few
