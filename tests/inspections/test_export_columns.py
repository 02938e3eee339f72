"""The occasions CSV carries each report's status, its tax and net proceeds as filed; the sales
CSV who voided a sale and who witnessed the void."""

from __future__ import annotations

from reports import selectors, services
from tests.conftest import login
from tests.inspections.test_exports import _rows


def test_the_occasions_csv_carries_report_status_tax_and_net(client, counted, tenant, inspector):
    login(client, inspector)
    header, row = _rows(client, "occasions", date_from="2026-12-01", date_to="2026-12-31")
    assert header[-3:] == ["report status", "Beano tax (as filed)", "net proceeds (as filed)"]
    # The state every page says (``reports.obligations``), not a word of the export's own.
    owed = selectors.reports_of_occasions([counted])[counted.pk]
    assert owed.versions == 0 and row[-3:] == [owed.label.lower(), "", ""]
    services.file_report(occasion=counted, by=tenant.bookkeeper)
    header, row = _rows(client, "occasions", date_from="2026-12-01", date_to="2026-12-31")
    filed = selectors.reports_of_occasions([counted])[counted.pk].label.lower()
    assert filed in ("filed", "filed late") and row[-3:] == [filed, "22.80", "118.20"]
    services.open_amendment(
        occasion=counted, reason="A count was mistyped by the bookkeeper.", by=tenant.bookkeeper
    )
    header, row = _rows(client, "occasions", date_from="2026-12-01", date_to="2026-12-31")
    assert row[-3] == f"{filed}, amendment open (version 1 filed)"


def test_the_sales_csv_carries_the_voider_and_the_witness(client, known_occasion, inspector):
    login(client, inspector)
    rows = _rows(client, "sales", date_from="2026-12-01", date_to="2026-12-31")
    header = rows[0]
    assert header[-2:] == ["voided by", "void witness"]
    voided = [r for r in rows[1:] if r[header.index("voided")] == "yes"]
    kept = [r for r in rows[1:] if r[header.index("voided")] == "no"]
    assert voided and all(r[-2:] == ["post-one-member_in_charge", "post-one-head"] for r in voided)
    assert kept and all(r[-2:] == ["", ""] for r in kept)
