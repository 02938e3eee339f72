"""Shared fixtures: two organizations with a user for each role, an outsider's organization,
an inspector (assigned and Commission-wide) and a Commission admin."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from organizations import services
from organizations.models import CommissionStaff, Organization, Role
from tests.builders import PASSWORD as PASSWORD  # the tests import it from here
from tests.builders import CommissionStaffFactory, OrganizationFactory, UserFactory


def make_user(username: str, **extra: Any) -> Any:
    return UserFactory(username=username, **extra)


def make_organization(
    name: str, *, town: str = "Fairhaven", weekdays: list[int] | None = None
) -> Organization:
    return OrganizationFactory(
        name=name,
        town=town,
        license__authorized_weekdays=weekdays if weekdays is not None else [4],
    )


@dataclass
class Tenant:
    organization: Organization
    head: Any
    member_in_charge: Any
    bookkeeper: Any
    worker: Any


def make_tenant(name: str) -> Tenant:
    org = make_organization(name)
    slug = name.lower().replace(" ", "-")
    users = {}
    for role in Role:
        user = make_user(f"{slug}-{role.value}")
        services.assign_role(organization=org, by=None, user=user, role=role.value)
        users[role.value] = user
    return Tenant(
        org, users["head"], users["member_in_charge"], users["bookkeeper"], users["worker"]
    )


def totp_device(user: Any) -> Any:
    """``user``'s confirmed authenticator, as enrolling from the account page leaves it."""
    from django_otp.plugins.otp_totp.models import TOTPDevice

    device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    return device or TOTPDevice.objects.create(user=user, name="Test authenticator", confirmed=True)


def totp_code(device: Any) -> str:
    """The code ``device``'s authenticator app shows now."""
    from django_otp.oath import totp

    token = totp(device.bin_key, device.step, device.t0, device.digits, device.drift)
    return str(token).zfill(device.digits)


def login(client: Any, user: Any) -> Any:
    """Log ``user`` in as the login pages leave them. ``force_login`` stands for the password
    page; a user who must use a second factor (the Commission's staff, the admin's users) or
    who enrolled one is then verified the way the verify page records it, by
    ``django_otp.login``'s session key for their (confirmed) device. The pages themselves are
    exercised in tests/accounts/: a session without that key reaches nothing but them."""
    import django_otp

    from beano.accounts.policy import confirmed_device, second_factor_required

    client.force_login(user)
    device = confirmed_device(user)
    if device is None and second_factor_required(user):
        device = totp_device(user)
    if device is not None:
        session = client.session
        session[django_otp.DEVICE_ID_SESSION_KEY] = device.persistent_id
        session.save()
    return user


@pytest.fixture
def tenant(db: Any) -> Tenant:
    return make_tenant("Post One")


@pytest.fixture
def other_tenant(db: Any) -> Tenant:
    return make_tenant("Parish Two")


@pytest.fixture
def inspector(db: Any, tenant: Tenant) -> Any:
    """An inspector assigned to ``tenant``'s organization only."""
    return CommissionStaffFactory(
        user__username="inspector-assigned", organizations=[tenant.organization]
    ).user


@pytest.fixture
def statewide_inspector(db: Any) -> Any:
    return CommissionStaffFactory(user__username="inspector-all", all_organizations=True).user


@pytest.fixture
def commission_admin(db: Any) -> Any:
    from beano.accounts.groups import commission_admins

    user = CommissionStaffFactory(
        user__username="commission-admin",
        user__is_staff=True,
        kind=CommissionStaff.Kind.ADMIN,
        all_organizations=True,
    ).user
    user.groups.add(commission_admins())
    return user


@pytest.fixture
def member(tenant: Tenant) -> Any:
    return services.add_member(
        organization=tenant.organization,
        by=tenant.head,
        legal_name="Joseph Rebello",
        date_of_birth=dt.date(1955, 6, 30),
        kind="member",
        since=dt.date(2015, 1, 1),
    )


SHIPPED_DATA = (
    "beano.rules.migrations.0002_initial_law_limits",
    "games.migrations.0002_common_arrangements",
    "reports.migrations.0002_expense_kinds",
    "beano.accounts.migrations.0003_commission_admins_group",
)


def _is_transactional(item: Any) -> bool:
    marker = item.get_closest_marker("django_db")
    return bool(marker and marker.kwargs.get("transaction")) or bool(
        {"transactional_db", "live_server"} & set(getattr(item, "fixturenames", ()))
    )


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[Any]) -> None:
    """The files with a transactional test after all the others (pytest-django has put each
    file's transactional tests after its other tests already): a pytest-xdist worker runs whole
    files in this order, so every file of database tests only runs before any flush, on the
    database as migrated, as in a run on one process."""
    flushing = {item.path for item in items if _is_transactional(item)}
    items.sort(key=lambda item: item.path in flushing)


#: Whether a transactional test's flush has emptied the shipped data since it was last loaded.
_flushed = False


@pytest.fixture(autouse=True)
def _shipped_data(request: Any, django_db_blocker: Any) -> None:
    """A transactional test's flush also empties the data the migrations ship (the limits in
    force, the common arrangements, the kinds of expense, the Commission admins' group): it is
    loaded again, as the migrations load it, before the test. pytest-django runs transactional
    tests last, but a pytest-xdist worker given whole files may run another file's database
    tests after one: the data is loaded again for those too."""
    global _flushed
    from django.db import connection

    marker = request.node.get_closest_marker("django_db")
    if _is_transactional(request.node):
        request.getfixturevalue("transactional_db")
        load_shipped_data()
        _flushed = True  # by the flush after this test
    elif _flushed and (marker is not None or "db" in request.fixturenames):
        with django_db_blocker.unblock():
            load_shipped_data()
            # Loaded inside the test's own transaction, it is rolled back with it: load again.
            _flushed = connection.in_atomic_block


@pytest.fixture(scope="module")
def seeded_demo(django_db_setup: Any, django_db_blocker: Any) -> Iterator[None]:
    """The demo (``seed_demo --no-pdfs``), seeded once for the module inside a transaction
    rolled back when the module is done, for the tests that read it; what a test writes is
    rolled back after it (``db``'s savepoint). A test that needs the demo's PDFs renders them by
    seeding again (idempotent: only the PDFs are made)."""
    import io

    from django.core.management import call_command
    from django.db import transaction
    from django.test.utils import override_settings

    fast = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    with (
        django_db_blocker.unblock(),
        override_settings(PASSWORD_HASHERS=fast),
        transaction.atomic(),
    ):
        load_shipped_data()  # an earlier transactional test's flush may have emptied them
        call_command("seed_demo", "--no-pdfs", force=True, stdout=io.StringIO())
        yield
        transaction.set_rollback(True)


#: The shipped rows others point to by id (an archive's shared rows, a test's expected ids), as
#: the migrations made them: reloaded after a flush with the same ids, not new ones.
KEPT_BY_ID = ("rules.LawLimit", "games.Arrangement", "reports.ExpenseKind")
_kept_rows: dict[str, str] = {}


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: Any, django_db_blocker: Any) -> None:
    """The test database as migrated, and a copy of its shipped rows kept by id."""
    from django.apps import apps
    from django.core import serializers

    with django_db_blocker.unblock():
        for label in KEPT_BY_ID:
            rows = apps.get_model(label)._base_manager.order_by("pk")
            _kept_rows[label] = serializers.serialize("json", rows)


def load_shipped_data() -> None:
    """The rows the data migrations ship, loaded again: those kept by id with their ids (a flush
    does not reset the ids, so loading them as the migrations do would give new ones), the
    others as the migrations load them."""
    import importlib

    from django.apps import apps
    from django.core import serializers
    from django.core.management.color import no_style
    from django.db import connection

    for module in SHIPPED_DATA:
        if _kept_rows and any(m in module for m in ("law_limits", "arrangements", "expense")):
            continue
        importlib.import_module(module).load(apps, None)
    for data in _kept_rows.values():
        for row in serializers.deserialize("json", data):
            row.save()
    models = [apps.get_model(label) for label in KEPT_BY_ID]
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), models):
            cursor.execute(sql)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    """Tests make many users; a deliberately slow hasher would dominate the suite's time."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Occasion tests move the clock to the night of their occasion (days from the real today);
    # a session made before the clock moved must still be valid then.
    settings.SESSION_COOKIE_AGE = 60 * 60 * 24 * 60


@pytest.fixture(autouse=True)
def _own_checkpoint_file(settings: Any, tmp_path: Path) -> None:
    """Each test keeps its audit checkpoints apart: a checkpoint names chains by their
    organization's id, which the next test's database gives to other organizations."""
    settings.AUDIT_CHECKPOINT_FILE = tmp_path / "audit-checkpoints.jsonl"


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    """Each test starts with an empty cache (the default's files in the data folder, or the
    process's own; not a Redis that CACHE_URL names): a flashboard's kept answer belongs to the
    test that made it."""
    from django.core.cache import caches
    from django.core.cache.backends.filebased import FileBasedCache
    from django.core.cache.backends.locmem import LocMemCache

    if isinstance(caches["default"], LocMemCache | FileBasedCache):
        caches["default"].clear()


@pytest.fixture
def authorization(tenant: Tenant) -> Any:
    """A Director's authorization of ``tenant``'s: permissible winning arrangements."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from organizations.models import DirectorAuthorization

    return DirectorAuthorization.objects.create(
        organization=tenant.organization,
        kind="6c_arrangement",
        reference_number="MSLC-TEST-0001",
        subject="Letter X, four corners, coverall",
        valid_from=dt.date(2025, 1, 1),
        valid_to=dt.date(2030, 12, 31),
        document=SimpleUploadedFile("letter.pdf", b"%PDF-1.4 letter", "application/pdf"),
    )


@pytest.fixture
def occasion(tenant: Tenant) -> Any:
    """A scheduled occasion of ``tenant``'s on an authorized Friday."""
    from occasions import services as occasion_services

    return occasion_services.occasion_for_day(
        organization=tenant.organization, day=dt.date(2026, 12, 4), by=tenant.member_in_charge
    )


@pytest.fixture
def worker_entry(tenant: Tenant, member: Any) -> Any:
    """``member`` on ``tenant``'s worker list for this year, as a seller."""
    from django.utils import timezone

    from organizations.worker_services import add_to_worker_list

    today = timezone.localdate()
    return add_to_worker_list(
        organization=tenant.organization,
        year=today.year,
        person=member.person,
        roles=["seller"],
        identification="B-101",
        compensated=False,
        compensation_note="",
        good_moral_character_attested=False,
        attested_by="",
        on=today,
        by=tenant.head,
    )


@pytest.fixture
def media_root(settings: Any, tmp_path: Any) -> Any:
    """Uploaded proofs go to a temporary folder, never the developer's media."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def pdf_upload(name: str = "proof.pdf") -> Any:
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, b"%PDF-1.4\n% demo proof\n", content_type="application/pdf")


@pytest.fixture
def equipment_item(tenant: Tenant, media_root: Any) -> Any:
    """A blower ``tenant`` owns, with its bill of sale on file."""
    from organizations.equipment_services import register_equipment

    return register_equipment(
        organization=tenant.organization,
        by=tenant.head,
        description="Blower",
        kind="receptacle",
        ownership="owned",
        serial_number="BK-1001",
        proof_of_ownership=pdf_upload("bill-of-sale.pdf"),
    )


@pytest.fixture
def card_purchase(tenant: Tenant, media_root: Any) -> Any:
    """100 admission cards, serials 1–100, bought by ``tenant`` with the invoice on file."""
    from decimal import Decimal

    from organizations.equipment_services import record_card_purchase

    return record_card_purchase(
        organization=tenant.organization,
        by=tenant.bookkeeper,
        supplier="Bay State Bingo Supply",
        invoice_number="INV-1",
        invoice_date=dt.date(2026, 10, 1),
        card_type="admission",
        series="Blue",
        serial_from=1,
        serial_to=100,
        quantity=100,
        unit_cost=Decimal("0.12"),
        proof=pdf_upload("invoice-1.pdf"),
    )


#: A typical hall's posted prices (the demo's too, `beano/demo/occasions.py`).
SAMPLE_PRICES = [
    {"category": "admission", "label": "Admission (3-on regular card)", "price": "2.00"},
    {"category": "extra_regular", "label": "Extra regular card (3-on)", "price": "1.00"},
    {"category": "bonus", "label": "Bonus card", "price": "1.00"},
    {"category": "special", "label": "Special game card", "price": "2.00"},
    {"category": "winner_take_all", "label": "Winner-take-all card", "price": "1.00"},
]


def open_for_tests(occasion: Any) -> Any:
    """Open an occasion the short way (the opening checklist is another part's work): the
    status is set directly, after its price list is posted."""
    from django.utils import timezone

    from occasions import services as occasion_services
    from occasions.models import Occasion

    if not occasion.price_items.exists():
        occasion_services.set_price_list(occasion=occasion, items=SAMPLE_PRICES, by=None)
    opened_at = timezone.make_aware(dt.datetime.combine(occasion.date, dt.time(17, 0)))
    Occasion.objects.filter(pk=occasion.pk).update(status=Occasion.Status.OPEN, opened_at=opened_at)
    occasion.refresh_from_db()
    return occasion


@pytest.fixture
def open_occasion(occasion: Any, monkeypatch: Any) -> Any:
    """``occasion``, its sample price list posted, open at the door; the clock reads 11 PM on
    its night (acts are recorded on the occasion's own day)."""
    from django.utils import timezone

    night = timezone.make_aware(dt.datetime.combine(occasion.date, dt.time(23, 0)))
    monkeypatch.setattr(timezone, "now", lambda: night)
    return open_for_tests(occasion)


@pytest.fixture
def sale(open_occasion: Any, tenant: Tenant) -> Any:
    """Receipt 1: an admission and two extra regular cards, sold by ``tenant``'s worker."""
    from occasions.sales_services import record_sale

    items = {i.category: i for i in open_occasion.price_items.all()}
    return record_sale(
        occasion=open_occasion,
        lines=[(items["admission"], 1), (items["extra_regular"], 2)],
        admission_receipt=None,
        by=tenant.worker,
    )


@pytest.fixture
def presence(occasion: Any, worker_entry: Any) -> Any:
    """``worker_entry`` signed in as a seller at ``occasion`` at 6:30 PM that night, recorded
    directly: the services refuse a time in the future, and the night is a fixed date."""
    from django.utils import timezone

    from occasions.models import WorkerPresence

    return WorkerPresence.objects.create(
        occasion=occasion,
        entry=worker_entry,
        role="seller",
        identification=worker_entry.identification,
        signed_in_at=timezone.make_aware(dt.datetime.combine(occasion.date, dt.time(18, 30))),
    )


@pytest.fixture
def raffle_permit(tenant: Tenant, media_root: Any) -> Any:
    """``tenant``'s raffle permit from the Fairhaven town clerk, valid all 2026, scan on file."""
    from occasions.raffle_services import record_raffle_permit

    return record_raffle_permit(
        organization=tenant.organization,
        permit_number="FH-R-2026-0042",
        issued_by="Town Clerk",
        town="Fairhaven",
        valid_from=dt.date(2026, 1, 1),
        valid_to=dt.date(2026, 12, 31),
        document=pdf_upload("raffle-permit.pdf"),
        by=tenant.head,
    )


@pytest.fixture
def door_prize(tenant: Tenant, open_occasion: Any) -> Any:
    """A $45 fruit basket awarded at ``open_occasion``."""
    from decimal import Decimal

    from occasions.extras_services import award_door_prize

    return award_door_prize(
        occasion=open_occasion,
        description="Fruit basket",
        value=Decimal("45.00"),
        donated=False,
        winner_name="Mary Costa",
        by=tenant.member_in_charge,
    )


@pytest.fixture
def presence_kwargs(presence: Any) -> dict[str, int]:
    """The URL arguments of ``presence``: its occasion and itself."""
    return {"pk": presence.occasion_id, "presence_pk": presence.pk}


@pytest.fixture
def paper_section_kwargs(occasion: Any) -> dict[str, Any]:
    """A control-sheet entry page of ``occasion``: its door tally."""
    return {"pk": occasion.pk, "section": "door"}


@pytest.fixture
def paper_game_kwargs(program_game: Any) -> dict[str, Any]:
    """The control-sheet entry page of ``program_game``'s sheet."""
    return {"pk": program_game.occasion_id, "number": program_game.number}


#: The progressive series of a typical night's game 13.
SAMPLE_JACKPOT_RULES = (
    "Coverall within 52 numbers: $1,500 now, +$100 each week it is not won, up to $3,000; "
    "$100 consolation to the first coverall after the limit."
)


def authorize_arrangements(organization: Organization, *codes: str) -> Any:
    """The Director's written authorization of these winning arrangements (3.04(6)(c)) for
    2025–2030, unless the organization already holds one naming each."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from games.models import Arrangement, ArrangementAuthorization
    from organizations.models import DirectorAuthorization

    held = set(
        ArrangementAuthorization.objects.filter(
            authorization__organization=organization
        ).values_list("arrangement__code", flat=True)
    )
    missing = [c for c in codes if c not in held]
    if not missing:
        return None
    letter = DirectorAuthorization.objects.create(
        organization=organization,
        kind="6c_arrangement",
        reference_number=f"MSLC-6C-{organization.pk:04d}-{len(held)}",
        subject="Winning arrangements: " + ", ".join(missing),
        valid_from=dt.date(2025, 1, 1),
        valid_to=dt.date(2030, 12, 31),
        document=SimpleUploadedFile("letter.pdf", b"%PDF-1.4 letter", "application/pdf"),
    )
    for code in missing:
        ArrangementAuthorization.objects.create(
            authorization=letter, arrangement=Arrangement.objects.get(code=code)
        )
    return letter


def start_sample_series(tenant: Tenant, **changes: Any) -> Any:
    """``tenant``'s coverall series as SAMPLE-NIGHT.md announces it, announced Nov 27, 2026,
    on the coverall the Director authorized for it."""
    from decimal import Decimal

    from games import jackpot_services
    from games.models import Arrangement

    arrangement = changes.get("arrangement") or Arrangement.objects.get(code="coverall")
    authorize_arrangements(tenant.organization, arrangement.code)

    values = {
        "organization": tenant.organization,
        "name": "Coverall jackpot",
        "mode": "growing_jackpot",
        "starting_amount": Decimal("1500.00"),
        "increment": Decimal("100.00"),
        "cap": Decimal("3000.00"),
        "arrangement": Arrangement.objects.get(code="coverall"),
        "calls_allowed": 52,
        "calls_increment": 0,
        "consolation_amount": Decimal("100.00"),
        "rules_text": SAMPLE_JACKPOT_RULES,
        "started_on": dt.date(2026, 11, 27),
        "by": tenant.head,
    }
    return jackpot_services.start_series(**(values | changes))


@pytest.fixture
def jackpot_series(tenant: Tenant) -> Any:
    return start_sample_series(tenant)


@pytest.fixture
def progressive_game(tenant: Tenant, occasion: Any, jackpot_series: Any) -> Any:
    """Game 13 of ``occasion``, progressive, carrying ``jackpot_series`` ($1,500 within 52)."""
    from games import jackpot_services
    from games.models import Game

    game = Game.objects.create(occasion=occasion, number=13, half=2, kind="progressive")
    return jackpot_services.attach_game(
        game=game, series=jackpot_series, by=tenant.member_in_charge
    )


@pytest.fixture
def arrangements_authorized(authorization: Any) -> Any:
    """Every common arrangement named in ``authorization`` (valid 2025–2030), 3.04(6)(c)."""
    from games.models import Arrangement, ArrangementAuthorization

    for arrangement in Arrangement.objects.all():
        ArrangementAuthorization.objects.create(
            authorization=authorization, arrangement=arrangement
        )
    return authorization


@pytest.fixture
def program_game(tenant: Tenant, occasion: Any, arrangements_authorized: Any) -> Any:
    """Game 1 of ``occasion``'s program, first half, regular: any single line for $50."""
    from decimal import Decimal

    from games import program_services
    from games.models import Arrangement

    game = program_services.add_game(
        occasion=occasion, number=1, half=1, kind="regular", by=tenant.member_in_charge
    )
    program_services.add_prize_part(
        game=game,
        arrangement=Arrangement.objects.get(code="single_line"),
        kind="cash",
        amount=Decimal("50.00"),
        description="",
        donated=False,
        is_bonus=False,
        by=tenant.member_in_charge,
    )
    return game


def at_night(occasion: Any, hour: int, minute: int, second: int = 0) -> Any:
    """A moment of ``occasion``'s night, e.g. at_night(occasion, 18, 52)."""
    from django.utils import timezone

    return timezone.make_aware(dt.datetime.combine(occasion.date, dt.time(hour, minute, second)))


#: The balls of ``game_in_play``, called from 18:50 one a minute: B5, O61, N33, B12, O75, G47.
GAME_BALLS = (5, 61, 33, 12, 75, 47)


@pytest.fixture
def game_in_play(open_occasion: Any) -> Any:
    """Game 3 of ``open_occasion``, in play: four corners for $75, announced; six balls called
    before the clock's 7 PM. Games and balls belong to other parts, so they are made directly."""
    from decimal import Decimal

    from games.models import Arrangement, BallCall, Game, PrizePart

    game = Game.objects.create(occasion=open_occasion, number=3, half=1, kind="regular")
    PrizePart.objects.create(
        game=game,
        order=1,
        arrangement=Arrangement.objects.get(code="four_corners"),
        amount=Decimal("75.00"),
        announced_at=at_night(open_occasion, 18, 49),
    )
    Game.objects.filter(pk=game.pk).update(
        status="in_play", started_at=at_night(open_occasion, 18, 50)
    )
    for i, number in enumerate(GAME_BALLS, start=1):
        BallCall.objects.create(
            game=game, sequence=i, number=number, called_at=at_night(open_occasion, 18, 49 + i)
        )
    game.refresh_from_db()
    return game


def start_game_for_tests(game: Any, at: Any) -> Any:
    """Set a game in play the short way (starting games is the program's work)."""
    from games.models import Game

    Game.objects.filter(pk=game.pk).update(status=Game.Status.IN_PLAY, started_at=at)
    game.refresh_from_db()
    return game


@pytest.fixture
def program_game_kwargs(program_game: Any) -> dict[str, int]:
    return {"pk": program_game.occasion_id, "game_pk": program_game.pk}


@pytest.fixture
def prize_part_kwargs(program_game: Any) -> dict[str, int]:
    return {"pk": program_game.occasion_id, "part_pk": program_game.parts.get().pk}


@pytest.fixture
def claims_game_kwargs(game_in_play: Any) -> dict[str, int]:
    return {"pk": game_in_play.occasion_id, "game_pk": game_in_play.pk}


@pytest.fixture
def draw_game(open_occasion: Any) -> Any:
    """Game 1 of ``open_occasion``: regular, any single line for $50 (announced), in play since
    6:55 PM (the clock reads 7 PM)."""
    from decimal import Decimal

    from django.utils import timezone

    from beano.rules.cards import COMMON_ARRANGEMENTS
    from games.models import Arrangement, Game, PrizePart

    # A transactional test's flush removes the arrangements the data migration shipped.
    name, variants = COMMON_ARRANGEMENTS["single_line"]
    single_line, _ = Arrangement.objects.get_or_create(
        code="single_line", defaults={"name": name, "variants": [sorted(v) for v in variants]}
    )
    started = timezone.make_aware(dt.datetime.combine(open_occasion.date, dt.time(18, 55)))
    game = Game.objects.create(occasion=open_occasion, number=1, half=1, kind=Game.Kind.REGULAR)
    PrizePart.objects.create(
        game=game,
        order=1,
        arrangement=single_line,
        amount=Decimal("50.00"),
        announced_at=started,
    )
    return start_game_for_tests(game, started)


@pytest.fixture
def game_kwargs(draw_game: Any) -> dict[str, int]:
    """The URL arguments of ``draw_game``: its occasion and itself."""
    return {"pk": draw_game.occasion_id, "game_pk": draw_game.pk}


@pytest.fixture
def claim(game_in_play: Any, tenant: Tenant) -> Any:
    """Mary Costa at table 7 calls Beano at 7 PM, between balls."""
    from games.claims_services import record_claim

    return record_claim(
        game=game_in_play,
        part=game_in_play.parts.get(),
        ball_in_hand=None,
        calling_begun=False,
        player_name="Mary Costa",
        table="7",
        by=tenant.worker,
    )


@pytest.fixture
def claim_kwargs(claim: Any) -> dict[str, int]:
    return {"pk": claim.game.occasion_id, "game_pk": claim.game_id, "claim_pk": claim.pk}


@pytest.fixture
def part_kwargs(claim: Any) -> dict[str, int]:
    return {"pk": claim.game.occasion_id, "game_pk": claim.game_id, "part_pk": claim.part_id}


#: Four corners on Mary Costa's card: B1 5, O1 61, B5 12, O5 75.
WINNING_CORNERS = {"B1": 5, "O1": 61, "B5": 12, "O5": 75}


@pytest.fixture
def winner(claim: Any, tenant: Tenant) -> Any:
    """``claim``'s card verified before Rose Medeiros at table 12, and Mary Costa the winner."""
    from beano.rules.claims import Witness
    from games.claims_services import PlayerEntry, record_winners, verify_card

    verify_card(
        claim=claim,
        numbers=WINNING_CORNERS,
        witnesses=[Witness("Rose Medeiros", "12")],
        by=tenant.member_in_charge,
    )
    return record_winners(
        claims=[claim], players=[PlayerEntry("Mary Costa")], by=tenant.member_in_charge
    )[0]


@pytest.fixture
def winner_kwargs(winner: Any) -> dict[str, int]:
    game = winner.claim.game
    return {"pk": game.occasion_id, "game_pk": game.pk, "winner_pk": winner.pk}


@pytest.fixture
def ball_call(draw_game: Any, tenant: Tenant) -> Any:
    """N42, the first ball of ``draw_game``, called by ``tenant``'s worker."""
    from games.draw_services import record_ball_call

    return record_ball_call(game=draw_game, number=42, by=tenant.worker)


@pytest.fixture
def ball_call_kwargs(ball_call: Any) -> dict[str, int]:
    """The URL arguments of ``ball_call``: its occasion, its game and itself."""
    return {"pk": ball_call.game.occasion_id, "game_pk": ball_call.game_id, "call_pk": ball_call.pk}


ROOT = Path(__file__).resolve().parent.parent


def _database_url() -> str:
    from django.db import connection

    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


class CeleryWorker:
    """A real Celery worker process (``celery -A beano worker``) on the broker the settings
    name, against the test database and media folder; its output goes to a log file, read on
    failure (a pipe nobody reads would stall a talkative worker)."""

    def __init__(self, log_path: Path) -> None:
        from django.conf import settings

        from beano.celery import app

        # Messages left by earlier tests (a report filed in a transactional test is queued
        # on commit, and nothing consumed it) would be worked through first.
        app.control.purge()
        env = {
            **os.environ,
            "DATABASE_URL": _database_url(),
            "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
            "BEANO_DATA_DIR": str(settings.DATA_DIR),
            "MEDIA_ROOT": str(settings.MEDIA_ROOT),
        }
        self.log_path = log_path
        with open(log_path, "w") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "beano",
                    "worker",
                    "--pool=solo",
                    "--without-heartbeat",
                    "--without-mingle",
                    "--without-gossip",
                    "--loglevel=WARNING",
                    f"--hostname=test-{os.getpid()}@%h",
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                text=True,
            )

    def poll(self) -> int | None:
        return self.process.poll()

    def log(self) -> str:
        return self.log_path.read_text()

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def start_worker(transactional_db: None, tmp_path: Path) -> Iterator[Callable[[], CeleryWorker]]:
    """Start a real Celery worker when the test is ready for it (its settings in place); it is
    stopped after the test. The database must be transactional for the worker, another
    process, to see the rows the test commits."""
    started: list[CeleryWorker] = []

    def start() -> CeleryWorker:
        worker = CeleryWorker(tmp_path / f"celery-worker-{len(started) + 1}.log")
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.stop()


@pytest.fixture
def worker_process(start_worker: Callable[[], CeleryWorker]) -> CeleryWorker:
    return start_worker()


# A second person of a two-person act: a user of the organization on the floor that night


def on_floor(user: Any, occasion: Any, role: str = "floor_worker", at: Any = None) -> Any:
    """Put ``user`` on the floor of ``occasion`` as a worker of its list: the person their role
    names (made for them if it names none), on the worker list, signed in from ``at`` (the
    opening, or 5 PM). A second person (void witness, payout verifier) must be; their password
    (``PASSWORD``) then confirms."""
    from django.utils import timezone

    from occasions.models import WorkerPresence
    from organizations.models import OrganizationRole, WorkerList, WorkerListEntry

    roles = OrganizationRole.objects.filter(user=user, organization=occasion.organization)
    person = next((r.person for r in roles if r.person_id), None)
    if person is None:
        membership = services.add_member(
            organization=occasion.organization,
            by=None,
            legal_name=f"{user.get_username().replace('-', ' ').title()} Floor",
            date_of_birth=dt.date(1960, 1, 1),
            kind="member",
            since=dt.date(2015, 1, 1),
        )
        person = membership.person
        roles.update(person=person)
    worker_list, _ = WorkerList.objects.get_or_create(
        organization=occasion.organization, year=occasion.date.year
    )
    entry, _ = WorkerListEntry.objects.get_or_create(
        worker_list=worker_list,
        person=person,
        defaults={
            "roles": [role],
            "identification": f"F-{user.pk}",
            "added_on": dt.date(occasion.date.year, 1, 2),
        },
    )
    start = (
        at
        or occasion.opened_at
        or timezone.make_aware(dt.datetime.combine(occasion.date, dt.time(17, 0)))
    )
    if not WorkerPresence.objects.filter(occasion=occasion, entry=entry).exists():
        WorkerPresence.objects.create(
            occasion=occasion,
            entry=entry,
            role=entry.roles[0],
            identification=entry.identification or "F",
            signed_in_at=start,
        )
    return user


# The floor's crew on the 2026 worker list, and what a night on paper needs


def listed(tenant: Any, name: str, roles: list[str], badge: str, **extra: Any) -> Any:
    """A member of ``tenant``'s on its 2026 worker list from January 5."""
    born = extra.pop("born", dt.date(1960, 1, 1))
    from organizations.worker_services import add_to_worker_list

    membership = services.add_member(
        organization=tenant.organization,
        by=tenant.head,
        legal_name=name,
        date_of_birth=born,
        kind="member",
        since=dt.date(2015, 1, 1),
    )
    return add_to_worker_list(
        organization=tenant.organization,
        year=2026,
        person=membership.person,
        roles=roles,
        identification=badge,
        compensated=extra.get("compensated", False),
        compensation_note=extra.get("compensation_note", ""),
        good_moral_character_attested=extra.get("attested", False),
        attested_by=extra.get("attested_by", ""),
        on=dt.date(2026, 1, 5),
        by=tenant.head,
    )


@pytest.fixture
def crew(tenant: Any) -> dict[str, Any]:
    return {
        "linda": listed(tenant, "Linda Souza", ["member_in_charge"], "P-02"),
        "anne": listed(tenant, "Anne Sullivan", ["member_in_charge", "seller"], "P-07"),
        "robert": listed(tenant, "Robert Medeiros", ["gross_receipts"], "P-01"),
        "karen": listed(
            tenant,
            "Karen Pacheco",
            ["bookkeeper"],
            "P-03",
            compensated=True,
            compensation_note="$50 an occasion",
        ),
        "mary": listed(tenant, "Mary Gallagher", ["seller", "floor_worker"], "P-06"),
    }


@pytest.fixture
def night_records(tenant: Any, crew: Any, equipment_item: Any, arrangements_authorized: Any):
    """What the known night needs on record before its sheets are entered."""
    from occasions.models import CharityTicketSerialAssignment, PrevailingPoliceRate

    CharityTicketSerialAssignment.objects.create(
        organization=tenant.organization,
        serial_prefix="CG-",
        serial_from=1,
        serial_to=100,
        assigned_on=dt.date(2026, 1, 1),
    )
    PrevailingPoliceRate.objects.create(
        town="Fairhaven",
        hourly_rate=Decimal("58.00"),
        effective_from=dt.date(2026, 1, 1),
        source="Fairhaven Police Department",
    )
    return tenant


# The reports' fixtures (a known closed night, its close-out and filing), for every test folder.
from tests.reports.conftest import (  # noqa: E402, F401
    annual_kwargs,
    annual_report,
    closed_occasion,
    counted,
    disbursement,
    disbursement_kwargs,
    expense,
    expense_kwargs,
    filed_report,
    known_occasion,
    rendered_annual_kwargs,
    rendered_report_kwargs,
    report_clock,
    report_kwargs,
    year_kwargs,
)
from tests.smtp_server import smtp_server, smtp_tls_server  # noqa: E402, F401
