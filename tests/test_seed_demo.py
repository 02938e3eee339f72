"""What ``seed_demo`` loads, read from one seeding for the module (``seeded_demo``); the
practice hall's days, seeded at other hours, are in test_seed_demo_practice.py."""

import datetime as dt

import django.utils.timezone
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.management import call_command
from django.urls import reverse

from beano.settings import PROJECT_APPS
from organizations.audit import verify_chain
from organizations.models import Organization, Person
from tests.conftest import login

#: Every table of the project's apps: whatever a later issue adds to the demo is covered.
APPS = ("rules", *PROJECT_APPS)


def _models() -> list:
    labels = {c.label for c in apps.get_app_configs()}
    return [m for label in APPS if label in labels for m in apps.get_app_config(label).get_models()]


def check_practice_night(day: dt.date):
    """The practice hall's occasion of ``day``, checked open and ready: its workers signed in, the
    price list posted, the checklist confirmed, the short program planned with game 1 announced,
    its balls confirmed and begun (no ball called), and its flashboard link made."""
    from beano.demo.practice_hall import NAME, PEOPLE
    from beano.demo.practice_night import PRACTICE_PROGRAM
    from beano.rules.opening import CHECKLIST
    from games.models import Flashboard, Game
    from occasions.models import Occasion

    occasion = Occasion.objects.get(organization__name=NAME, date=day)
    assert occasion.status == Occasion.Status.OPEN and occasion.license.practice
    assert django.utils.timezone.localtime(occasion.opened_at).date() == day
    assert occasion.opened_at <= django.utils.timezone.now()
    present = occasion.presences.present()
    assert sorted(p.entry.person.legal_name for p in present) == sorted(n for n, *_ in PEOPLE)
    assert present.filter(role="member_in_charge").exists()
    assert occasion.price_items.filter(category="admission").exists()
    assert occasion.opening_checks.count() == len(CHECKLIST)
    games = list(occasion.games.order_by("number"))
    assert [g.number for g in games] == [n for n, *_ in PRACTICE_PROGRAM]
    first = games[0]
    assert first.status == Game.Status.IN_PLAY and not first.calls.exists()
    assert occasion.opened_at < first.balls_confirmed_at < first.started_at
    assert all(p.announced_at is not None for p in first.parts.all())
    assert all(g.status == Game.Status.PLANNED for g in games[1:])
    assert Flashboard.objects.get(occasion=occasion).revoked_at is None
    return occasion


def _dump() -> str:
    users = get_user_model().objects.order_by("pk")
    rows = [serializers.serialize("json", m.objects.order_by("pk")) for m in _models()]
    rows.append(serializers.serialize("json", users, fields=["username", "is_staff", "groups"]))
    return "\n".join(rows)


def test_seed_demo_twice_gives_the_same_data(seeded_demo, db, capsys):
    first = _dump()
    call_command("seed_demo", "--no-pdfs", force=True)
    out = capsys.readouterr().out
    assert _dump() == first
    assert "Beano-Demo-2026" in out and "post171-mic" in out and "inspector" in out


def test_seed_demo_gives_every_role_a_login_and_a_working_password(seeded_demo, db, client):
    for username in (
        "post171-head",
        "post171-mic",
        "post171-books",
        "post171-worker",
        "stanne-mic",
        "inspector",
        "inspector-south",
        "commission-admin",
        "practice-head",
        "practice-mic",
        "practice-caller",
        "practice-door",
        "practice-books",
    ):
        response = client.post(
            reverse("login"), {"username": username, "password": "Beano-Demo-2026"}
        )
        assert response.status_code == 302 and "_auth_user_id" in client.session, username
        client.logout()
    # The two licensees with logins, the two with worker lists only, and the practice hall.
    assert Organization.objects.count() == 5
    assert Organization.objects.filter(licenses__practice=True).count() == 1
    assert all(verify_chain(org).ok for org in Organization.objects.all())
    # On four organizations' worker lists this year: the most 3.04(1)(c) allows.
    shared = Person.objects.get(legal_name="Mary Gallagher")
    assert shared.memberships.count() == 4
    assert shared.worker_list_entries.filter(removed_on__isnull=True).count() == 4


def test_seed_demo_gives_each_organization_a_complete_worker_list(seeded_demo, db):
    from django.utils import timezone

    from organizations.worker_selectors import worker_list_review

    today = timezone.localdate()
    for org in Organization.objects.all():
        review = worker_list_review(org, today.year, today=today)
        assert review.warnings == [], org
        assert review.ineligible_count == 0, org
        roles = {role for r in review.active for role in r.entry.roles}
        assert {"member_in_charge", "gross_receipts", "caller", "bookkeeper"} <= roles


def test_seed_demo_plays_a_real_night_through_the_services(seeded_demo, db):
    from decimal import Decimal

    from beano.rules.models import RefusedAction
    from games.claims_selectors import on_worker_list
    from games.jackpot_selectors import series_lines
    from games.models import Flashboard, Game, JackpotLedgerEntry, Payout, Winner
    from occasions.models import Occasion

    # One refusal, on purpose: Post 171's head tried to sign in a worker without an ID.
    (refused,) = RefusedAction.objects.all()
    assert (refused.username, refused.action) == ("post171-head", "occasion.sign_in_worker")
    assert refused.citations == "961 CMR 3.04(1)(d)"
    assert "Emily Souza" in refused.violations[0]["message"]
    closed = Occasion.objects.get(
        organization__name="American Legion Post 171",
        status=Occasion.Status.CLOSED,
        paper_records__isnull=True,  # the night played live (another was brought in on paper)
    )
    games = list(closed.games.order_by("number"))
    assert [g.number for g in games] == list(range(1, 15))
    assert all(g.status == Game.Status.FINISHED for g in games)
    moments = [closed.play_started_at]
    for game in games:
        assert game.balls_confirmed_at < game.started_at < game.finished_at
        moments += [game.started_at, game.finished_at]
    assert moments == sorted(moments) and moments[-1] < closed.closed_at
    announced = closed.attendance_announcement.announced_at
    assert games[7].finished_at < announced < closed.second_half_started_at <= games[8].started_at
    # Every card verified valid before witnesses; every winner paid, verified by another user.
    winners = Winner.objects.filter(claim__game__occasion=closed)
    assert winners.count() == 17
    assert all(w.claim.card_verifications.get().valid for w in winners)
    assert all(w.claim.draw_verifications.exists() for w in winners)
    assert not any(w.person and on_worker_list(w.person, closed) for w in winners)
    for payout in Payout.objects.filter(winner__in=winners):
        assert payout.amount == payout.winner.share and payout.paid_by != payout.verified_by
    shares = sorted(winners.filter(claim__game__number=3).values_list("share", flat=True))
    assert shares == [Decimal("37.00"), Decimal("38.00")]
    assert winners.filter(claim__game__number=4, claim__part__is_bonus=True).exists()
    assert winners.filter(claim__game__number=11).count() == 2
    consolation = winners.get(claim__game__number=13)
    assert (consolation.claim.part.order, consolation.share) == (2, Decimal("100.00"))
    assert consolation.claim.game.calls.count() > 52
    entry = JackpotLedgerEntry.objects.get(occasion=closed)
    assert (entry.paid_kind, entry.carried_out) == ("consolation", Decimal("1500.00"))
    (line,) = [
        x for x in series_lines(closed.organization, closed.date) if x.series.is_active
    ]  # (the series of 2025 was won: beano/demo/last_year.py, test_seed_demo_w2g.py)
    assert line.jackpot == Decimal("1600.00")
    # St. Anne's night goes on: a game in play with balls called, on its flashboard.
    live = Occasion.objects.get(organization__name="St. Anne's Parish", status="open")
    in_play = live.games.get(status=Game.Status.IN_PLAY)
    assert in_play.calls.exists() and live.games.filter(status=Game.Status.FINISHED).exists()
    assert Flashboard.objects.get(occasion=live).revoked_at is None
    # And today's practice occasion is open, at whatever hour this test runs.
    check_practice_night(django.utils.timezone.localdate())


def test_seed_demo_gives_the_commission_logins_a_demo_authenticator(
    seeded_demo, db, client, capsys
):
    """The demo stays usable with two-factor authentication: ``totp_code`` prints the code of
    a demo device, and the inspector logs in with it."""
    import re

    import pytest
    from django.core.management.base import CommandError
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from beano.demo.authenticators import DEMO_DEVICE_NAME, base32_key

    call_command("seed_demo", "--no-pdfs", force=True)
    out = capsys.readouterr().out
    assert "manage.py totp_code USERNAME" in out
    devices = TOTPDevice.objects.filter(name=DEMO_DEVICE_NAME, confirmed=True)
    assert sorted(d.user.username for d in devices) == [
        "commission-admin",
        "inspector",
        "inspector-south",
        "post171-books",
        "post171-head",
        "practice-books",
        "practice-head",
        "stanne-books",
        "stanne-head",
    ]
    inspector = devices.get(user__username="inspector")
    assert base32_key(inspector) in out
    call_command("seed_demo", "--no-pdfs", force=True)
    assert TOTPDevice.objects.get(pk=inspector.pk).key == inspector.key, "kept on a re-seed"
    capsys.readouterr()

    call_command("totp_code", "inspector")
    code = capsys.readouterr().out.strip()
    assert re.fullmatch(r"\d{6}", code)
    client.post(reverse("login"), {"username": "inspector", "password": "Beano-Demo-2026"})
    assert client.get(reverse("dashboard")).status_code == 302
    assert client.post(reverse("otp_verify"), {"code": code}).status_code == 302
    landed = client.get(reverse("dashboard"), follow=True)  # an inspector's is the inspection's
    assert landed.status_code == 200 and landed.redirect_chain[-1][0] == reverse(
        "inspector_dashboard"
    )

    with pytest.raises(CommandError, match="no demo authenticator"):
        call_command("totp_code", "post171-mic")
    TOTPDevice.objects.filter(pk=inspector.pk).update(name="Authenticator app")
    with pytest.raises(CommandError, match="no demo authenticator"):
        call_command("totp_code", "inspector")


def test_seed_demo_gives_every_login_an_email_and_leaves_an_invitation_pending(
    seeded_demo, db, client
):
    """Every demo login has an address at example.org; Post 171's invitation of Joseph Rebello
    is pending (its link works), whatever the day the demo was seeded on."""
    import datetime as dt

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from beano.demo.people import seed_pending_invitation
    from organizations.models import Invitation
    from organizations.people import token_for

    users = get_user_model().objects.exclude(username__contains="@")
    assert users.count() >= 11
    assert all(u.email == f"{u.username}@example.org" for u in users)
    invitation = Invitation.objects.get(email="joseph.rebello@example.org")
    assert invitation.is_pending(timezone.now())
    assert invitation.roles == ["worker"] and invitation.person.legal_name == "Joseph Rebello"
    path = reverse("invitation_accept", kwargs={"token": token_for(invitation)})
    assert client.get(path).status_code == 200
    # A later run, after the link lapsed, sends a new one.
    Invitation.objects.filter(pk=invitation.pk).update(
        expires_at=timezone.now() - dt.timedelta(days=1)
    )
    fresh = seed_pending_invitation()
    assert fresh.pk != invitation.pk and fresh.is_pending(timezone.now())


def test_seed_demo_files_a_report_and_an_amendment_with_pdf_a(seeded_demo, db, tmp_path, settings):
    import subprocess

    from reports import selectors
    from reports.models import FinancialReport

    settings.MEDIA_ROOT = tmp_path / "media"
    call_command("seed_demo", force=True)  # the one test of the demo's PDFs: they are made now
    # (the night of 2025 brought in from paper is filed once: test_seed_demo_w2g.py)
    from beano.demo.last_year import NIGHT

    original, amendment = FinancialReport.objects.exclude(occasion__date=NIGHT).order_by("version")
    assert (original.version, amendment.version) == (1, 2)
    assert amendment.reason and amendment.changes
    assert original.render_status == amendment.render_status == "ready"
    out = tmp_path / "demo.pdf"
    call_command("financial_report", str(amendment.occasion_id), "--output", str(out))
    info = subprocess.run(["pdfinfo", str(out)], capture_output=True, text=True, check=True)
    assert "PDF subtype:    PDF/A-3a" in info.stdout
    post = original.organization
    by_day = {r.obligation.day: r for r in selectors.obligations([post])}
    last = amendment.occasion.date
    assert by_day[last].status == selectors.FILED
    assert by_day[last - dt.timedelta(days=14)].status == selectors.LATE  # not played, not filed
    # The week between, nothing recorded: missing once its due date has passed, due before it
    # (the demo is laid out from today: from a Saturday to a Monday its due date is still ahead).
    between = by_day[last - dt.timedelta(days=7)]
    past_due = django.utils.timezone.localdate() > between.obligation.due_on
    assert between.status == (selectors.MISSING if past_due else selectors.DUE)


def test_seed_demo_gives_every_login_an_address_and_sends_a_reminder(seeded_demo, db):
    from reports.reminder_models import ReminderKind, SentReminder

    users = get_user_model().objects.filter(username__in=["post171-head", "post171-books"])
    assert {u.email for u in users} == {"post171-head@example.org", "post171-books@example.org"}
    logins = ["post171-mic", "stanne-worker", "inspector", "inspector-south", "commission-admin"]
    assert all(
        u.email == f"{u.username}@example.org"
        for u in get_user_model().objects.filter(username__in=logins)
    )
    late = SentReminder.objects.filter(
        organization__name="American Legion Post 171", kind=ReminderKind.REPORT_LATE
    )
    assert {r.user.username for r in late} >= {"post171-head", "post171-books"}
    assert all(r.emailed for r in late)


def test_seed_demo_keeps_the_figures_of_its_closed_nights_and_checkpoints_its_chains(
    seeded_demo, db, client
):
    """The inspector's pages show the demo's nights from the kept figures, equal to the ones
    recomputed; every chain has been checked whole, and the audit trail page says when."""
    from occasions.models import Occasion
    from organizations.models import AuditChain, ChainVerification
    from reports.kept_models import KeptOccasionFigures, KeptStatewideMonth
    from tests.reports.test_kept import kept, months_kept, months_recomputed, recomputed

    closed = list(Occasion.objects.filter(status=Occasion.Status.CLOSED))
    assert closed and KeptOccasionFigures.objects.count() == len(closed)
    for occasion in closed:
        assert kept(occasion) == recomputed(occasion)
    assert months_kept() == months_recomputed() and KeptStatewideMonth.objects.exists()
    assert KeptOccasionFigures.objects.exclude(net_proceeds=None).exists()  # a filed report
    chains = AuditChain.objects.exclude(length=0)
    verified = ChainVerification.objects.filter(problem="", verified_at__isnull=False)
    assert verified.count() == chains.count()
    head = get_user_model().objects.get(username="post171-head")
    login(client, head)
    org = Organization.objects.get(user_roles__user=head)
    page = client.get(reverse("audit_log", args=[org.pk])).content.decode()
    assert "Checked now from event" in page and "The whole chain was last verified" in page


def test_the_occasion_pages_extras_card_totals_what_the_extras_page_lists(
    seeded_demo, db, django_assert_num_queries
):
    """The card's totals, read in one query, are the sums of the rows the extras page lists, on
    every night of the demo (a night with each kind recorded among them)."""
    from occasions.extras_selectors import extras_summary, extras_totals
    from occasions.models import Occasion

    names = (
        "door_prize_limit",
        "door_prizes_total",
        "raffle_tickets_total",
        "charity_sales_total",
        "other_sales_total",
        "police_total",
    )
    every_kind = 0
    for occasion in Occasion.objects.all():
        listed = extras_summary(occasion)
        with django_assert_num_queries(1):
            totals = extras_totals(occasion)
        assert [getattr(totals, n) for n in names] == [getattr(listed, n) for n in names]
        every_kind += all(getattr(totals, n) for n in names[1:])
    assert every_kind
