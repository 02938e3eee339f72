"""The filed report is readable by everyone (issue 39): a tagged PDF/A-3a whose structure a
screen reader follows (the headings, each table's column and row headers tied to its cells, the
page's reading order, the page headers and footers left out of it), in its language, its title
shown; the blank control sheets are tagged the same way. A 14-game night prints each game's
number whole in the games' "#" column ("12", never "1" over "2")."""

from __future__ import annotations

import logging
import re
import subprocess
import zlib
from decimal import Decimal
from pathlib import Path

import pytest

from games.models import Arrangement, Game, PrizePart, Winner
from nightfile import control_sheets
from reports import pdf, services
from tests.conftest import PASSWORD
from tests.fixtures.floor import on_floor
from tests.reports.conftest import COUNTS, KNOWN, _win

#: The known night's three games, and eleven more of one $10 winner each.
GAMES = range(4, 15)


def run(*args: str) -> str:
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def pdf_objects(path: Path) -> bytes:
    """The PDF's objects as text: the file with each compressed stream inflated (the catalog is
    kept in a compressed object stream)."""
    data = path.read_bytes()
    inflated = []
    for stream in re.findall(rb"stream\r?\n(.*?)endstream", data, re.S):
        try:
            inflated.append(zlib.decompress(stream))
        except zlib.error:
            continue
    return data + b"\n".join(inflated)


def cells(tree: str, kind: str) -> list[str]:
    """The text of each element of a kind ("TH") in ``pdfinfo -struct-text``'s tree: the quoted
    text of the lines indented under it."""
    found = []
    lines = tree.splitlines()
    for i, line in enumerate(lines):
        if line.strip().split(" ")[0].rstrip(":") != kind:
            continue
        depth = len(line) - len(line.lstrip())
        words = []
        for inner in lines[i + 1 :]:
            if len(inner) - len(inner.lstrip()) <= depth:
                break
            words += re.findall(r'^\s*"(.*)"$', inner)
        found.append(" ".join(words))
    return found


@pytest.fixture
def fourteen_games(known_occasion, tenant):
    """The known night with games 4 to 14 played in the second half, each won for $10, paid in
    cash; closed out and filed."""
    line = Arrangement.objects.get(code="single_line")
    for number in GAMES:
        game = Game.objects.create(
            occasion=known_occasion, number=number, half=2, kind="regular", status="finished"
        )
        part = PrizePart.objects.create(game=game, order=1, arrangement=line, amount=Decimal(10))
        _win(game, part, f"Winner of game {number}", "10.00", Winner.Kind.CASH, True, tenant.head)
    services.save_closeout(
        occasion=known_occasion,
        opening_bank=Decimal("200.00"),
        cash_counted=KNOWN["cash_expected_with_200_bank"] - 10 * len(GAMES),
        counts=COUNTS,
        explanation="Eleven more games, each paid $10 in cash.",
        cash_verified_by=on_floor(tenant.head, known_occasion),
        cash_verifier_secret=PASSWORD,
        by=tenant.bookkeeper,
    )
    return services.file_report(occasion=known_occasion, by=tenant.bookkeeper)


@pytest.fixture
def report_pdf(fourteen_games, tmp_path, caplog) -> Path:
    """The report's PDF; WeasyPrint said nothing wrong while making it (it logs an error for a
    document with no language, or for a picture with no words to say what it shows)."""
    path = tmp_path / "fourteen-games.pdf"
    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        path.write_bytes(pdf.render_pdf(fourteen_games))
    assert [r.getMessage() for r in caplog.records if r.name.startswith("weasyprint")] == []
    return path


def test_the_report_is_a_tagged_pdf_a_3a_in_english_with_its_title(report_pdf):
    info = run("pdfinfo", str(report_pdf))
    assert re.search(r"^Tagged:\s+yes$", info, re.M)
    assert "PDF subtype:    PDF/A-3a" in info and "Level A, Accessible" in info
    assert re.search(r"^Title:\s+Beano financial report — .+ — December 4, 2026$", info, re.M)
    # The PDF/A identification in the document's metadata, where a validator reads it.
    meta = run("pdfinfo", "-meta", str(report_pdf))
    assert re.search(r'pdfaid:part="3"|<pdfaid:part>3<', meta)
    assert re.search(r'pdfaid:conformance="A"|<pdfaid:conformance>A<', meta)
    objects = pdf_objects(report_pdf)
    assert b"/Lang (en)" in objects
    assert b"/DisplayDocTitle true" in objects  # the title, not the file's name, is shown
    assert b"/Marked true" in objects


def test_the_structure_has_the_headings_and_the_tables_headers(report_pdf):
    tree = run("pdfinfo", "-struct-text", str(report_pdf))
    assert re.search(r'H1 \(block\)\n\s+Span \(inline\)\n\s+"Beano financial report"', tree)
    for heading in ("Schedule 1 — Receipts and Beano tax", "Games, prizes and winners"):
        assert re.search(rf'H2 \(block\)\n\s+Span \(inline\)\n\s+"{heading}"', tree), heading
    said = set(cells(tree, "TH"))
    # Column headers (shown in capitals) and row headers: the line a figure is of.
    for expected in ("RECEIPTS FROM SALES", "AMOUNT", "#", "WINNERS", "Gross receipts"):
        assert expected in said, expected
    assert "Total tax due" in said and "Net proceeds" in said
    assert "12" in said  # a game's number heads its row
    # Each cell is tied to its headers: no data cell of a table with headers is left alone.
    assert re.search(r"TD:\n\s+/Headers \[\(\d", tree)
    assert not cells(tree, "Figure")  # no picture, so none without its words


def test_it_is_read_in_the_order_of_the_page_without_the_running_headers(report_pdf):
    tree = run("pdfinfo", "-struct-text", str(report_pdf))
    order = [
        "Beano financial report",
        "Organization",
        "Schedule 1 — Receipts and Beano tax",
        "Schedule 2 — Prizes, expenses and net proceeds",
        "Games, prizes and winners",
        "Winner of game 14",
        "Close-out",
        "Workers present",
        "Totals certified",
        "Head of organization",
    ]
    found = [tree.find(text) for text in order]
    assert -1 not in found, dict(zip(order, found, strict=True))
    assert found == sorted(found)
    # Repeated on every page, the page header and footer are left out of what is read.
    assert "Page 1 of" not in tree and "License BN-" not in tree.split('"Organization"')[0]


def test_no_game_number_wraps_in_its_column(report_pdf):
    text = run("pdftotext", "-layout", str(report_pdf), "-")
    for number in [1, 2, 3, *GAMES]:
        assert re.search(rf"^\s*{number}\s+[12]\s+(Regular|Special)", text, re.M), number
    # No number cut in two, one digit over the other.
    assert not re.search(r"^\s*1\s+2\s+Regular.*\n\s*[0-4]\s*\n", text, re.M)


def test_the_report_looks_right_as_an_image(report_pdf, tmp_path):
    """Rendered to PNG, the pages a person looks at (kept in the test's folder): the games'
    page shows numbers 10 to 14 whole."""
    run("pdftoppm", "-r", "60", "-png", str(report_pdf), str(tmp_path / "page"))
    pages = int(re.search(r"Pages:\s+(\d+)", run("pdfinfo", str(report_pdf)))[1])
    assert len(list(tmp_path.glob("page-*.png"))) == pages


def test_the_blank_control_sheets_are_tagged_too(open_occasion, tmp_path):
    path = tmp_path / "sheets.pdf"
    path.write_bytes(control_sheets.render_pdf(open_occasion))
    assert re.search(r"^Tagged:\s+yes$", run("pdfinfo", str(path)), re.M)
    assert b"/Lang (en)" in pdf_objects(path)
    tree = run("pdfinfo", "-struct-text", str(path))
    assert re.search(r'H1 \(block\)\n\s+Span \(inline\)\n\s+"Sign-in', tree)
    assert cells(tree, "TH") and re.search(r"TD:\n\s+/Headers \[\(\d", tree)
