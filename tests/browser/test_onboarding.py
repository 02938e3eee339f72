"""A Commission admin licenses a new organization through the pages only: the organization and
its license (weekdays ticked, hours as times), the Director's letter uploaded, the winning
arrangements it grants; the listing then says what comes next (its head)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import ArrangementAuthorization
from organizations.models import AuditEvent, DirectorAuthorization, License, Organization
from tests.browser.onboarding_steps import add_westport, admin_logs_in


@pytest.mark.browser
def test_a_commission_admin_onboards_an_organization(
    live_server, page, commission_admin, tmp_path, settings
):
    settings.MEDIA_ROOT = tmp_path / "media"

    def shot(name: str) -> None:
        # Nothing wider than a hall laptop's screen (the navigation bar included).
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), name
        page.screenshot(path=str(tmp_path / f"{name}.png"), full_page=True)

    admin_logs_in(page, live_server.url, commission_admin)
    add_westport(page, lambda: shot("1-add-organization"))

    row = page.locator("tr", has_text="Westport Lions Club")
    expect(row).to_contain_text("Wednesday, Saturday")
    expect(row).to_contain_text("Next step:")
    shot("2-licensing-list")
    org = Organization.objects.get(name="Westport Lions Club")
    lic = License.objects.get(organization=org)
    assert lic.authorized_weekdays == [2, 5] and str(lic.start_time) == "18:30:00"

    letter = tmp_path / "director-letter.pdf"
    letter.write_bytes(b"%PDF-1.4\n% the Director's letter\n")
    row.get_by_role("link", name="Director's letter").click()
    page.get_by_label("What it authorizes").select_option("6c_arrangement")
    page.get_by_label("Reference number").fill("MSLC-2027-0140-6C")
    page.get_by_label("Subject").fill("Four corners, letter X, coverall")
    page.get_by_label("Valid from").fill("2027-01-01")
    page.get_by_label("Signed by").fill("Director, Charitable Gaming Division")
    page.get_by_label("The Director's letter").set_input_files(str(letter))
    shot("3-directors-letter")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("The Director's authorization of Westport Lions Club")).to_be_visible()

    page.locator("tr", has_text="Westport Lions Club").get_by_role(
        "link", name="Arrangements"
    ).click()
    authorization = DirectorAuthorization.objects.get(reference_number="MSLC-2027-0140-6C")
    page.get_by_label("The Director's letter").select_option(str(authorization.pk))
    for name in ("Four corners", "Letter X", "Coverall"):
        page.get_by_label(name, exact=True).check()
    shot("4-arrangements")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("The arrangements are granted to Westport Lions Club")).to_be_visible()
    shot("5-done")

    assert authorization.document.read().startswith(b"%PDF-")
    granted = ArrangementAuthorization.objects.filter(authorization=authorization)
    assert sorted(g.arrangement.name for g in granted) == ["Coverall", "Four corners", "Letter X"]
    actions = list(
        AuditEvent.objects.filter(organization=None, action__startswith="commission.")
        .order_by("sequence")
        .values_list("action", flat=True)
    )
    assert actions[-4:] == [
        "commission.organization.added",
        "commission.license.added",
        "commission.authorization.recorded",
        "commission.arrangements.granted",
    ]
