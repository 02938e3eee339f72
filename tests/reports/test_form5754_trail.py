"""A prize shared by a group with Form 5754 is followed where the money is: each person's share
(name, masked TIN, amount) on the claims page, the inspector's occasion record, the report's
figures and its PDF, and a Form W-2G for each on the year's register and in the Form 1096
totals. The TINs never show whole."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pytest
from django.urls import reverse
from django.utils import timezone

from reports.figure_sections import games
from reports.figures import compute_figures, to_json
from reports.models import FinancialReport
from reports.pdf import render_html
from reports.w2g_register import register
from tests.conftest import login
from tests.games.test_form5754 import GROUP, big_win, pay  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db

FULL_TINS = ("123456789", "123-45-6789", "987654321")


def _winner_figure(occasion):
    figures, _prizes, _paid = games(occasion)
    return next(w for g in figures for p in g.parts for w in p.winners)


def _shown(text: str) -> None:
    assert "Mary A. Costa" in text and "John Costa" in text
    assert "Form 5754" in text
    assert not any(tin in text for tin in FULL_TINS)


def test_the_report_figures_carry_each_persons_share(tenant, big_win):  # noqa: F811
    occasion = big_win.claim.game.occasion
    assert _winner_figure(occasion).form5754 is None  # not paid yet: no group
    pay(big_win, tenant, GROUP)
    winner = _winner_figure(occasion)
    assert winner.w2g and [(s.name, s.share) for s in winner.form5754] == [
        ("Mary A. Costa", D("40.00")),
        ("John Costa", D("35.00")),
    ]
    assert sum(s.share for s in winner.form5754) == winner.share


def test_a_single_winners_figure_has_no_group(tenant, big_win):  # noqa: F811
    pay(big_win, tenant, [])
    winner = _winner_figure(big_win.claim.game.occasion)
    assert winner.w2g and winner.form5754 is None


def test_the_pdf_names_each_person_of_the_group(tenant, big_win):  # noqa: F811
    pay(big_win, tenant, GROUP)
    occasion = big_win.claim.game.occasion
    figures = to_json(compute_figures(occasion))
    document = FinancialReport(  # not saved: the figures as they would be filed
        pk=999_999,
        organization=tenant.organization,
        occasion=occasion,
        version=1,
        figures=figures,
        figures_sha256="0" * 64,
        filed_at=timezone.now(),
        due_on=occasion.date + dt.timedelta(days=10),
    )
    html = render_html(document)
    _shown(html)
    assert "Form 5754, a W-2G to each: Mary A. Costa" in html and "$35.00" in html


def test_the_claims_page_and_the_record_show_the_shares(
    client,
    tenant,
    other_tenant,
    inspector,
    big_win,  # noqa: F811
):
    pay(big_win, tenant, GROUP)
    game = big_win.claim.game
    claims = reverse(
        "game_claims",
        kwargs={"org_id": tenant.organization.pk, "pk": game.occasion_id, "game_pk": game.pk},
    )
    record = reverse("occasion_record", args=[tenant.organization.pk, game.occasion_id])
    # The group's members are personal data: the member in charge is told there is a Form 5754,
    # not who is on it; the head (with a second factor) sees them.
    login(client, tenant.member_in_charge)
    page = client.get(claims).content.decode()
    assert "Mary A. Costa" not in page and "••••4321" not in page
    assert "Form 5754, shared by a group of" in page
    login(client, tenant.head)
    page = client.get(claims).content.decode()
    _shown(page)
    assert "••••4321" in page and "$35.00" in page
    login(client, inspector)
    for url in (claims, record):
        response = client.get(url)
        assert response.status_code == 200
        _shown(response.content.decode())
    assert "John Costa $35.00 (TIN ••••4321)" in client.get(record).content.decode()
    assert client.post(claims, {}).status_code in (403, 405)
    login(client, other_tenant.head)
    assert client.get(claims).status_code == 404
    assert client.get(record).status_code == 404


def test_the_register_makes_a_w2g_for_each_person_and_counts_them_on_the_1096(
    client,
    tenant,
    big_win,  # noqa: F811
):
    pay(big_win, tenant, GROUP)
    r = register(tenant.organization, 2026)
    assert [(line.payee, line.amount, line.shared_from) for line in r.lines] == [
        ("Mary A. Costa", D("40.00"), "Mary A. Costa"),
        ("John Costa", D("35.00"), "Mary A. Costa"),
    ]
    assert (r.forms, r.total) == (2, D("75.00"))  # box 3: one form per person; box 5: the prize
    login(client, tenant.bookkeeper)
    page = client.get(reverse("w2g_register", args=[tenant.organization.pk, 2026]))
    text = page.content.decode()
    _shown(text)
    assert "$75.00" in text and ">2<" in text
    csv = client.get(reverse("w2g_register_csv", args=[tenant.organization.pk, 2026]))
    lines = b"".join(csv.streaming_content).decode().splitlines()
    assert lines[2].endswith(",35.00,no,Mary A. Costa")
    assert lines[-1] == "Form 1096,Forms W-2G,2,Total winnings,75.00"
