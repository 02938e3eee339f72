"""The demo's bookkeeper uploads the example night file from her browser (issue 43, item 4, its
"Done when"): from the Reports page, "Upload a night file"; a file with a door prize over the
limit is refused in the dry run, the sheet, the time and the citation named, nothing saved; the
example night itself (docs/formats/night-example.json, as shipped when the demo's calendar
leaves its day free, else moved to a free day as the demo moves it: ``beano.demo.night_upload``)
shows its figures; one confirmation records it, and she lands on the recorded night.
Screenshots at 1366×768 in the test's folder (and in ``$BEANO_SHOTS`` if set)."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from beano.demo.night_upload import example_night
from beano.demo.reports import NIGHT_FILE
from nightfile.models import NightUpload
from occasions.models import Occasion, PaperRecord
from organizations.models import Organization
from tests.browser.conftest import second_factor
from tests.browser.night_steps import log_in
from tests.demo_snapshot import seed_demo

pytestmark = pytest.mark.browser

POST = "American Legion Post 171"


def test_the_bookkeeper_uploads_the_example_night_and_lands_on_it(live_server, page, tmp_path):
    seed_demo()
    org = Organization.objects.get(name=POST)
    example = example_night(timezone.localdate())
    assert example is not None, "the demo leaves a past authorized day free for the example"
    if example.as_shipped:
        good = NIGHT_FILE
    else:
        good = tmp_path / NIGHT_FILE.name
        good.write_text(json.dumps(example.data))
    refused = tmp_path / "night-refused.json"
    too_dear = json.loads(json.dumps(example.data))
    too_dear["door_prizes"][0]["value"] = "250.00"  # over the $200 a door prize may be worth
    refused.write_text(json.dumps(too_dear))

    def shot(name: str) -> None:
        path = tmp_path / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        if os.environ.get("BEANO_SHOTS"):
            Path(os.environ["BEANO_SHOTS"]).mkdir(parents=True, exist_ok=True)
            shutil.copy(path, Path(os.environ["BEANO_SHOTS"]) / path.name)

    log_in(page, live_server.url + reverse("reports_home", args=[org.pk]), "post171-books")
    second_factor(page, "post171-books")
    page.get_by_role("link", name="Upload a night file").click()
    expect(page.get_by_role("heading", name="Upload a night file")).to_be_visible()

    # A night the rules refuse: the sheet, the act, its time and the citation; nothing saved.
    page.get_by_label("Night file").set_input_files(str(refused))
    page.get_by_role("button", name="Judge it (dry run)").click()
    alert = page.get_by_role("alert").filter(has_text="refused; nothing was saved")
    expect(alert).to_contain_text("Extras, door prize (Poinsettia) at 9:35 PM:")
    expect(alert.locator(".citation")).to_contain_text("961 CMR 3.04(8)(e)")
    expect(page.get_by_role("button", name="Record this night")).to_have_count(0)
    shot("night-upload-refused")
    assert not Occasion.objects.filter(organization=org, date=example.day).exists()

    # The example night: its figures in the dry run, still nothing saved.
    page.get_by_label("Night file").set_input_files(str(good))
    page.get_by_role("button", name="Judge it (dry run)").click()
    dry_run = page.locator(".dry-run")
    expect(dry_run).to_contain_text("Dry run: every act accepted; nothing is saved yet")
    expect(dry_run).to_contain_text(f"{example.day:%A, %B} {example.day.day}, {example.day.year}")
    figures = dry_run.locator(".night-figures")
    for label, amount in (
        ("Gross receipts", "$513.00"),
        ("Beano tax", "$25.65"),
        ("Prizes", "$285.00"),
        ("Net proceeds", "$12.35"),
    ):
        expect(figures.locator("tr").filter(has_text=label)).to_contain_text(amount)
    shot("night-upload-dry-run")
    assert not Occasion.objects.filter(organization=org, date=example.day).exists()

    # One confirmation records it, and she is on the night recorded.
    page.get_by_role("button", name="Record this night").click()
    page.wait_for_url(re.compile(r"/occasions/\d+/$"))
    night = Occasion.objects.get(organization=org, date=example.day)
    assert page.url.endswith(reverse("occasion_detail", args=[org.pk, night.pk]))
    expect(page.get_by_text(f"{good.name}: the night is recorded.")).to_be_visible()
    assert night.status == Occasion.Status.CLOSED
    record = PaperRecord.objects.get(occasion=night)
    assert record.source == "file" and record.entered_by.username == "post171-books"
    assert NightUpload.objects.get(organization=org).state == NightUpload.State.RECORDED
    shot("night-upload-recorded")
