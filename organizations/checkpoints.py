"""Checkpoints of the audit chains, kept outside the database.

A chain's keyed hashes and its sealed head stop someone without the audit key from rewriting or
cutting it. They cannot stop someone who kept an older copy of the head row (from a backup) from
putting it back over the events deleted since. So every night each chain's length and head are
appended to a file outside the database (``settings.AUDIT_CHECKPOINT_FILE``, one JSON object a
line, never rewritten) and e-mailed to the Commission (``AUDIT_CHECKPOINT_EMAIL``); the check
then wants every chain to still hold the event its last checkpoint recorded, with that hash.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

from django.conf import settings
from django.core.mail import EmailMessage
from django.utils import timezone

from organizations.models import AuditChain, AuditEvent

#: How much of the file is read at a time, from its end, to find the last checkpoints.
BLOCK = 64 * 1024


@dataclass(frozen=True)
class Checkpoint:
    """One chain at one moment: ``chain`` is its key (``org:7``, ``commission``)."""

    at: str
    chain: str
    organization: int | None
    name: str
    length: int
    head: str

    def line(self) -> str:
        return json.dumps(asdict(self), sort_keys=True, ensure_ascii=False)

    @property
    def when(self) -> dt.datetime:
        return dt.datetime.fromisoformat(self.at)


def take() -> list[Checkpoint]:
    """Every chain as it stands now."""
    at = timezone.now().isoformat(timespec="seconds")
    chains = AuditChain.objects.select_related("organization").order_by("key")
    return [
        Checkpoint(
            at=at,
            chain=chain.key,
            organization=chain.organization_id,
            name=str(chain.organization) if chain.organization else "the Commission",
            length=chain.length,
            head=chain.head_hash,
        )
        for chain in chains
    ]


def path() -> Path:
    return Path(settings.AUDIT_CHECKPOINT_FILE)


def append(checkpoints: Iterable[Checkpoint], file: Path | None = None) -> Path:
    """Append the lines to the checkpoint file (made readable by its owner only), on disk
    before returning."""
    file = file or path()
    file.parent.mkdir(parents=True, exist_ok=True)
    data = "".join(c.line() + "\n" for c in checkpoints).encode()
    handle = os.open(file, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(handle, data)
        os.fsync(handle)
    finally:
        os.close(handle)
    return file


def email(checkpoints: list[Checkpoint]) -> int:
    """Send the checkpoint to the Commission's addresses, if any are set; how many were sent."""
    recipients = list(settings.AUDIT_CHECKPOINT_EMAIL)
    if not recipients or not checkpoints:
        return 0
    at = timezone.localtime(checkpoints[0].when)
    body = (
        f"Checkpoint of the audit chains of Beano occasions, {at:%B %-d, %Y %H:%M %Z}.\n\n"
        "Keep this message. Each line below is one chain: its length and the hash of its last "
        "event. `python manage.py check_audit_chains --checkpoint FILE`, FILE holding these "
        "lines, says whether every chain still holds them.\n\n"
        + "".join(c.line() + "\n" for c in checkpoints)
    )
    message = EmailMessage(
        subject=f"Audit chain checkpoint {at:%Y-%m-%d}: {len(checkpoints)} chains",
        body=body,
        to=recipients,
    )
    message.attach(
        f"audit-checkpoint-{at:%Y%m%d-%H%M}.jsonl",
        "".join(c.line() + "\n" for c in checkpoints),
        "application/jsonl",
    )
    return message.send()


def write() -> list[Checkpoint]:
    """Take a checkpoint of every chain, append it to the file and e-mail it."""
    checkpoints = take()
    if checkpoints:
        append(checkpoints)
        email(checkpoints)
    return checkpoints


def _lines_from_the_end(file: Path) -> Iterable[str]:
    with file.open("rb") as handle:
        handle.seek(0, os.SEEK_END)
        position = handle.tell()
        rest = b""
        while position > 0:
            step = min(BLOCK, position)
            position -= step
            handle.seek(position)
            block = handle.read(step) + rest
            lines = block.split(b"\n")
            rest = lines.pop(0)
            for line in reversed(lines):
                if line.strip():
                    yield line.decode()
        if rest.strip():
            yield rest.decode()


def last(file: Path | None = None, chains: Iterable[str] | None = None) -> dict[str, Checkpoint]:
    """The last checkpoint of each chain in the file, by chain key; only of ``chains`` if given
    (read from the end, stopping once they are all found). A line that cannot be read stops
    the check with ValueError: a damaged file is not a checkpoint to rely on."""
    file = file or path()
    if not file.exists():
        return {}
    wanted = set(chains) if chains is not None else None
    found: dict[str, Checkpoint] = {}
    for line in _lines_from_the_end(file):
        try:
            checkpoint = Checkpoint(**json.loads(line))
        except (ValueError, TypeError) as error:
            wrong = f"{file} has a line that is not a checkpoint: {line[:80]!r}"
            raise ValueError(wrong) from error
        if wanted is not None and checkpoint.chain not in wanted:
            continue
        found.setdefault(checkpoint.chain, checkpoint)
        if wanted is not None and wanted <= found.keys():
            break
    return found


def compare(checkpoint: Checkpoint) -> str:
    """What is wrong with the chain against its checkpoint ("" when it still holds it)."""
    when = f"{timezone.localtime(checkpoint.when):%b %-d, %Y %H:%M}"
    if checkpoint.length == 0:
        return ""
    event = (
        AuditEvent.objects.filter(
            organization_id=checkpoint.organization, sequence=checkpoint.length
        )
        .only("hash")
        .first()
    )
    if event is None:
        stored = AuditEvent.objects.filter(organization_id=checkpoint.organization).count()
        return (
            f"cut short: the checkpoint of {when} recorded {checkpoint.length} events (head "
            f"{checkpoint.head[:16]}…), the chain now holds {stored}."
        )
    if event.hash != checkpoint.head:
        return (
            f"event {checkpoint.length} is not the one the checkpoint of {when} recorded (head "
            f"{checkpoint.head[:16]}…, now {event.hash[:16]}…): the chain was rewritten."
        )
    return ""
