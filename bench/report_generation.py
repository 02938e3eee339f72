"""Report generation: the time to make the financial report PDF of a large occasion (40 games,
600 admissions, every ball of every game called), against WeasyPrint rendering the same HTML
read from a file with the same options. Targets: ≤ 2 s, and a ratio ≤ 1.25.

Speed is measured here, never asserted by timing tests. ``python bench/report_generation.py
[--quick]`` prints one line per figure; ``make bench`` writes them into bench/RESULTS.md."""

from __future__ import annotations

import datetime as dt
import os
import statistics
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("BEANO_DATA_DIR", tempfile.mkdtemp(prefix="beano-bench-report-"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "beano.settings")
os.environ.setdefault("DEBUG", "on")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.utils import timezone  # noqa: E402

GAMES = 40
ADMISSIONS = 600
TARGET_SECONDS = 2.0
TARGET_RATIO = 1.25
PASSWORD = "x" * 12  # bench.scenarios._user's


def build() -> Any:
    """The large occasion, closed and counted, with its report filed (PDF not yet made)."""
    from bench.scenarios import _organization, _user
    from games.models import Arrangement, BallCall, Claim, Game, Payout, PrizePart, Winner
    from occasions import services as occasion_services
    from occasions.models import Occasion, PriceListItem, Sale, SaleLine
    from organizations.models import Role
    from reports import services
    from reports.figures import compute_figures

    org = _organization()
    head = _user(org, Role.HEAD)
    books = _user(org, Role.BOOKKEEPER)
    day = org.licenses.first().authorized_dates(dt.date(2026, 1, 1), dt.date(2026, 1, 31))[0]
    occasion = occasion_services.occasion_for_day(organization=org, day=day, by=head)
    occasion_services.set_price_list(
        occasion=occasion,
        items=[
            {
                "category": "admission",
                "label": "Admission",
                "price": "2.00",
                "package_contents": "",
            },
            {
                "category": "extra_regular",
                "label": "Extra regular card",
                "price": "1.00",
                "package_contents": "",
            },
            {
                "category": "special",
                "label": "Special game card",
                "price": "2.00",
                "package_contents": "",
            },
        ],
        by=head,
    )
    at = timezone.make_aware(dt.datetime.combine(day, dt.time(19, 0)))
    Occasion.objects.filter(pk=occasion.pk).update(status="open", opened_at=at)
    items = {i.category: i for i in PriceListItem.objects.filter(occasion=occasion)}
    sales = Sale.objects.bulk_create(
        Sale(occasion=occasion, number=n + 1, sold_by=head, sold_at=at) for n in range(ADMISSIONS)
    )
    SaleLine.objects.bulk_create(
        line
        for s in sales
        for line in (
            SaleLine(
                sale=s,
                price_item=items["admission"],
                category="admission",
                quantity=1,
                unit_price=Decimal("2.00"),
                amount=Decimal("2.00"),
            ),
            SaleLine(
                sale=s,
                price_item=items["extra_regular"],
                category="extra_regular",
                quantity=3,
                unit_price=Decimal("1.00"),
                amount=Decimal("3.00"),
            ),
            SaleLine(
                sale=s,
                price_item=items["special"],
                category="special",
                quantity=1,
                unit_price=Decimal("2.00"),
                amount=Decimal("2.00"),
            ),
        )
    )
    coverall = Arrangement.objects.get(code="coverall")
    games = Game.objects.bulk_create(
        Game(
            occasion=occasion,
            number=n + 1,
            half=1 if n < GAMES // 2 else 2,
            kind="regular",
            status="finished",
            started_at=at,
            finished_at=at,
        )
        for n in range(GAMES)
    )
    parts = PrizePart.objects.bulk_create(
        PrizePart(game=g, order=1, arrangement=coverall, amount=Decimal("50.00")) for g in games
    )
    BallCall.objects.bulk_create(
        BallCall(game=g, sequence=i + 1, number=i + 1, called_at=at, called_by=head)
        for g in games
        for i in range(75)
    )
    claims = Claim.objects.bulk_create(
        Claim(game=g, part=p, player_name=f"Player {g.number}", table="1", claimed_at=at)
        for g, p in zip(games, parts, strict=True)
    )
    winners = Winner.objects.bulk_create(
        Winner(
            claim=c, player_name=c.player_name, share=Decimal("50.00"), kind="cash", recorded_at=at
        )
        for c in claims
    )
    Payout.objects.bulk_create(
        Payout(winner=w, amount=w.share, paid_by=head, verified_by=books, paid_at=at)
        for w in winners
    )
    _on_the_floor(head, occasion, at)
    Occasion.objects.filter(pk=occasion.pk).update(status="closed", closed_at=at)
    occasion.refresh_from_db()
    figures = compute_figures(occasion)
    services.save_closeout(
        occasion=occasion,
        opening_bank=Decimal("500.00"),
        cash_counted=figures["cash"]["expected"] + Decimal("500.00"),
        counts={c["category"]: c["recorded"] for c in figures["counts"]},
        explanation="",
        by=books,
        # The cash count's second person (3.04(1)(e)): the head, who worked the night, types
        # their own password.
        cash_verified_by=head,
        cash_verifier_secret=PASSWORD,
    )
    return services.file_report(occasion=occasion, by=books)


def _on_the_floor(user: Any, occasion: Any, at: dt.datetime) -> None:
    """``user`` a member on the year's worker list, signed in at ``at``."""
    from occasions.models import WorkerPresence
    from organizations import services as organization_services
    from organizations.models import OrganizationRole, WorkerList, WorkerListEntry

    person = organization_services.add_member(
        organization=occasion.organization,
        by=None,
        legal_name="Bench Head",
        date_of_birth=dt.date(1960, 1, 1),
        kind="member",
        since=dt.date(2015, 1, 1),
    ).person
    OrganizationRole.objects.filter(user=user, organization=occasion.organization).update(
        person=person
    )
    worker_list, _ = WorkerList.objects.get_or_create(
        organization=occasion.organization, year=occasion.date.year
    )
    entry = WorkerListEntry.objects.create(
        worker_list=worker_list,
        person=person,
        roles=["floor_worker"],
        identification="B-1",
        added_on=dt.date(occasion.date.year, 1, 2),
    )
    WorkerPresence.objects.create(
        occasion=occasion, entry=entry, role="floor_worker", identification="B-1", signed_in_at=at
    )


def timed(fn: Any, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def run(quick: bool = False) -> dict[str, Any]:
    from django.conf import settings

    from reports import pdf, tasks
    from reports.models import FinancialReport, RenderStatus

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("migrate", verbosity=0)
    report = build()
    runs = 2 if quick else 5

    def generate() -> None:
        FinancialReport.objects.filter(pk=report.pk).update(render_status=RenderStatus.QUEUED)
        tasks.render("financial", report.pk)

    generate()  # warm: templates, fonts
    full = timed(generate, runs)
    report.refresh_from_db()
    html_path = Path(tempfile.mkdtemp()) / "report.html"
    html_path.write_text(pdf.render_html(report))
    attachment = pdf.payload(report)

    def weasyprint_only() -> None:
        from weasyprint import HTML

        HTML(filename=str(html_path), base_url=str(ROOT)).write_pdf(
            pdf_variant=pdf.PDF_VARIANT,
            attachments=[],
            pdf_identifier=b"beano-occasions",
        )

    def weasyprint_same_options() -> None:
        pdf.html_to_pdf(html_path.read_text(), attachment)

    weasyprint_only()
    bare = timed(weasyprint_same_options, runs)
    plain = timed(weasyprint_only, runs)
    pages = int(
        next(
            line.split()[-1]
            for line in os.popen(f"pdfinfo {report.pdf.path}").read().splitlines()
            if line.startswith("Pages:")
        )
    )
    median = statistics.median(full)
    baseline = statistics.median(bare)
    return {
        "games": GAMES,
        "admissions": ADMISSIONS,
        "ball_calls": GAMES * 75,
        "pages": pages,
        "runs": runs,
        "generate_median_s": round(median, 3),
        "generate_max_s": round(max(full), 3),
        "weasyprint_from_file_median_s": round(baseline, 3),
        "weasyprint_plain_median_s": round(statistics.median(plain), 3),
        "ratio": round(median / baseline, 3),
        "target_s": TARGET_SECONDS,
        "target_ratio": TARGET_RATIO,
        "met": median <= TARGET_SECONDS and median / baseline <= TARGET_RATIO,
    }


def lines(result: dict[str, Any]) -> list[str]:
    return [
        f"report PDF, {result['games']} games / {result['admissions']} admissions / "
        f"{result['ball_calls']} calls, {result['pages']} pages: "
        f"{result['generate_median_s']:.2f} s median (target ≤ {TARGET_SECONDS:.0f} s)",
        f"report PDF vs WeasyPrint on the same HTML from a file: "
        f"{result['weasyprint_from_file_median_s']:.2f} s → ratio {result['ratio']:.2f} "
        f"(target ≤ {TARGET_RATIO})",
    ]


def markdown(result: dict[str, Any]) -> str:
    from bench.results import load_average, machine

    return "\n".join(
        [
            "## Report generation",
            "",
            f"Taken {result['taken']} on {machine()}, load average {load_average()}. "
            f"A night of {result['games']} games (every one of the 75 balls called in each: "
            f"{result['ball_calls']:,} calls), {result['admissions']} admissions with extras, "
            f"a winner and payout per game, closed out and filed; its PDF/A-3a "
            f"({result['pages']} pages, figures.json embedded) made by the task's own code "
            f"(`reports.tasks.render`: the figures read back, the HTML rendered, WeasyPrint, "
            f"the file saved), {result['runs']} runs after a warm-up.",
            "",
            "| | median | max |",
            "|---|---|---|",
            f"| The report PDF, as the worker makes it | {result['generate_median_s']:.2f} s | "
            f"{result['generate_max_s']:.2f} s |",
            f"| WeasyPrint on the same HTML read from a file, same options (PDF/A-3a, "
            f"the JSON attached) | {result['weasyprint_from_file_median_s']:.2f} s | |",
            f"| WeasyPrint on that file, plain PDF/A without the attachment | "
            f"{result['weasyprint_plain_median_s']:.2f} s | |",
            "",
            f"Ratio {result['ratio']:.2f} (target ≤ {TARGET_RATIO}); "
            f"{'met' if result['met'] else 'not met'}: the PDF costs WeasyPrint's layout of four "
            "pages of tables; the application's own share (reading the figures, the template) "
            "is the difference.",
            "",
        ]
    )


def main() -> int:
    quick = "--quick" in sys.argv
    result = run(quick=quick)
    for line in lines(result):
        print(line)
    if not quick:
        import datetime as _dt

        from bench.results import save

        result["taken"] = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
        save("report", result, markdown(result))
        print("wrote the report generation's section of bench/RESULTS.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
