"""Opening a night file: its size held to a ceiling before a byte is parsed, a UTF-8 byte order
mark accepted (Notepad writes one), and whatever cannot be read said in one line. What is read
is then ``reader.read``'s."""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

from nightfile.format import NightFormatError

#: The largest night file read: 2 MB. A whole real night is far smaller: 99 games (the most a
#: program numbers) of 75 balls each, ten claims a game with their cards, witnesses and W-2G
#: details, a worker list of fifty and a door tallied every quarter hour come to under 1 MB;
#: the demo's nights export at 10-40 kB. Twice the largest real night leaves room for long
#: names and notes and keeps a file that is not a night (a 20 MB dump, 60,000 claims) from
#: being parsed at all.
MAX_BYTES = 2 * 1024 * 1024


def load(path: Path) -> Any:
    """The parsed JSON of the night file at ``path``, or NightFormatError in one line."""
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_BYTES + 1)  # never more than the ceiling into memory
    except FileNotFoundError:
        raise NightFormatError("no such file.") from None
    except IsADirectoryError:
        raise NightFormatError("a folder, not a night file.") from None
    except OSError as error:
        raise NightFormatError(f"cannot be read ({error.strerror or error}).") from None
    return parse(raw, size=path.stat().st_size if path.is_file() else len(raw))


def read_at_most(stream: IO[bytes]) -> bytes:
    """At most ``MAX_BYTES + 1`` bytes of ``stream`` (an upload): enough to tell a file over the
    ceiling, never more into memory."""
    out = bytearray()
    while len(out) <= MAX_BYTES:
        chunk = stream.read(min(64 * 1024, MAX_BYTES + 1 - len(out)))
        if not chunk:
            break
        out += chunk
    return bytes(out)


def parse(raw: bytes, *, size: int | None = None) -> Any:
    """The parsed JSON of a night file's bytes (read with ``read_at_most``: more than
    ``MAX_BYTES`` is refused unparsed; ``size``, the whole file's if known, is what the refusal
    says), its balls and claims bounded, or NightFormatError in one line."""
    if len(raw) > MAX_BYTES:
        size = size if size is not None else len(raw)
        raise NightFormatError(
            f"{size / 1024 / 1024:.1f} MB is too large for a night file: it holds at most "
            f"{MAX_BYTES // 1024 // 1024} MB (a whole night is far less); nothing was read."
        )
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as error:
        raise NightFormatError(f"not a UTF-8 text file (byte {error.start}).") from None
    except json.JSONDecodeError as error:
        raise NightFormatError(f"not a JSON file ({error}).") from None
    except RecursionError:
        raise NightFormatError("not a night file: its JSON is nested too deeply.") from None
    bounded(data)
    return data


#: The most balls and claims of a whole night: a license's hours hold about four hours of
#: play, a ball every ten seconds or so (some 1,500), and a few claims a game. Beyond these a
#: file is not a night; each is an act judged by the services, so they bound its work (every
#: other list of a night holds at most ``format.MOST_ROWS`` rows, a game at most 75 balls).
MOST_BALLS = 3_000
MOST_CLAIMS = 600


def bounded(data: Any) -> None:
    """A night's balls and claims within what a night can hold, counted before any is read."""
    games = data.get("games") if isinstance(data, dict) else None
    if not isinstance(games, list):
        return  # the reader says what is wrong with it
    for name, most in (("balls", MOST_BALLS), ("claims", MOST_CLAIMS)):
        count = sum(
            len(g[name]) for g in games if isinstance(g, dict) and isinstance(g.get(name), list)
        )
        if count > most:
            raise NightFormatError(
                f"night.games: {count:,} {name} in all; a night holds at most {most:,}."
            )
