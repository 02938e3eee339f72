"""The figures kept at each write (``reports.kept``) against the figures recomputed from the
records, after every kind of write: a live close, a late close, a paper night imported and
closed, a filing, an amendment filed, an amendment withdrawn, a person put on a worker list,
and the rebuild command. The paper night is the known night of ``tests/reports/conftest.py``,
whose figures are worked out by hand."""

from __future__ import annotations

import datetime as dt
import io
import statistics
from decimal import Decimal
from typing import Any

import pytest
from django.core.management import call_command

from games.models import Winner
from occasions import floor_services as floor
from occasions.extras_selectors import extras_from_json, extras_totals_of
from occasions.models import Occasion
from occasions.sales_selectors import door_counts, door_from_json
from occasions.sales_services import record_sale
from organizations import services as org_services
from organizations.worker_services import add_to_worker_list
from reports import services
from reports.kept import keep_for_listed
from reports.kept_models import KeptOccasionFigures, KeptStatewideMonth, KeptWinnerMatch
from reports.models import ExpenseKind
from reports.occasion_totals import with_figures
from reports.prize_review import prize_review
from reports.winner_matches import workers_among_winners
from tests.conftest import PASSWORD
from tests.fixtures.floor import on_floor
from tests.nightfile.night_fixtures import known_night
from tests.nightfile.test_night_entry import enter
from tests.occasions.conftest import at as floor_at
from tests.occasions.test_late_close import REASON, forgotten  # noqa: F401  (a fixture)
from tests.reports.conftest import COUNTS, KNOWN

D = Decimal
MEASURES = ("attendance", "gross_receipts", "prizes", "net_proceeds")


def recomputed(occasion: Occasion) -> dict[str, Any]:
    """What the inspector's pages computed on every view, computed now from the records."""
    only = Occasion.objects.filter(pk=occasion.pk)
    totals = with_figures(only).values(
        "admissions", "gross_receipts", "prizes", "games_played", "attendance", "net_proceeds"
    )[0]
    [prizes] = prize_review(only)
    return {
        **totals,
        "door_prizes": prizes.door_prizes,
        "games_prizes": prizes.games_total,
        "prize_games": [(g.number, g.kind, g.regular, g.bonus) for g in prizes.games],
        "prize_problems": prizes.problems,
        "door": door_counts(occasion),
        "extras": extras_totals_of(only)[occasion.pk],
        "matches": sorted(
            (w.winner.pk, m.entry.pk, m.certain, m.same_organization)
            for w in workers_among_winners(only)
            for m in w.matches
        ),
    }


def kept(occasion: Occasion) -> dict[str, Any]:
    row = KeptOccasionFigures.objects.get(occasion=occasion)
    return {
        "admissions": row.admissions,
        "gross_receipts": row.gross_receipts,
        "prizes": row.prizes,
        "games_played": row.games_played,
        "attendance": row.attendance,
        "net_proceeds": row.net_proceeds,
        "door_prizes": row.door_prizes,
        "games_prizes": row.games_prizes,
        "prize_games": [
            (g["number"], g["kind"], D(g["regular"]), D(g["bonus"])) for g in row.prize_games
        ],
        "prize_problems": row.prize_problems,
        "door": door_from_json(row.door),
        "extras": extras_from_json(row.extras),
        "matches": sorted(
            KeptWinnerMatch.objects.filter(figures=row).values_list(
                "winner_id", "entry_id", "certain", "same_organization"
            )
        ),
    }


def months_recomputed() -> dict[tuple[dt.date, str], Decimal | None]:
    """Every month's statewide median, from every licensee's closed occasion recomputed."""
    rows = with_figures(
        Occasion.objects.filter(status=Occasion.Status.CLOSED, license__practice=False)
    ).values("date", *MEASURES)
    values: dict[tuple[dt.date, str], list[Decimal]] = {}
    for row in rows:
        for measure in MEASURES:
            if row[measure] is not None:
                values.setdefault((row["date"].replace(day=1), measure), []).append(row[measure])
    return {key: statistics.median(v) for key, v in values.items()}


def months_kept() -> dict[tuple[dt.date, str], Decimal | None]:
    return {
        (m.month, m.measure): m.median
        for m in KeptStatewideMonth.objects.exclude(median__isnull=True)
    }


def assert_kept_as_recomputed(*occasions: Occasion) -> None:
    for occasion in occasions:
        assert kept(occasion) == recomputed(occasion)
    assert months_kept() == months_recomputed()
    closed = Occasion.objects.filter(status=Occasion.Status.CLOSED)
    assert set(KeptOccasionFigures.objects.values_list("occasion_id", flat=True)) == set(
        closed.values_list("pk", flat=True)
    )


@pytest.fixture
def paper_night(night_records: Any, report_clock: Any) -> Occasion:
    """The known night entered from its sheets and closed, then counted by two."""
    tenant = night_records
    occasion = enter(tenant, known_night(tenant.organization.licenses.get().number))
    services.save_closeout(
        occasion=occasion,
        opening_bank=D("200.00"),
        cash_counted=KNOWN["cash_expected_with_200_bank"],
        counts=COUNTS,
        explanation="",
        cash_verified_by=on_floor(tenant.head, occasion),
        cash_verifier_secret=PASSWORD,
        by=tenant.bookkeeper,
    )
    return occasion


def test_a_paper_night_imported_and_closed_keeps_the_hand_worked_figures(paper_night):
    figures = KeptOccasionFigures.objects.get(occasion=paper_night)
    assert figures.gross_receipts == KNOWN["door_total"]  # door sales, the void left out
    assert figures.admissions == 100
    assert figures.prizes == KNOWN["prizes_total"]  # cash 50 + merchandise 30 + donated 80
    assert figures.games_prizes == KNOWN["prizes_total"]
    assert figures.door_prizes == D("65.00")  # 25 bought + 40 donated
    assert figures.games_played == 3
    assert figures.net_proceeds is None  # not filed yet
    assert not figures.flagged and figures.month == dt.date(2026, 12, 1)
    assert_kept_as_recomputed(paper_night)


def test_the_filing_keeps_its_net_proceeds(paper_night, tenant):
    services.file_report(occasion=paper_night, by=tenant.bookkeeper)
    figures = KeptOccasionFigures.objects.get(occasion=paper_night)
    assert figures.net_proceeds == KNOWN["net_before_entered_expenses"]
    month = KeptStatewideMonth.objects.get(month=dt.date(2026, 12, 1), measure="net_proceeds")
    assert (month.median, month.occasions) == (KNOWN["net_before_entered_expenses"], 1)
    assert_kept_as_recomputed(paper_night)


def test_an_amendment_filed_keeps_the_new_net_and_one_withdrawn_the_filed(paper_night, tenant):
    services.file_report(occasion=paper_night, by=tenant.bookkeeper)
    services.open_amendment(
        occasion=paper_night, reason="The hall's rent was left out.", by=tenant.bookkeeper
    )
    services.record_expense(
        occasion=paper_night,
        kind=ExpenseKind.objects.get(code="hall_rent"),
        payee="Knights Hall Corp.",
        amount=D("100.00"),
        by=tenant.bookkeeper,
    )
    services.file_report(occasion=paper_night, by=tenant.bookkeeper)
    net = KNOWN["net_before_entered_expenses"] - D("100.00")
    assert KeptOccasionFigures.objects.get(occasion=paper_night).net_proceeds == net
    assert_kept_as_recomputed(paper_night)
    services.open_amendment(occasion=paper_night, reason="One more look.", by=tenant.head)
    services.record_expense(
        occasion=paper_night,
        kind=ExpenseKind.objects.get(code="hall_rent"),
        payee="Knights Hall Corp.",
        amount=D("50.00"),
        by=tenant.bookkeeper,
    )
    services.withdraw_amendment(occasion=paper_night, by=tenant.head)
    assert KeptOccasionFigures.objects.get(occasion=paper_night).net_proceeds == net
    assert_kept_as_recomputed(paper_night)


def test_a_live_close_keeps_the_nights_figures_in_its_transaction(tenant, ready):
    floor.open_occasion(occasion=ready, by=tenant.member_in_charge, at=floor_at(18, 45))
    admission = ready.price_items.get()
    record_sale(
        occasion=ready,
        lines=[(admission, 1)],
        admission_receipt=None,
        by=tenant.member_in_charge,
        at=floor_at(19, 0),
    )
    assert not KeptOccasionFigures.objects.exists()  # an open night's are read live
    closed = floor.close_occasion(occasion=ready, by=tenant.member_in_charge, at=floor_at(22, 15))
    figures = KeptOccasionFigures.objects.get(occasion=closed)
    assert (figures.admissions, figures.gross_receipts) == (1, D("2.00"))
    assert_kept_as_recomputed(closed)


def test_a_refused_close_keeps_nothing(tenant, ready):
    floor.open_occasion(occasion=ready, by=tenant.member_in_charge, at=floor_at(18, 45))
    with pytest.raises(Exception):  # noqa: B017  (before the opening: refused)
        floor.close_occasion(occasion=ready, by=tenant.member_in_charge, at=floor_at(18, 0))
    assert not KeptOccasionFigures.objects.exists()


def test_a_late_close_keeps_the_nights_figures(tenant, forgotten):  # noqa: F811
    from games.models import Game

    Game.objects.filter(occasion=forgotten).update(status=Game.Status.FINISHED)
    closed = floor.close_occasion(
        occasion=forgotten,
        by=tenant.bookkeeper,
        at=floor_at(22, 30),
        late_reason=REASON,
    )
    assert KeptOccasionFigures.objects.filter(occasion=closed).exists()
    assert_kept_as_recomputed(closed)


def listed(tenant: Any, night: Occasion, legal_name: str) -> Any:
    """A new member named ``legal_name`` put on the worker list of ``night``'s year."""
    person = org_services.add_member(
        organization=tenant.organization,
        by=None,
        legal_name=legal_name,
        date_of_birth=dt.date(1975, 5, 5),
        kind="member",
        since=dt.date(2015, 1, 1),
    ).person
    return add_to_worker_list(
        organization=tenant.organization,
        year=night.date.year,
        person=person,
        roles=["seller"],
        identification="B-9",
        compensated=False,
        compensation_note="",
        good_moral_character_attested=False,
        attested_by="",
        on=night.date,
        by=None,
    )


def test_a_person_put_on_a_worker_list_is_matched_with_the_winners_kept(paper_night, tenant):
    winner = Winner.objects.filter(claim__game__occasion=paper_night).order_by("pk").first()
    assert not KeptWinnerMatch.objects.exists()
    listed(tenant, paper_night, winner.player_name.upper())  # matched whatever its case
    [match] = KeptWinnerMatch.objects.all()
    assert (match.winner_id, match.certain, match.same_organization) == (winner.pk, False, True)
    assert_kept_as_recomputed(paper_night)


def test_a_person_listed_who_won_nothing_keeps_nothing_and_computes_nothing(
    paper_night, tenant, django_assert_num_queries, monkeypatch
):
    """A listing whose person matches no winner of that year's closed nights (the common case:
    a hall signs up its crew) finds the nights to keep in one query and computes no figures."""
    before = kept(paper_night)

    def computed(occasions: Any) -> None:
        raise AssertionError("figures computed for a listing that changes none")

    monkeypatch.setattr("reports.kept.figures_rows", computed)
    entry = listed(tenant, paper_night, "Nobody Who Won")
    with django_assert_num_queries(3):  # the nights to keep found, in a savepoint
        keep_for_listed(entry)
    assert kept(paper_night) == before


def test_the_rebuild_writes_every_kept_figure_again_from_the_records(paper_night, tenant):
    services.file_report(occasion=paper_night, by=tenant.bookkeeper)
    before = kept(paper_night)
    # Kept rows damaged, missing, or left for an occasion no longer closed; a month invented.
    KeptOccasionFigures.objects.filter(occasion=paper_night).update(
        gross_receipts=D("1.00"), net_proceeds=None
    )
    KeptStatewideMonth.objects.create(
        month=dt.date(2020, 1, 1), measure="prizes", median=D("9"), kept_at=paper_night.closed_at
    )
    out = io.StringIO()
    call_command("rebuild_kept_figures", stdout=out)
    assert "Kept the figures of 1 closed occasion" in out.getvalue()
    assert kept(paper_night) == before
    assert not KeptStatewideMonth.objects.filter(month=dt.date(2020, 1, 1)).exists()
    assert_kept_as_recomputed(paper_night)
    KeptOccasionFigures.objects.all().delete()
    call_command("rebuild_kept_figures", stdout=io.StringIO())
    assert_kept_as_recomputed(paper_night)
