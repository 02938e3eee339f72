"""The archive of one organization's records: a ``.tar.gz`` holding

- ``manifest.json``: what it holds (the organization, the count of rows per model, the audit
  chain's length and head, the SHA-256 of the data and of every file);
- ``data.jsonl``: the rows, one Django serializer object a line (``{"model", "pk", "fields"}``),
  the shared rows first and then the organization's, each model after those it points to;
- ``media/…``: the uploaded files the rows name (proofs, scanned letters, report PDFs), under
  their names in MEDIA_ROOT.

Times keep their microseconds: Django's own JSON encoder cuts them to milliseconds, and the audit
chain's hashes cover them.
"""

from __future__ import annotations

import datetime as dt
import decimal
import hashlib
import json
import uuid
from typing import IO, Any

FORMAT = "beano-organization-export"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
DATA = "data.jsonl"
MEDIA_PREFIX = "media/"
CHUNK = 1 << 20


class ArchiveError(Exception):
    """The archive cannot be used: damaged, changed, or not one of ours."""


class PreciseEncoder(json.JSONEncoder):
    """JSON for serialized rows: times in full (ISO 8601 with microseconds), money as text."""

    def default(self, o: Any) -> Any:
        if isinstance(o, dt.datetime | dt.date | dt.time):
            return o.isoformat()
        if isinstance(o, decimal.Decimal | uuid.UUID):
            return str(o)
        if isinstance(o, dt.timedelta):
            return o.total_seconds()
        return super().default(o)


def dumps_line(obj: Any) -> bytes:
    return (json.dumps(obj, cls=PreciseEncoder, ensure_ascii=False, sort_keys=True) + "\n").encode()


def sha256_stream(stream: IO[bytes]) -> tuple[str, int]:
    digest = hashlib.sha256()
    size = 0
    while block := stream.read(CHUNK):
        digest.update(block)
        size += len(block)
    return digest.hexdigest(), size


def member_name(media_name: str) -> str:
    return MEDIA_PREFIX + media_name
