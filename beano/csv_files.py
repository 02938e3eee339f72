"""The one CSV writer of the project: every download in CSV (the W-2G register, the inspectors'
exports, an occasion's record, the exceptions, the manifest of a reports archive) is written
here, so that every cell of every file goes through ``cell``.

What a hall typed (a payee's name, an address, a reason) is written as text, never as a formula:
a spreadsheet runs a cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return (OWASP, "CSV Injection"), so such a cell is written with a leading apostrophe, which the
spreadsheet shows as text. Amounts are ``Decimal``s and written to the cent; they are never
defused, so a negative amount stays a number. A test walks the code: no module but this one
imports ``csv``."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from decimal import Decimal
from typing import Any

from django.http import StreamingHttpResponse
from django.utils import timezone

#: A cell starting with one of these would be run as a formula by a spreadsheet.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def defuse(text: str) -> str:
    """``text`` as a spreadsheet shows it, never run as a formula."""
    return "'" + text if text.startswith(FORMULA_START) else text


def cell(value: Any) -> Any:
    """A value as written to a CSV: times local, booleans yes/no, money to the cent, text
    never a formula."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Decimal):
        return f"{value:.2f}"  # money, to the cent (SQLite's sums come back unscaled)
    if isinstance(value, int | float):
        return value
    if hasattr(value, "tzinfo") and hasattr(value, "hour") and value.tzinfo is not None:
        return timezone.localtime(value).strftime("%Y-%m-%d %H:%M:%S")
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return defuse(str(value))


def row(values: Iterable[Any]) -> list[Any]:
    return [cell(v) for v in values]


class _Echo:
    """A file-like object whose write returns the line, for a streamed writer."""

    def write(self, value: str) -> str:
        return value


def csv_response(filename: str, header: Iterable[str], rows: Iterable[Iterable[Any]]) -> Any:
    """A CSV download, streamed row by row so that a large one never sits in memory; never
    cached (it may carry personal data)."""
    writer = csv.writer(_Echo())

    def lines() -> Iterator[str]:
        yield writer.writerow(row(header))
        for values in rows:
            yield writer.writerow(row(values))

    response = StreamingHttpResponse(lines(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "no-store"
    return response


def csv_text(header: Iterable[str], rows: Iterable[Iterable[Any]]) -> str:
    """A whole CSV file as text (a file inside an archive)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(row(header))
    for values in rows:
        writer.writerow(row(values))
    return out.getvalue()
