"""A new licensee onboarded end to end through the pages only, each person in a tab of their
own, reading their invitation from the mail as they would:

1. The Commission admin (with the second factor) adds the Westport Lions Club and its license
   (Wednesdays and Saturdays, 6:30–10:30 PM), then invites its head from the listing's "Invite
   its head".
2. The head opens the mailed link, chooses a password, is made to set up the authenticator app
   (the key typed from the page), sees the recovery codes and lands on the dashboard.
3. The head puts two members on the member list and invites one as bookkeeper, the other as
   member in charge, from the People page.
4. The bookkeeper opens the link, chooses a password, sets up the second factor, lands on the
   dashboard; the member in charge opens theirs, chooses a password and lands on the dashboard.
5. The member in charge prepares the club's first occasion, a Wednesday within the license's
   hours, and plans its program: two games with their prizes.

Then the audit events on the club's chain and the Commission's, both intact. Every page is
screenshotted into tmp_path, none wider than the 1366-pixel laptop screen.

The clock is the server's (the live server runs in this process): the first Wednesday of the
license, at 6:35 PM, moving on with the wall clock."""

from __future__ import annotations

import datetime as dt
import re
import time
from base64 import b32decode
from collections.abc import Callable
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import django.utils.timezone
import pytest
from django.core import mail
from django_otp.oath import totp
from playwright.sync_api import expect

from games.models import Game
from occasions.models import Occasion
from organizations.audit import verify_chain
from organizations.models import AuditEvent, Invitation, License, Organization
from tests.browser.night_steps import plan_game
from tests.browser.onboarding_steps import add_westport, admin_logs_in

pytestmark = pytest.mark.browser
ZONE = ZoneInfo("America/New_York")
NIGHT = dt.date(2027, 1, 6)  # a Wednesday, the license's first authorized day
HEAD = "margaret.silva@example.org"
BOOKS = "paul.furtado@example.org"
MIC = "diane.almeida@example.org"
PASSWORDS = {
    HEAD: "Westport-lighthouse-1958",
    BOOKS: "Horseneck-ledger-77",
    MIC: "Cherry-Webb-caller-9",
}


class Shots:
    """Screenshots numbered in the order taken, each page first checked to fit the laptop's
    1366 pixels (the navigation bar included)."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.count = folder, 0

    def __call__(self, page: Any, name: str) -> None:
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), name
        self.count += 1
        page.screenshot(path=str(self.folder / f"{self.count:02d}-{name}.png"), full_page=True)


def mailed_link(to: str) -> str:
    """The link of the newest mail to ``to``, read from its words as the person would."""
    message = [m for m in mail.outbox if to in m.to][-1]
    assert message.subject == "Your login to Beano occasions for Westport Lions Club"
    return re.search(r"http://\S+/invitation/\S+/", message.body).group(0)


def choose_password(tab: Any, link: str, email: str, shot: Shots, name: str) -> None:
    tab.goto(link)
    expect(tab.get_by_role("heading", name="Choose your password")).to_be_visible()
    expect(tab.locator("body")).to_contain_text(email)
    tab.get_by_label("Your password").fill(PASSWORDS[email])
    tab.get_by_label("The same password again").fill(PASSWORDS[email])
    shot(tab, f"{name}-choose-password")
    tab.get_by_role("button", name="Save my password and log in").click()


def enrol_second_factor(tab: Any, shot: Shots, name: str) -> None:
    """Made to set up an authenticator app before anything else: the key typed by hand from
    the page into the "app", its code confirmed, the recovery codes shown, then on."""
    tab.wait_for_url(re.compile(r"/accounts/two-factor/"))
    expect(tab.get_by_role("heading", name="Set up two-factor authentication")).to_be_visible()
    expect(tab.locator(".alert-info")).to_contain_text("heads of organization and bookkeepers")
    expect(tab.get_by_role("link", name="Cancel")).to_have_count(0)  # no way around it
    shot(tab, f"{name}-two-factor-setup")
    key = tab.locator("#totp-key").inner_text().replace(" ", "")
    secret = b32decode(key + "=" * (-len(key) % 8))
    tab.get_by_role("textbox", name="Code from your authenticator").fill(str(totp(secret)).zfill(6))
    tab.get_by_role("button", name="Confirm and turn on").click()
    expect(tab.get_by_role("heading", name="Your recovery codes")).to_be_visible()
    expect(tab.locator(".recovery-codes li")).to_have_count(10)
    shot(tab, f"{name}-recovery-codes")
    tab.get_by_role("link", name="I have kept them — continue").click()


def on_the_dashboard(tab: Any, roles: str, shot: Shots, name: str) -> None:
    expect(tab.get_by_role("heading", name="Dashboard")).to_be_visible()
    card = tab.locator(".card", has=tab.get_by_role("heading", name="Westport Lions Club"))
    expect(card).to_contain_text(f"Your roles: {roles}")
    shot(tab, f"{name}-dashboard")


def add_member(tab: Any, name: str, born: str) -> None:
    tab.get_by_role("link", name=re.compile("Add a member")).click()
    tab.get_by_label("Legal name").fill(name)
    tab.get_by_label("Date of birth").fill(born)
    tab.get_by_label("Standing").select_option(label="Active member in good standing")
    tab.get_by_role("button", name="Add to the membership list").click()
    expect(tab.locator(".alert-success")).to_contain_text(f"{name} was added")


def invite(tab: Any, person: str, email: str, role: str) -> None:
    tab.get_by_role("link", name="Invite someone").click()
    tab.get_by_label("Person").select_option(label=person)
    tab.get_by_label("E-mail address").fill(email)
    tab.get_by_label(role, exact=True).check()
    tab.get_by_role("button", name="Send the invitation").click()
    expect(tab.locator(".alert-success")).to_contain_text(f"The invitation was sent to {email}.")
    row = tab.locator("tr", has_text=email)
    expect(row).to_contain_text("Pending")
    expect(row).to_contain_text(person)


def test_a_new_licensee_onboarded_through_the_pages_only(
    live_server: Any,
    new_tab: Callable[[], Any],
    commission_admin: Any,
    monkeypatch: Any,
    tmp_path: Path,
    settings: Any,
) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    start, started = dt.datetime(2027, 1, 6, 18, 35, tzinfo=ZONE), time.monotonic()
    monkeypatch.setattr(
        django.utils.timezone,
        "now",
        lambda: start + dt.timedelta(seconds=time.monotonic() - started),
    )
    shot = Shots(tmp_path)

    # 1. The Commission admin licenses the club and invites its head.
    admin = new_tab()
    admin_logs_in(admin, live_server.url, commission_admin)
    add_westport(admin, lambda: shot(admin, "admin-add-organization"))
    row = admin.locator("tr", has_text="Westport Lions Club")
    expect(row).to_contain_text("Next step:")
    shot(admin, "admin-licensing")
    row.get_by_role("link", name="Invite its head").click()
    org = Organization.objects.get(name="Westport Lions Club")
    expect(admin.get_by_label("Organization")).to_have_value(str(org.pk))
    admin.get_by_label("The head's e-mail address").fill(HEAD)
    shot(admin, "admin-invite-head")
    admin.get_by_role("button", name="Invite the head of organization").click()
    expect(admin.locator(".alert-success")).to_contain_text(
        f"The invitation was sent to {HEAD}, head of Westport Lions Club."
    )
    shot(admin, "admin-head-invited")

    # 2. The head: the link from the mail, a password, the second factor, the dashboard.
    head = new_tab()
    choose_password(head, mailed_link(HEAD), HEAD, shot, "head")
    enrol_second_factor(head, shot, "head")
    on_the_dashboard(head, "Head of organization", shot, "head")
    expect(head.locator("body")).to_contain_text("Wednesday, January 6")  # the next nights

    # 3. The head: two members on the member list, each invited with their role.
    head.get_by_role("link", name="Westport Lions Club").first.click()
    head.get_by_role("link", name="Members", exact=True).click()
    add_member(head, "Paul Furtado", "1961-03-14")
    add_member(head, "Diane Almeida", "1970-09-02")
    shot(head, "head-members")
    head.get_by_role("link", name="People", exact=True).click()
    invite(head, "Paul Furtado", BOOKS, "Bookkeeper")
    invite(head, "Diane Almeida", MIC, "Member in charge")
    shot(head, "head-people")

    # 4. The bookkeeper and the member in charge, each with their link.
    books = new_tab()
    choose_password(books, mailed_link(BOOKS), BOOKS, shot, "books")
    enrol_second_factor(books, shot, "books")
    on_the_dashboard(books, "Bookkeeper", shot, "books")
    mic = new_tab()
    choose_password(mic, mailed_link(MIC), MIC, shot, "mic")
    expect(mic.locator(".alert-success")).to_contain_text("Your password is saved")
    on_the_dashboard(mic, "Member in charge", shot, "mic")
    head.reload()
    for email in (BOOKS, MIC):
        expect(head.locator("tr", has_text=email)).to_contain_text("Accepted")

    # 5. The member in charge: tonight's occasion prepared and its program planned.
    tonight = mic.locator(".alert", has_text="Tonight, Wednesday, January 6,")
    expect(tonight).to_contain_text("no occasion is prepared yet")
    tonight.get_by_role("link", name="Prepare tonight's occasion").click()
    tonight = mic.locator("tr", has_text="Wednesday, January 6")  # the calendar's row
    expect(tonight).to_contain_text("6:30 PM–10:30 PM")
    expect(tonight).to_contain_text("today")
    expect(mic.locator("tr", has_text="Thursday, January 7")).to_have_count(0)  # not licensed
    shot(mic, "mic-calendar")
    tonight.get_by_role("button", name="Prepare this occasion").click()
    expect(mic.get_by_role("link", name="Plan the program")).to_be_visible()
    expect(mic.get_by_role("link", name="Wednesday, January 6, 2027")).to_be_visible()
    shot(mic, "mic-occasion")
    mic.get_by_role("link", name="Plan the program").click()
    expect(mic.locator("body")).to_contain_text(
        "No arrangement is authorized for January 6, 2027: the Director's written "
        "authorization must name each one"
    )
    shot(mic, "mic-program-no-arrangement")

    # The Commission admin records the Director's letter and the arrangements it grants.
    grant_arrangements(admin, tmp_path, shot)
    mic.reload()
    expect(mic.locator("body")).not_to_contain_text("No arrangement is authorized")
    plan_game(mic, 1, "First half", "Regular", ("Any single line (row, column or diagonal)", "50"))
    plan_game(mic, 2, "Second half", "Regular", ("Four corners", "75"))
    shot(mic, "mic-program")
    mic.get_by_role("link", name="Dashboard", exact=True).click()
    tonight = mic.locator(".tonight")
    expect(tonight).to_contain_text("the occasion is prepared, not open yet")
    expect(tonight.get_by_role("link", name="Tonight's occasion")).to_be_visible()
    shot(mic, "mic-dashboard-prepared")

    occasion = Occasion.objects.get(organization=org)
    assert occasion.date == NIGHT and occasion.license == License.objects.get(organization=org)
    games = Game.objects.filter(occasion=occasion).order_by("number")
    assert [(g.number, g.half, g.kind) for g in games] == [(1, 1, "regular"), (2, 2, "regular")]
    assert [list(g.parts.values_list("arrangement__name", "amount")) for g in games] == [
        [("Any single line (row, column or diagonal)", 50)],
        [("Four corners", 75)],
    ]
    assert {
        i.email: i.accepted_at is not None for i in Invitation.objects.filter(organization=org)
    } == {
        HEAD: True,
        BOOKS: True,
        MIC: True,
    }
    assert_the_audit_trail(org)


def grant_arrangements(admin: Any, tmp_path: Path, shot: Shots) -> None:
    letter = tmp_path / "director-letter.pdf"
    letter.write_bytes(b"%PDF-1.4\n% the Director's letter\n")
    admin.get_by_role("link", name="Licensing", exact=True).first.click()
    row = admin.locator("tr", has_text="Westport Lions Club")
    expect(row).not_to_contain_text("Next step:")  # its head has a login now
    expect(row).to_contain_text(HEAD)
    row.get_by_role("link", name="Director's letter").click()
    admin.get_by_label("What it authorizes").select_option("6c_arrangement")
    admin.get_by_label("Reference number").fill("MSLC-2027-0140-6C")
    admin.get_by_label("Subject").fill("Any single line, four corners")
    admin.get_by_label("Valid from").fill("2027-01-01")
    admin.get_by_label("Signed by").fill("Director, Charitable Gaming Division")
    admin.get_by_label("The Director's letter").set_input_files(str(letter))
    shot(admin, "admin-directors-letter")
    admin.get_by_role("button", name="Save").click()
    expect(admin.get_by_text("The Director's authorization of Westport Lions Club")).to_be_visible()
    admin.locator("tr", has_text="Westport Lions Club").get_by_role(
        "link", name="Arrangements"
    ).click()
    letters = admin.get_by_label("The Director's letter")
    letters.select_option(label=letters.locator("option", has_text="MSLC-2027").inner_text())
    for name in ("Any single line (row, column or diagonal)", "Four corners"):
        admin.get_by_label(name, exact=True).check()
    admin.get_by_role("button", name="Save").click()
    expect(admin.get_by_text("The arrangements are granted to Westport Lions Club")).to_be_visible()
    shot(admin, "admin-arrangements-granted")


def assert_the_audit_trail(org: Organization) -> None:
    """Each act on the club's chain by whom it was done, the Commission's acts and the changes
    of access (authenticators) on the Commission's; both chains intact."""
    admin = "commission-admin"
    club = list(
        AuditEvent.objects.filter(organization=org)
        .order_by("sequence")
        .values_list("action", "actor__username")
    )
    assert club == [
        ("organizations.role.assigned", admin),  # the head, by the Commission
        ("organizations.invitation.sent", admin),
        ("organizations.invitation.accepted", HEAD),
        ("organizations.membership.added", HEAD),
        ("organizations.membership.added", HEAD),
        ("organizations.role.assigned", HEAD),  # the bookkeeper
        ("organizations.invitation.sent", HEAD),
        ("organizations.role.assigned", HEAD),  # the member in charge
        ("organizations.invitation.sent", HEAD),
        ("organizations.invitation.accepted", BOOKS),
        ("organizations.invitation.accepted", MIC),
        ("occasions.occasion.scheduled", MIC),
        ("games.game.added", MIC),
        ("games.prize_part.added", MIC),
        ("games.game.added", MIC),
        ("games.prize_part.added", MIC),
    ]
    commission = list(
        AuditEvent.objects.filter(organization=None)
        .order_by("sequence")
        .values_list("action", "actor__username")
    )
    start = commission.index(("commission.organization.added", admin))
    assert commission[start:] == [
        ("commission.organization.added", admin),
        ("commission.license.added", admin),
        ("organizations.invitation.sent", admin),  # the head's, on both chains
        ("accounts.totp.enrolled", HEAD),
        ("accounts.recovery_codes.made", HEAD),
        ("accounts.totp.enrolled", BOOKS),
        ("accounts.recovery_codes.made", BOOKS),
        ("commission.authorization.recorded", admin),
        ("commission.arrangements.granted", admin),
    ]
    assert str(verify_chain(org)) == f"Intact through event {len(club)}."
    assert verify_chain(None).ok
