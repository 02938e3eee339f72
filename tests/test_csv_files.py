"""One CSV writer (``beano.csv_files``) for every download: what a hall typed never runs as a
formula in the bookkeeper's or the inspector's spreadsheet. A payee typed as a formula comes out
as text in every CSV that carries it; a walk over the code finds no other module writing CSV;
and every URL of a CSV download is one this file fetches."""

from __future__ import annotations

import ast
import csv
import io
from decimal import Decimal
from pathlib import Path

import pytest
from django.urls import get_resolver, reverse

from beano.csv_files import FORMULA_START, cell, csv_text, defuse
from games import payout_services
from games.models import Winner
from tests.conftest import PASSWORD, login
from tests.games.claims_helpers import DETAILS
from tests.games.test_form5754 import big_win  # noqa: F401  (the fixture)

ROOT = Path(__file__).resolve().parent.parent
APPS = ("beano", "organizations", "occasions", "equipment", "games", "reports", "inspections")
FORMULA = '=HYPERLINK("http://evil.example","click")'
#: Every URL whose name ends in .csv, and the test below that fetches it with a formula in it.
CSV_URLS = {
    "w2g_register_csv",
    "occasion_record_export",
    "inspect_export",
    "inspect_exceptions_csv",
}


def _csv_importers(root: Path) -> list[str]:
    found = []
    for app in APPS:
        for path in (root / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text(), filename=str(path))
            for node in ast.walk(tree):
                names = (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                    if isinstance(node, ast.ImportFrom)
                    else []
                )
                if "csv" in names:
                    found.append(str(path.relative_to(root)))
    return sorted(set(found))


def test_it_finds_no_module_but_the_one_writer_importing_csv():
    assert _csv_importers(ROOT) == ["beano/csv_files.py"]


def test_the_walk_can_fail(tmp_path):
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports" / "sneaky.py").write_text("import csv\n")
    for app in APPS:
        (tmp_path / app).mkdir(exist_ok=True)
    assert _csv_importers(tmp_path) == ["reports/sneaky.py"]


def _csv_url_names(patterns) -> set[str]:
    names = set()
    for p in patterns:
        if hasattr(p, "url_patterns"):
            names |= _csv_url_names(p.url_patterns)
        elif p.name and str(p.pattern).rstrip("$").endswith(".csv"):
            names.add(p.name)
    return names


def test_every_csv_url_is_fetched_here():
    assert _csv_url_names(get_resolver().url_patterns) == CSV_URLS


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (FORMULA, "'" + FORMULA),
        ("+1 617 555 0100", "'+1 617 555 0100"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("Mary Costa", "Mary Costa"),
        (Decimal("-12.5"), "-12.50"),  # an amount stays a number
        (None, ""),
        (True, "yes"),
        (7, 7),
    ],
)
def test_each_cell_is_defused_and_money_written_to_the_cent(value, written):
    assert cell(value) == written
    if isinstance(value, str):
        assert defuse(value) == written


def test_a_file_in_an_archive_is_defused_too():
    text = csv_text(["name"], [[FORMULA]])
    assert list(csv.reader(io.StringIO(text))) == [["name"], ["'" + FORMULA]]


def _cells(response) -> list[str]:
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    text = b"".join(response.streaming_content).decode()
    return [c for row in csv.reader(io.StringIO(text)) for c in row]


def _never_a_formula(cells: list[str]) -> None:
    assert "'" + FORMULA in cells
    assert not [c for c in cells if c.startswith(FORMULA_START)]


@pytest.mark.django_db
def test_a_payee_typed_as_a_formula_is_text_in_every_csv_that_carries_it(
    client,
    tenant,
    inspector,
    big_win,  # noqa: F811
):
    Winner.objects.filter(pk=big_win.pk).update(player_name=FORMULA)
    big_win.refresh_from_db()
    payout_services.record_payout(
        winner=big_win,
        by=tenant.member_in_charge,
        verified_by=tenant.head,
        verifier_secret=PASSWORD,
        w2g=payout_services.W2GDetails(
            **{**DETAILS.__dict__, "legal_name": FORMULA, "address": "+12 Oak St"}
        ),
        group=[],
    )
    org = tenant.organization.pk
    occasion = big_win.claim.game.occasion
    login(client, tenant.bookkeeper)
    year = occasion.date.year
    w2g = _cells(client.get(reverse("w2g_register_csv", args=[org, year])))
    _never_a_formula(w2g)
    assert "'+12 Oak St" in w2g
    record = reverse("occasion_record_export", args=[org, occasion.pk, "payouts"])
    _never_a_formula(_cells(client.get(record)))
    login(client, inspector)
    _never_a_formula(_cells(client.get(reverse("inspect_export", args=["payouts"]))))
    _never_a_formula(_cells(client.get(record)))
    # The exceptions carry no payee; what they carry goes through the same writer.
    exceptions = _cells(client.get(reverse("inspect_exceptions_csv")))
    assert not [c for c in exceptions if c.startswith(FORMULA_START)]
