"""The demo's practice occasion: open at whatever hour ``seed_demo`` runs, and one for each day.
Seeded here at the hours it tests, on a database of its own (not the module-seeded demo)."""

import datetime as dt
from zoneinfo import ZoneInfo

import django.utils.timezone
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from organizations.audit import verify_chain
from organizations.models import Organization
from tests.conftest import login
from tests.test_seed_demo import check_practice_night


def test_the_practice_occasion_is_open_at_any_hour_and_each_day_has_its_own(
    db, client, capsys, monkeypatch
):
    """Seeded at 00:05 the practice night opens 30 seconds after midnight; on a later day, at
    23:55, seeding adds that day's open night and leaves the earlier one as it was; in the first
    seconds of a day, or after a user began the day themselves, the steps still fit."""
    from beano.demo.practice_hall import NAME, seed_practice_hall
    from beano.demo.practice_night import seed_practice_night
    from occasions import floor_services
    from occasions import services as occasion_services
    from occasions.models import Occasion
    from organizations.models import AuditEvent, WorkerListEntry
    from reports.selectors import obligations

    tz = ZoneInfo("America/New_York")
    clock = {"now": dt.datetime(2026, 12, 4, 0, 5, tzinfo=tz)}
    monkeypatch.setattr(django.utils.timezone, "now", lambda: clock["now"])

    def seed_practice(day: dt.date, hour: int, minute: int, second: int = 0):
        """``seed_demo``'s practice part, the rest of the demo being seeded already."""
        clock["now"] = dt.datetime.combine(day, dt.time(hour, minute, second), tzinfo=tz)
        seed_practice_hall(day)
        return seed_practice_night(day)

    call_command("seed_demo", "--no-pdfs", force=True)
    out = capsys.readouterr().out
    friday = check_practice_night(dt.date(2026, 12, 4))
    assert friday.opened_at == dt.datetime(2026, 12, 4, 0, 0, 30, tzinfo=tz)
    assert f"/org/{friday.organization_id}/occasions/{friday.pk}/" in out
    assert "practice-mic, practice-caller, practice-door and practice-books are signed in" in out
    hall = friday.organization
    assert obligations([hall]) == []  # a practice license's days owe no report
    license = hall.licenses.get()
    assert license.authorized_weekdays == [0, 1, 2, 3, 4, 5, 6]
    assert (license.start_time, license.end_time) == (dt.time(0, 0), dt.time(23, 59, 59))
    friday_events = AuditEvent.objects.filter(organization=hall).count()

    saturday = seed_practice(dt.date(2026, 12, 5), 23, 55)
    assert check_practice_night(dt.date(2026, 12, 5)) == saturday
    assert AuditEvent.objects.filter(organization=hall).count() > friday_events
    friday.refresh_from_db()
    assert friday.status == Occasion.Status.OPEN  # left alone: its game still in play
    assert friday.games.get(number=1).status == "in_play"
    events = AuditEvent.objects.filter(organization=hall).count()
    assert seed_practice(dt.date(2026, 12, 5), 23, 56) == saturday
    assert AuditEvent.objects.filter(organization=hall).count() == events  # nothing again

    # Three seconds into Sunday: the steps are drawn closer, between midnight and now.
    sunday = seed_practice(dt.date(2026, 12, 6), 0, 0, 3)
    check_practice_night(dt.date(2026, 12, 6))
    assert sunday.opened_at < clock["now"]

    # Monday at 9:00 the member in charge began the day themselves: seeding at 9:00:20 opens
    # after what they recorded.
    clock["now"] = dt.datetime(2026, 12, 7, 9, 0, tzinfo=tz)
    mic = get_user_model().objects.get(username="practice-mic")  # Jordan Vale's login
    monday = occasion_services.occasion_for_day(organization=hall, day=dt.date(2026, 12, 7), by=mic)
    jordan = WorkerListEntry.objects.get(
        worker_list__organization=hall, person__legal_name="Jordan Vale"
    )
    floor_services.sign_in_worker(
        occasion=monday,
        entry=jordan,
        role="member_in_charge",
        identification=jordan.identification,
        by=mic,
    )
    floor_services.confirm_check(occasion=monday, item="no_alcohol", by=mic)
    monday = seed_practice(dt.date(2026, 12, 7), 9, 0, 20)
    check_practice_night(dt.date(2026, 12, 7))
    assert monday.opened_at > dt.datetime(2026, 12, 7, 9, 0, tzinfo=tz)
    assert all(verify_chain(org).ok for org in Organization.objects.filter(name=NAME))

    # The member in charge finds it on the dashboard, labelled practice, with the floor's pages.
    login(client, mic)
    page = client.get(reverse("dashboard")).content.decode()
    card = page[page.index(NAME) :]
    assert "Practice — not a licensee" in card and "Open now:" in card
    assert reverse("door_sales", args=[hall.pk, monday.pk]) in card
    detail = client.get(reverse("occasion_detail", args=[hall.pk, monday.pk])).content.decode()
    assert "Practice — not reported" in detail
