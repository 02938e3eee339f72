"""The report's figures, computed from the rows of a known night, to the cent."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from reports.figures import compute_figures, differences, digest, to_json
from tests.conftest import PASSWORD
from tests.reports.conftest import COUNTS, KNOWN

D = Decimal


def test_gross_receipts_tax_prizes_and_net_to_the_cent(counted):
    f = compute_figures(counted)
    assert f["receipts"]["door_total"] == KNOWN["door_total"]
    assert f["receipts"]["charity_game_tickets"] == {"quantity": 20, "amount": D("20.00")}
    assert f["receipts"]["refunds"] == D("4.00")
    assert f["receipts"]["gross_receipts"] == KNOWN["gross"]
    assert f["tax"]["rate"] == D("0.05")
    assert f["tax"]["tax"] == KNOWN["tax"]
    assert f["prizes"] == {
        "cash": D("50.00"),
        "merchandise_at_cost": D("30.00"),
        "donated_fair_value": D("80.00"),
        "total": KNOWN["prizes_total"],
        "expensed": KNOWN["prizes_expensed"],
    }
    assert f["door_prizes"]["total"] == D("65.00")
    assert f["door_prizes"]["expensed"] == D("25.00")
    assert f["charity_game_tickets"]["prizes_redeemed"] == D("10.00")
    assert f["expenses"]["total"] == D("200.00")  # the police detail, from its record
    assert f["net"]["net_proceeds"] == KNOWN["net_before_entered_expenses"]


def test_the_voided_sale_is_left_out_and_each_line_is_number_times_price(counted):
    lines = {line["category"]: line for line in compute_figures(counted)["receipts"]["lines"]}
    assert lines["admission"]["quantity"] == 100
    assert lines["admission"]["amount"] == D("200.00")
    assert lines["special"]["unit_price"] == D("2.00")
    assert sum(line["amount"] for line in lines.values()) == KNOWN["door_total"]


def test_an_entered_expense_lowers_net_proceeds(expense):
    f = compute_figures(expense.occasion)
    assert f["expenses"]["total"] == D("300.00")
    assert f["net"]["net_proceeds"] == KNOWN["net_before_entered_expenses"] - D("100.00")


def test_cash_expected_counts_and_no_variance_when_all_agree(counted):
    f = compute_figures(counted)
    assert f["cash"]["expected"] == KNOWN["cash_expected_with_200_bank"]
    assert f["cash"]["variance"] == D("0.00")
    assert {c["category"]: c["counted"] for c in f["counts"]} == COUNTS
    assert all(c["difference"] == 0 for c in f["counts"])
    assert f["variance"]["above_threshold"] == []


def test_a_short_count_is_valued_at_its_price_and_flagged_above_the_threshold(counted, tenant):
    from reports import services

    services.save_closeout(
        occasion=counted,
        opening_bank=D("200.00"),
        cash_counted=D("580.00"),
        counts=COUNTS | {"special": 57},
        explanation="",
        cash_verified_by=tenant.head,
        cash_verifier_secret=PASSWORD,
        by=tenant.bookkeeper,
    )
    f = compute_figures(counted)
    special = next(c for c in f["counts"] if c["category"] == "special")
    assert special["difference"] == -3 and special["value_difference"] == D("-6.00")
    assert f["cash"]["variance"] == D("-16.00")
    assert {v["label"] for v in f["variance"]["above_threshold"]} == {
        "Special game cards",
        "Cash",
    }


def test_attendance_and_workers_and_games_are_reported(counted):
    f = compute_figures(counted)
    assert f["attendance"] == {"announced": None, "admissions_sold": 100, "difference": None}
    assert [g["number"] for g in f["games"]] == [1, 2, 3]
    assert f["games"][0]["parts"][0]["winners"][0] == {
        "name": "Ann Cash",
        "share": D("50.00"),
        "kind": "cash",
        "substitute": "",
        "paid": True,
        "w2g": False,
        "form5754": None,  # one winner, no group sharing the prize
    }


def test_interest_on_a_late_filing_is_a_yearly_rate_by_the_day(counted):
    # $22.80 × 12 % × 20 / 365 = $0.1499 → $0.15
    f = compute_figures(counted, filed_on=dt.date(2027, 1, 3), due_on=dt.date(2026, 12, 14))
    assert f["tax"]["days_late"] == 20
    assert f["tax"]["interest_rate"] == D("0.12")
    assert f["tax"]["interest"] == D("0.15")
    assert f["tax"]["total_due"] == D("22.95")
    assert f["net"]["net_proceeds"] == KNOWN["net_before_entered_expenses"] - D("0.15")


def test_a_day_not_played_reports_zeros_and_its_reason(tenant, occasion):
    from occasions import services

    occasion = services.mark_not_played(occasion=occasion, reason="Hall flooded", by=tenant.head)
    f = compute_figures(occasion)
    assert f["occasion"]["played"] is False
    assert f["occasion"]["not_played_reason"] == "Hall flooded"
    assert f["receipts"]["gross_receipts"] == D("0.00")
    assert f["net"]["net_proceeds"] == D("0.00")


def test_json_money_has_two_decimals_and_the_digest_is_stable(counted):
    data = to_json(compute_figures(counted))
    assert data["receipts"]["gross_receipts"] == "456.00"
    assert data["tax"]["rate"] == "0.05"
    assert digest(data) == digest(to_json(compute_figures(counted)))


def test_differences_name_the_figures_that_changed():
    old = {"a": {"b": "1.00", "c": [1, 2]}, "d": "x"}
    new = {"a": {"b": "2.00", "c": [1, 3]}, "d": "x"}
    assert differences(old, new) == [
        {"path": "a.b", "old": "1.00", "new": "2.00"},
        {"path": "a.c[1]", "old": 2, "new": 3},
    ]


def test_differences_name_rows_added_to_a_list_in_one_line():
    old = {"lines": [{"kind_label": "Police detail", "payee": "Officer", "amount": "319.00"}]}
    new = {
        "lines": old["lines"]
        + [{"kind_label": "Supplies", "payee": "Bingo King", "amount": "36.00"}]
    }
    assert differences(old, new) == [
        {"path": "lines", "old": None, "new": "Supplies · Bingo King · 36.00"}
    ]
