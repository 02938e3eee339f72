"""A night file judged and recorded, one way for every caller: ``import_night`` on the server,
the upload page on the web (a dry run first, then one confirmation), and the API.

``judge_night(data, by=…, file_name=…, dry_run=…, seconds=…)`` takes the file's parsed JSON
(``files.load`` for a path, ``files.parse(files.read_at_most(stream))`` for an upload: never
more than ``files.MAX_BYTES`` read), bounds its counts (``files.bounded``), reads it
(``reader.read``) and records it through the services and rules (``engine.import_night``) in
one transaction, rolled back for a dry run, and answers a ``NightOutcome``: accepted with the
night's figures, refused with each refusal's words, citation, sheet and time, or unreadable in
one line. It raises nothing for what the file holds.

``seconds`` bounds the time a judging takes (the pages and the API: ``UPLOAD_SECONDS``): no act
is begun past it, and on PostgreSQL no statement runs longer (``statement_timeout``, set for
the judging's transaction alone). The command judges with no limit, as it always has.

``receive`` and ``record`` are the upload page's two steps: the dry run kept as a
``NightUpload`` (the bytes, their SHA-256, the figures), then that exact file judged again and
recorded, once, under the upload's lock."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from django.core.exceptions import ValidationError
from django.db import OperationalError, connection
from django.utils import timezone

from beano import locking, rules
from beano.actors import Actor
from beano.text import one_line
from nightfile import acts, engine, files, reader, writer
from nightfile import format as fmt
from nightfile.format import NightFormatError
from nightfile.models import NightUpload
from occasions.models import Occasion
from organizations.audit import record_event
from organizations.models import Organization

#: The most a page (or an API call) spends judging a night file. A whole real night is judged
#: in a few seconds (the demo's example: under one); the command on the server has no limit.
UPLOAD_SECONDS = 30

Status = Literal["accepted", "refused", "unreadable"]


@dataclass(frozen=True)
class Refusal:
    """One reason a night was refused: the rule's words and citation, and where on the sheets
    (the sheet, the act, its time as the file writes it and as the pages say it), where the
    refusal names them."""

    message: str
    citation: str = ""
    sheet: str = ""
    act: str = ""
    at: str | None = None  # "20:00", as the night file writes it
    time: str = ""  # "8:00 PM", as the pages say it
    text: str = ""  # the line the command prints: where, then the words and citation

    def as_json(self) -> dict[str, Any]:
        """As ``import_night --json`` prints it (docs/formats/night-file.md)."""
        return {
            "sheet": self.sheet,
            "act": self.act,
            "at": self.at,
            "message": self.message,
            "citation": self.citation,
            "text": self.text,
        }


@dataclass(frozen=True)
class NightOutcome:
    """What judging a night file came to. ``status``: accepted (``figures``: the night's
    figures as dollar strings, ``writer.summary_figures``), refused (``refusals``) or
    unreadable (``message``, one line). ``saved``: whether the night was recorded (never on a
    dry run); ``occasion``: the night recorded. ``out_of_time``: refused for taking longer
    than the judging may."""

    status: Status
    saved: bool = False
    figures: dict[str, str] = field(default_factory=dict)
    refusals: tuple[Refusal, ...] = ()
    message: str = ""
    occasion: Occasion | None = None
    out_of_time: bool = False
    #: The night the file holds, once it could be read: its license and date.
    license: str = ""
    date: dt.date | None = None

    @property
    def accepted(self) -> bool:
        return self.status == "accepted"

    def as_json(self) -> dict[str, Any]:
        """A refusal or an unreadable file as ``import_night --json`` prints it; an accepted
        night as its figures."""
        if self.status == "unreadable":
            return acts.unreadable(self.message)
        if self.status == "refused":
            return {
                "status": "refused",
                "saved": False,
                "refusals": [r.as_json() for r in self.refusals],
            }
        return dict(self.figures)


class _DryRun(Exception):
    """Raised to roll a dry run back once every act was accepted."""


def unreadable(message: str) -> NightOutcome:
    return NightOutcome(status="unreadable", message=message)


def judge_night(
    data: Any,
    *,
    by: Actor,
    file_name: str = "",
    dry_run: bool = True,
    seconds: float | None = None,
) -> NightOutcome:
    """Judge the night file ``data`` (its parsed JSON) through the services and rules as ``by``
    and record it unless ``dry_run``: all or nothing. ``seconds``: the most the judging may take
    (None: no limit)."""
    try:
        files.bounded(data)
        night = reader.read(data)
        engine.night_license(night.license)
    except NightFormatError as error:
        return unreadable(str(error))
    outcome = _judged(night, by=by, file_name=file_name, dry_run=dry_run, seconds=seconds)
    return replace(outcome, license=night.license, date=night.date)


def _judged(
    night: fmt.Night, *, by: Actor, file_name: str, dry_run: bool, seconds: float | None
) -> NightOutcome:
    deadline = time.monotonic() + seconds if seconds else None
    try:
        with rules.atomic():  # a refusal is logged after the rollback, as everywhere
            with _statement_timeout(seconds):
                occasion = engine.import_night(
                    night=night, by=by, file_name=file_name, deadline=deadline
                )
                figures = writer.summary_figures(occasion)
            if dry_run:
                raise _DryRun
    except _DryRun:
        return NightOutcome(status="accepted", figures=figures)
    except NightFormatError as error:
        return unreadable(str(error))
    except acts.OutOfTime as error:
        return _out_of_time(seconds, error.act.sheet)
    except OperationalError as error:
        if not _cancelled(error):
            raise
        return _out_of_time(seconds, "")
    except ValidationError as error:
        _logged(error)
        return NightOutcome(status="refused", refusals=refusals_of(error, night.date))
    return NightOutcome(status="accepted", saved=True, figures=figures, occasion=occasion)


def refusals_of(error: ValidationError, day: dt.date) -> tuple[Refusal, ...]:
    """Each reason of a refusal, with where on the sheets it was (``acts.refused``'s rows)."""
    rows = acts.refused(error, day)["refusals"]
    act = error.act if isinstance(error, acts.NightRefused) else None
    said = f"{act.at:%-I:%M %p}" if act is not None and act.at else ""
    return tuple(Refusal(**row, time=said if row["sheet"] else "") for row in rows)


def _logged(error: ValidationError) -> None:
    """A rule's refusal is logged once: by ``rules.atomic`` when the judging's transaction was
    the outermost; here when a caller's transaction goes on (the confirmation's)."""
    refused = error if isinstance(error, rules.RuleViolation) else error.__cause__
    if isinstance(refused, rules.RuleViolation):
        rules.record_refusal(refused)


def _out_of_time(seconds: float | None, sheet: str) -> NightOutcome:
    where = f" (it had reached the {sheet})" if sheet else ""
    return NightOutcome(
        status="refused",
        out_of_time=True,
        refusals=(
            Refusal(
                message=f"Judging this night took longer than the {seconds or 0:g} seconds a page "
                f"waits{where}: nothing was saved. Ask your installation's administrator to "
                "record it with the import_night command.",
                text="Out of time: nothing was saved.",
            ),
        ),
    )


#: A statement PostgreSQL cancelled for its statement_timeout.
_CANCELLED = "57014"


def _cancelled(error: OperationalError) -> bool:
    cause = error.__cause__
    return getattr(cause, "sqlstate", None) == _CANCELLED or "statement timeout" in str(error)


@contextmanager
def _statement_timeout(seconds: float | None) -> Iterator[None]:
    """On PostgreSQL, no statement of the judging's transaction runs longer than ``seconds``:
    set for that transaction alone (``SET LOCAL``), and set back when the judging ends inside a
    caller's transaction that goes on."""
    if not seconds or connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        before = str(cursor.fetchone()[0])
        cursor.execute(f"SET LOCAL statement_timeout = {int(seconds * 1000)}")
    yield
    if re.fullmatch(r"[0-9A-Za-z ]+", before):
        with connection.cursor() as cursor:
            cursor.execute(f"SET LOCAL statement_timeout = '{before}'")


def of_another_organization(data: Any, organization: Organization) -> NightOutcome | None:
    """Unreadable unless the night's license is ``organization``'s: a night file is uploaded by
    the organization whose night it is (the command, on the server, records any)."""
    try:
        files.bounded(data)
        license = engine.night_license(reader.read(data).license)
    except NightFormatError as error:
        return unreadable(str(error))
    if license.organization_id != organization.pk:
        return unreadable(
            f'"license": {license.number} is not a license of {organization}: a night file is '
            "uploaded by the organization whose night it is."
        )
    return None


def judge_for(
    *, organization: Organization, data: Any, by: Actor, file_name: str = "", dry_run: bool = True
) -> NightOutcome:
    """A night file of ``organization``'s judged as the pages and the API judge one: a night of
    another organization's license refused, ``UPLOAD_SECONDS`` at most, recorded unless
    ``dry_run``."""
    elsewhere = of_another_organization(data, organization)
    if elsewhere is not None:
        return elsewhere
    return judge_night(
        data, by=by, file_name=_name(file_name), dry_run=dry_run, seconds=UPLOAD_SECONDS
    )


# The upload page's two steps -------------------------------------------------------------------


def sha256_of(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def _name(file_name: str) -> str:
    """The file's own name as the browser sent it, on one line and no longer than is kept."""
    name = one_line(str(file_name).replace("\\", "/").rsplit("/", 1)[-1]) or "night.json"
    return name[:200]


def receive(
    *, organization: Organization, raw: bytes, file_name: str, by: Actor
) -> tuple[NightUpload | None, NightOutcome]:
    """The upload's dry run: ``raw`` (read with ``files.read_at_most``) judged as ``by``,
    nothing of the night saved. A night of another organization's license is refused. Accepted,
    the file is kept as a ``NightUpload`` for its confirmation; otherwise nothing is kept."""
    name = _name(file_name)
    try:
        data = files.parse(raw)
    except NightFormatError as error:
        return None, unreadable(str(error))
    outcome = judge_for(organization=organization, data=data, by=by, file_name=name)
    if not outcome.accepted:
        return None, outcome
    with rules.atomic():
        upload = NightUpload.objects.create(
            organization=organization,
            uploaded_by=by,
            file_name=name,
            sha256=sha256_of(raw),
            content=raw.decode("utf-8"),
            figures=outcome.figures,
            created_at=timezone.now(),
        )
        record_event(
            organization=organization,
            actor=by,
            action="nightfile.upload.dry_run",
            target=upload,
            new={"file": name, "sha256": upload.sha256, "figures": outcome.figures},
        )
    return upload, outcome


def record(*, upload: NightUpload, sha256: str, by: Actor) -> NightOutcome:
    """The upload's confirmation: the very file dry-run (its SHA-256 as the page showed it)
    judged again and recorded, once. Under the upload's lock, a second confirmation (a double
    click, a second tab) finds it recorded and records nothing again."""
    with rules.atomic():
        upload = locking.lock(NightUpload.objects.filter(pk=upload.pk)).get()
        if upload.state == NightUpload.State.RECORDED:
            return NightOutcome(status="accepted", figures=upload.figures, occasion=upload.occasion)
        raw = upload.content.encode("utf-8")
        if sha256 != upload.sha256 or sha256_of(raw) != upload.sha256:
            return unreadable("This is not the file that was judged: upload the night file again.")
        try:
            data = files.parse(raw)
        except NightFormatError as error:
            return unreadable(str(error))
        outcome = judge_for(
            organization=upload.organization,
            data=data,
            by=by,
            file_name=upload.file_name,
            dry_run=False,
        )
        if outcome.saved:
            upload.state = NightUpload.State.RECORDED
            upload.occasion = outcome.occasion
            upload.figures = outcome.figures
            upload.recorded_at = timezone.now()
            upload.save(update_fields=["state", "occasion", "figures", "recorded_at"])
            record_event(
                organization=upload.organization,
                actor=by,
                action="nightfile.upload.recorded",
                target=upload,
                old={"state": NightUpload.State.DRY_RUN},
                new={"state": upload.state, "occasion": upload.occasion_id},
            )
    return outcome
