"""The report's PDF as it is handed to the Commission: a night with very long names keeps every
word of every page inside the page (``pdftotext -bbox``), every winner is in its text, voided
receipts are listed with reason and witness, a game not played says so, the signature block is
on the page of the totals it signs, and the organization's name is printed as typed in the
page header ("St. Anne's", never "St. Anne&#x27;s")."""

from __future__ import annotations

import re
import subprocess
from decimal import Decimal
from pathlib import Path

import pytest

from games.models import Arrangement, Game, PrizePart, Winner
from organizations.models import Organization
from reports import pdf, services
from tests.conftest import PASSWORD
from tests.fixtures.floor import on_floor
from tests.reports.conftest import COUNTS, KNOWN, _win

NAME = "St. Anne's Parish & Hall of the Sacred Heart"
#: As long as the field allows (200 characters; PostgreSQL refuses more), with a word that
#: cannot break.
LONG_DESCRIPTION = (
    "A hand-stitched queen-size heirloom quilt in the Double Wedding Ring pattern, donated by "
    "the Ladies' Sodality, with pillow shams and a Supercalifragilisticexpialidocious"
    "EmbroideredKeepsakeTag"
)
WINNERS = [
    "Maria Conceição Albuquerque-Vasconcelos de Figueiredo",
    "Bartholomew Montgomery Fitzgerald-Worthington III",
    "Wolfeschlegelsteinhausenbergerdorff Hubert Blaine",
    "Anne-Marie Théodora Kowalczyk-Brzęczyszczykiewicz",
    "Christopher Alexander Johnson-MacGillicuddy",
    "Oluwaseun Adebayo Olanrewaju-Ogunleye",
    "Jean-Baptiste Emmanuel Zorg de la Fontaine-Beaumarchais",
    "Siobhán Ní Dhomhnaill-O'Shaughnessy",
]


def run(*args: str) -> str:
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def long_night(known_occasion, tenant):
    """The known night at St. Anne's, with eight winners of very long names sharing one prize,
    a merchandise prize of a very long description, a game not played, its drawer unchanged."""
    Organization.objects.filter(pk=tenant.organization.pk).update(name=NAME)
    occasion = known_occasion
    line = Arrangement.objects.get(code="single_line")
    shared = Game.objects.create(
        occasion=occasion, number=4, half=2, kind="regular", status="finished"
    )
    part = PrizePart.objects.create(game=shared, order=1, arrangement=line, amount=Decimal("80"))
    for name in WINNERS:
        _win(shared, part, name, "10.00", Winner.Kind.CASH, True, tenant.member_in_charge)
    PrizePart.objects.filter(description="Toaster").update(description=LONG_DESCRIPTION)
    planned = Game.objects.create(
        occasion=occasion, number=5, half=2, kind="regular", status="planned"
    )
    PrizePart.objects.create(game=planned, order=1, arrangement=line, amount=Decimal("50"))
    services.save_closeout(
        occasion=occasion,
        opening_bank=Decimal("200.00"),
        cash_counted=KNOWN["cash_expected_with_200_bank"] - Decimal("80.00"),
        counts=COUNTS,
        explanation="The shared game's eight winners were paid in cash.",
        cash_verified_by=on_floor(tenant.head, occasion),
        cash_verifier_secret=PASSWORD,
        by=tenant.bookkeeper,
    )
    return services.file_report(occasion=occasion, by=tenant.bookkeeper)


@pytest.fixture
def long_pdf(long_night, tmp_path) -> Path:
    path = tmp_path / "long-night.pdf"
    path.write_bytes(pdf.render_pdf(long_night))
    return path


def pages_of(path: Path) -> list[str]:
    return run("pdftotext", "-layout", str(path), "-").split("\f")


def test_every_word_of_every_page_is_inside_the_page(long_pdf):
    bbox = run("pdftotext", "-bbox", str(long_pdf), "-")
    pages = re.findall(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', bbox, re.S)
    assert len(pages) >= 2
    outside = []
    for number, (width, height, body) in enumerate(pages, start=1):
        w, h = float(width), float(height)
        for x0, y0, x1, y1, word in re.findall(
            r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>',
            body,
        ):
            # Inside the page, and clear of its edge by at least a few points.
            if float(x0) < 5 or float(x1) > w - 5 or float(y0) < 5 or float(y1) > h - 5:
                outside.append((number, word, x0, x1))
    assert not outside


def test_every_winner_and_the_long_description_are_in_the_text(long_pdf):
    # pdftotext joins a word broken after its hyphen at the end of a line: compare without
    # spaces and hyphens.
    text = re.sub(r"[\s-]+", "", run("pdftotext", str(long_pdf), "-"))
    for name in WINNERS:
        assert re.sub(r"[\s-]+", "", name) in text, name
    assert re.sub(r"[\s-]+", "", LONG_DESCRIPTION) in text


def test_the_organizations_name_is_printed_as_typed(long_pdf):
    text = run("pdftotext", "-layout", str(long_pdf), "-")
    header_lines = [line for line in text.splitlines() if "License" in line and "St. Anne" in line]
    assert header_lines and all("St. Anne's Parish & Hall" in line for line in header_lines)
    assert "&#x27;" not in text and "&amp;" not in text


def test_voids_and_a_game_not_played_are_shown(long_pdf):
    text = " ".join(run("pdftotext", "-layout", str(long_pdf), "-").split())
    assert "Voided receipts" in text and "Rung twice" in text
    assert "post-one-head" in text  # the witness of the known night's void
    assert "Not played" in text


def test_the_signature_block_is_on_the_page_of_the_totals_it_signs(long_pdf):
    pages = pages_of(long_pdf)
    signing = [p for p in pages if "Head of organization" in p]
    assert len(signing) == 1
    assert "Totals certified" in signing[0] and "Net proceeds" in signing[0]
    assert "Total tax due" in signing[0]


def test_the_long_night_looks_right_as_an_image(long_pdf, tmp_path):
    """Rendered to PNG, the pages a person would look at (kept in the test's folder)."""
    run("pdftoppm", "-r", "60", "-png", str(long_pdf), str(tmp_path / "page"))
    pages = int(re.search(r"Pages:\s+(\d+)", run("pdfinfo", str(long_pdf)))[1])
    assert len(list(tmp_path.glob("page-*.png"))) == pages
