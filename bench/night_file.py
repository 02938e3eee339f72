"""Night files: the time and peak memory to refuse a file over the ceiling (the 18 MB file of
60,000 claims that once ran five minutes at 565 MB) and to read a file at the ceiling, each in a
process of its own (``manage.py import_night`` for the first, ``files.load`` and ``reader.read``
for the second). No database is touched: both stop before a license is looked up.

Speed is measured here, never asserted by timing tests. ``python bench/night_file.py`` prints
one line per figure."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable

#: Run in a process of its own: Django set up (its own memory, measured first), then the file
#: opened and read as import_night does, up to the license's look-up.
READ = """
import os, resource, sys, time
import django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "beano.settings")
django.setup()
from pathlib import Path
from nightfile import files, reader
from nightfile.format import NightFormatError
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
try:
    said = f"read, {len(reader.read(files.load(Path(sys.argv[1]))).games)} games"
except NightFormatError as error:
    said = str(error)
seconds = time.perf_counter() - start
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(f"{seconds:.3f} {before} {after} {said}")
"""


def dump(claims: int) -> str:
    """One game of ``claims`` claims, each with its card: 60,000 of them make 18 MB."""
    card = {f"{letter}{row}": 1 for letter in "BIGO" for row in (1, 2)}
    claim = {"part": 1, "at": "19:30", "player": "A Player", "table": "4", "card": card}
    game = {"number": 1, "half": 1, "kind": "regular", "parts": [], "claims": [claim] * claims}
    return json.dumps(
        {"format": "beano-night/1", "license": "L", "date": "2026-12-04", "games": [game]},
        indent=2,
    )


def at_the_ceiling(limit: int) -> str:
    """40 games of 75 balls and 15 claims each with its card (3,000 balls and 600 claims, the
    most a night holds), padded with blanks to ``limit`` bytes: the most work a
    readable file asks of the reader."""
    card = {f"{c}{row}": 1 for c in "BINGO" for row in range(1, 6) if f"{c}{row}" != "N3"}
    games = [
        {
            "number": n,
            "half": 1 if n <= 20 else 2,
            "kind": "regular",
            "parts": [{"arrangement": "single_line", "amount": "50.00", "announced_at": "19:00"}],
            "started_at": "19:01",
            "balls": list(range(1, 76)),
            "claims": [{"part": 1, "at": "19:30", "player": "A Player", "card": card}] * 15,
        }
        for n in range(1, 41)
    ]
    night = {"format": "beano-night/1", "license": "L", "date": "2026-12-04", "games": games}
    text = json.dumps(night, indent=1)
    return text + " " * max(limit - len(text), 0)


def measured(path: Path) -> str:
    done = subprocess.run(
        [PYTHON, "-c", READ, str(path)], cwd=ROOT, capture_output=True, text=True, check=True
    )
    seconds, before, after, said = done.stdout.split(" ", 3)
    return (
        f"{path.stat().st_size / 2**20:.2f} MB: {float(seconds):.3f} s, peak "
        f"{int(after) / 1024:.0f} MB (Django alone {int(before) / 1024:.0f} MB): {said.strip()}"
    )


def main() -> None:
    from nightfile import files

    folder = Path(tempfile.mkdtemp(prefix="beano-bench-night-"))
    big = folder / "dump.json"
    big.write_text(dump(60_000))
    print("refuse " + measured(big))
    full = folder / "full.json"
    full.write_text(at_the_ceiling(files.MAX_BYTES))
    print("read (40 games, 3,000 balls, 600 claims) " + measured(full))


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "beano.settings")
    import django

    django.setup()
    main()
