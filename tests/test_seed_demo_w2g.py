"""The demo's two jackpots on each side of the W-2G threshold's date: the night of 2025 brought
in from paper, its $1,500 jackpot won when the threshold was $1,200, paid with the winner's
W-2G details (the TIN sealed); and this year's $1,600 jackpot, under the $2,000 of 2026, which
needs none. The night of 2025 is filed and consistent: its figures kept, its paper issued and
counted back, its report clean, nothing on the exceptions report."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from beano.demo.last_year import LICENSE, NIGHT, SERIES, W2G
from beano.rules.claims import needs_w2g
from games.claims_selectors import w2g_threshold
from games.models import Payout, ProgressiveSeries
from games.sealed import unseal
from occasions.models import Occasion
from organizations.models import AuditEvent, Organization
from tests.conftest import login

POST = "American Legion Post 171"

pytestmark = pytest.mark.usefixtures("seeded_demo")


def _night() -> Occasion:
    return Occasion.objects.get(organization__name=POST, date=NIGHT)


def test_the_2025_jackpot_of_1500_was_paid_with_its_w2g_tin_sealed(db):
    occasion = _night()
    assert NIGHT.year == 2025 and occasion.license.number == LICENSE
    assert occasion.status == Occasion.Status.CLOSED and occasion.sealed_at is not None
    assert occasion.paper_records.exists()  # brought in from its paper sheets
    assert w2g_threshold(occasion) == D("1200")
    payout = Payout.objects.get(winner__claim__game__occasion=occasion, amount=D("1500.00"))
    assert needs_w2g(payout.amount, w2g_threshold(occasion))
    assert payout.winner.claim.game.kind == "progressive"
    assert payout.w2g_required and payout.w2g_legal_name == W2G["legal_name"]
    assert payout.w2g_address == W2G["address"] and not payout.backup_withholding
    assert payout.masked_tin == "••••2716"
    assert "031542716" not in payout.tin_sealed and unseal(payout.tin_sealed) == "031542716"
    event = AuditEvent.objects.get(
        action="games.payout.recorded", target_type="games.payout", target_id=str(payout.pk)
    )
    assert "031542716" not in str(event.new_values) and "031-54" not in str(event.new_values)
    series = ProgressiveSeries.objects.get(name=SERIES)
    assert series.status == ProgressiveSeries.Status.WON and series.won_on == NIGHT
    # The other payouts of the night are under the threshold: no W-2G.
    others = Payout.objects.filter(winner__claim__game__occasion=occasion).exclude(pk=payout.pk)
    assert others.exists() and not others.filter(w2g_required=True).exists()


def test_this_years_jackpot_of_1600_needs_no_w2g(db):
    from games.jackpot_selectors import series_lines

    post = Organization.objects.get(name=POST)
    coming = Occasion.objects.filter(organization=post, status="scheduled").order_by("date")[0]
    assert coming.date.year >= 2026 and w2g_threshold(coming) == D("2000")
    (line,) = [x for x in series_lines(post, coming.date) if x.series.is_active]
    assert line.jackpot == D("1600.00") and not needs_w2g(line.jackpot, w2g_threshold(coming))
    # The only W-2G of the demo is the one of 2025.
    assert list(Payout.objects.filter(w2g_required=True).values_list("amount", flat=True)) == [
        D("1500.00")
    ]


def test_the_2025_night_is_filed_consistently(db):
    from beano.backup.trail import differences
    from equipment.paper_selectors import door_counts, occasion_paper
    from inspections.exceptions import ExceptionQuery, exceptions
    from organizations.audit import verify_chain
    from reports.integrity import document_problems
    from reports.models import FinancialReport
    from tests.reports.test_kept import kept, recomputed

    occasion = _night()
    (report,) = FinancialReport.objects.filter(occasion=occasion)
    assert report.version == 1 and document_problems(report) == []
    winners = [w for g in report.figures["games"] for p in g["parts"] for w in p["winners"]]
    assert [w["name"] for w in winners if w["w2g"]] == ["Margaret Oliveira"]
    assert not report.figures["variance"]["above_threshold"]
    assert report.figures["cash"]["variance"] == "0.00"
    assert kept(occasion) == recomputed(occasion)
    paper = occasion_paper(occasion, door_counts(report.figures))
    assert paper.kept and not paper.flagged and not paper.sold_unissued
    post = occasion.organization
    assert verify_chain(post).ok and differences(post) == []
    rows = exceptions(
        ExceptionQuery(
            organizations=Organization.objects.filter(pk=post.pk),
            date_from=dt.date(2025, 1, 1),
            date_to=dt.date(2025, 12, 31),
            threshold=D("5.00"),
            today=dt.date.today(),
        )
    )
    assert rows == []  # before the gaming account's book: no deposit or month owed


def test_the_w2g_register_and_the_record_show_it(db, client):
    occasion = _night()
    post = occasion.organization
    login(client, get_user_model().objects.get(username="post171-books"))
    page = client.get(reverse("w2g_register", args=[post.pk, 2025])).content.decode()
    assert W2G["legal_name"] in page and "••••2716" in page and "$1,500.00" in page
    assert "031542716" not in page and "031-54-2716" not in page
    none = client.get(reverse("w2g_register", args=[post.pk, 2026])).content.decode()
    assert "No payout of 2026 called for a Form W-2G." in none
    login(client, get_user_model().objects.get(username="inspector"))
    record = client.get(reverse("occasion_record", args=[post.pk, occasion.pk]))
    text = record.content.decode()
    assert record.status_code == 200
    assert f"W-2G: {W2G['legal_name']}, TIN ••••2716" in text and "031542716" not in text
