"""The reports' demo data: Post 171's records here begin four weeks before its last night
(``reports_from``: the reports owed are counted from then). Its last night closed out, filed and
amended (both PDFs made), the authorized day two weeks before recorded as not played and its
report left late, the week between left with nothing recorded (missing once its due date has
passed; from a Saturday to a Monday, with the ten days of 3.05(1)(a), still due), the night three
weeks before brought in from a night file (docs/formats/night-example.json: played on paper, as
a hall moving to the application brings its past nights) and its report not filed (late), the
first day four weeks before with nothing recorded (missing), and this year's Lawful Purpose
disbursements.
Idempotent; the days are relative to ``today`` like the rest of the demo."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

from django.conf import settings
from django.contrib.auth import get_user_model

from beano.demo import DEMO_PASSWORD, paper
from beano.demo.floor import last_past_day
from nightfile import engine, reader
from occasions import services as occasion_services
from occasions.models import Occasion
from organizations.models import Equipment, Organization
from reports import services
from reports.figures import compute_figures
from reports.models import ExpenseKind, FinancialReport, LawfulPurposeDisbursement, RenderStatus
from reports.tasks import render

POST = "American Legion Post 171"
PARISH = "St. Anne's Parish"
#: St. Anne's filed its report of last year's disbursements late, on the day the demo was made.
PARISH_LAST_YEAR = [
    # (month, day, payee, purpose, amount, reference)
    (4, 2, "St. Anne's Food Pantry", "Groceries for the pantry", "1800.00", "512"),
    (9, 15, "New Bedford Youth Soccer", "Uniforms for two teams", "640.00", "538"),
]
AMENDMENT_REASON = (
    "The supplies invoice from Bingo King for the daubers sold that night arrived after filing."
)
DISBURSEMENTS = [
    # (month, day, payee, purpose, amount, reference)
    (3, 14, "Fairhaven High School", "Two scholarships for graduating seniors", "2000.00", "1187"),
    (7, 1, "Veterans' Outreach Center", "Winter coats for homeless veterans", "850.00", "1203"),
    (11, 11, "Fairhaven Food Pantry", "Thanksgiving baskets", "1200.00", "1231"),
]


def seed(today: dt.date, *, pdfs: bool = True) -> None:
    """``pdfs=False`` leaves the reports' PDFs unrendered (seed_demo --no-pdfs)."""
    _seed_parish(today, pdfs=pdfs)
    post = Organization.objects.filter(name=POST).first()
    if post is None:
        return
    day = last_past_day(post, today)
    occasion = Occasion.objects.filter(organization=post, date=day).first() if day else None
    if occasion is None or occasion.status != Occasion.Status.CLOSED:
        return
    books = get_user_model().objects.filter(username="post171-books").first()
    head = get_user_model().objects.filter(username="post171-head").first()
    if post.reports_from is None:
        # The hall moved to the application four weeks before its last night: its records, and
        # the reports it owes here, begin then (the reports of October went on paper).
        post.reports_from = day - dt.timedelta(days=28)
        post.save(update_fields=["reports_from"])
    _night_from_paper(post, day - dt.timedelta(days=21), books)
    _not_played(post, day - dt.timedelta(days=14), head)
    if not FinancialReport.objects.filter(occasion=occasion).exists():
        _close_out_and_file(occasion, books)
    for report in FinancialReport.objects.filter(occasion=occasion):
        if pdfs and report.render_status != RenderStatus.READY:
            render("financial", report.pk)
    _disbursements(post, today, books)
    paper.seed_stock_records(post, today)


#: The example night file: the demo brings it in, so the example is known to import.
NIGHT_FILE = settings.BASE_DIR / "docs" / "formats" / "night-example.json"


def _night_from_paper(post: Organization, day: dt.date, by: object) -> None:
    """The example night file, moved to ``day`` by its date alone, imported through the
    services and rules as a hall moving to the application brings its past nights."""
    if day.year != (day + dt.timedelta(days=21)).year:
        return  # the worker list of another year: the demo keeps to this year's
    if Occasion.objects.filter(organization=post, date=day).exists():
        return
    data = json.loads(NIGHT_FILE.read_text(encoding="utf-8"))
    data["date"] = day.isoformat()
    data["license"] = post.licenses.order_by("-valid_from").first().number
    engine.import_night(night=reader.read(data), by=by, file_name=NIGHT_FILE.name)


def _not_played(post: Organization, day: dt.date, by: object) -> None:
    occasion = occasion_services.occasion_for_day(organization=post, day=day, by=by)
    if occasion.status == Occasion.Status.SCHEDULED:
        occasion_services.mark_not_played(
            occasion=occasion,
            reason="The hall was taken for the Post's Veterans Day dinner",
            by=by,
        )


def _close_out_and_file(occasion: Occasion, books: object) -> None:
    figures = compute_figures(occasion)
    counts = {c["category"]: c["recorded"] for c in figures["counts"]}
    counts["special"] -= 1  # one special game card found torn in the stock: $2 short
    opening_bank = Decimal("1500.00")
    services.save_closeout(
        occasion=occasion,
        opening_bank=opening_bank,
        cash_counted=figures["cash"]["expected"] + opening_bank - Decimal("7.00"),
        counts=counts,
        explanation="One special game card was torn and kept out of the count; the cash box "
        "was $7.00 short, most likely change given at the door during the rush at 6:45.",
        # Counted by the bookkeeper, verified by the member in charge typing her own password.
        cash_verified_by=get_user_model().objects.get(username="post171-mic"),
        cash_verifier_secret=DEMO_PASSWORD,
        by=books,
    )
    from beano.demo.bank import count_the_drawer

    count_the_drawer(occasion, books)  # the same cash, counted piece by piece
    # The paper issued by serial and counted back that night, its one difference explained.
    door = {c["category"]: c["recorded"] for c in figures["counts"]}
    paper.seed_closed_night(occasion, door, books)
    flashboard = Equipment.objects.filter(
        organization=occasion.organization, ownership=Equipment.Ownership.LEASED
    ).first()
    if flashboard is not None:
        services.record_expense(
            occasion=occasion,
            kind=ExpenseKind.objects.get(code="equipment_rent"),
            payee=flashboard.lessor,
            amount=flashboard.rental_fee,
            equipment=flashboard,
            description=f"{flashboard.description}, one occasion",
            invoice_reference="Lease invoice 2026-48",
            by=books,
        )
    services.file_report(occasion=occasion, by=books)
    services.open_amendment(occasion=occasion, reason=AMENDMENT_REASON, by=books)
    services.record_expense(
        occasion=occasion,
        kind=ExpenseKind.objects.get(code="supplies"),
        payee="Bingo King",
        amount=Decimal("36.00"),
        description="Daubers, 2 cases",
        invoice_reference="Invoice BK-77120",
        by=books,
    )
    services.file_report(occasion=occasion, by=books)


def _disbursements(post: Organization, today: dt.date, by: object) -> None:
    for month, dom, payee, purpose, amount, reference in DISBURSEMENTS:
        paid_on = dt.date(today.year, month, dom)
        if (
            paid_on > today
            or LawfulPurposeDisbursement.objects.filter(
                organization=post, reference=reference, paid_on=paid_on
            ).exists()
        ):
            continue
        services.record_disbursement(
            organization=post,
            paid_on=paid_on,
            payee=payee,
            purpose=purpose,
            amount=Decimal(amount),
            reference=reference,
            by=by,
        )


def _seed_parish(today: dt.date, *, pdfs: bool) -> None:
    parish = Organization.objects.filter(name=PARISH).first()
    if parish is None:
        return
    day = last_past_day(parish, today)
    tonight = Occasion.objects.filter(organization=parish, date=day).first() if day else None
    if tonight is not None and tonight.status == Occasion.Status.OPEN:
        paper.seed_open_night(tonight, "stanne-mic")
    if parish.reports_from is None and day is not None:
        parish.reports_from = day
        parish.save(update_fields=["reports_from"])
    books = get_user_model().objects.filter(username="stanne-books").first()
    year = today.year - 1
    for month, dom, payee, purpose, amount, reference in PARISH_LAST_YEAR:
        paid_on = dt.date(year, month, dom)
        if not LawfulPurposeDisbursement.objects.filter(
            organization=parish, reference=reference, paid_on=paid_on
        ).exists():
            services.record_disbursement(
                organization=parish,
                paid_on=paid_on,
                payee=payee,
                purpose=purpose,
                amount=Decimal(amount),
                reference=reference,
                by=books,
            )
    report = services.file_annual_report(organization=parish, year=year, by=books)
    if pdfs and report.render_status != RenderStatus.READY:
        render("annual", report.pk)
