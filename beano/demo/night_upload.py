"""The night file Post 171's bookkeeper uploads on the demo (docs/GUIDE.md, "Upload a night
file"): the example night, docs/formats/night-example.json, as shipped when the demo's calendar
leaves its day free (a past authorized day of Post 171 under the license it names, nothing
recorded on it, the workers' list of its year); on any other day the demo is seeded, the same
night moved by its date and license alone to the latest such day of this year, as the demo moves
it for its own night brought in from a file (``beano.demo.reports``). Reads; writes no row."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from beano.demo.reports import NIGHT_FILE, POST
from occasions.models import Occasion
from organizations.models import Organization, WorkerList
from organizations.selectors import authorized_days


@dataclass(frozen=True)
class ExampleNight:
    data: dict[str, Any]
    day: dt.date
    as_shipped: bool  # the file docs/formats/night-example.json itself uploads


def _free(post: Organization, day: dt.date, today: dt.date, license: str) -> bool:
    return (
        day < today
        and any(d.license.number == license for d in authorized_days(post, day, day))
        and not Occasion.objects.filter(organization=post, date=day).exists()
        and WorkerList.objects.filter(organization=post, year=day.year).exists()
    )


def example_night(today: dt.date) -> ExampleNight | None:
    """The example night to upload on the demo seeded ``today``; None if there is no free day."""
    post = Organization.objects.filter(name=POST).first()
    if post is None:
        return None
    data = json.loads(NIGHT_FILE.read_text(encoding="utf-8"))
    shipped = dt.date.fromisoformat(data["date"])
    if _free(post, shipped, today, data["license"]):
        return ExampleNight(data, shipped, as_shipped=True)
    days = authorized_days(post, dt.date(today.year, 1, 1), today - dt.timedelta(days=1))
    for d in sorted(days, key=lambda d: d.day, reverse=True):
        if _free(post, d.day, today, d.license.number):
            moved = data | {"date": d.day.isoformat(), "license": d.license.number}
            return ExampleNight(moved, d.day, as_shipped=False)
    return None


def file_to_upload(today: dt.date, folder: Path) -> tuple[Path, dt.date] | None:
    """The path of the example night to upload: the shipped file, or its moved copy written
    in ``folder``."""
    example = example_night(today)
    if example is None:
        return None
    if example.as_shipped:
        return NIGHT_FILE, example.day
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / NIGHT_FILE.name
    path.write_text(json.dumps(example.data, indent=2), encoding="utf-8")
    return path, example.day
