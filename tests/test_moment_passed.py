"""An act's moment is passed, not ambient (issue 41, item 3): each service is given its moment
as ``at`` (``occasions.moments``: live, from paper, from the laptop's queue) by the view or the
night-file reader, and ``occasions.services.moment_of`` is the one function that says what
"now" is for an act. So no app keeps a ContextVar that changes what a service judges (the
audit module's, which says who acts and where the events come from, are the one exception), no
code asks "are we entering paper?" of anything but the moment it was given, and a function
given an act's moment reads the clock only through ``moment_of``, or for when the act is
recorded (not when it happened)."""

from __future__ import annotations

import ast
import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from occasions import moments, paper
from occasions.services import moment_of
from tests.fixtures.games import at_night

ROOT = Path(__file__).resolve().parent.parent
APPS = ("beano", "organizations", "occasions", "games", "reports", "inspections")
#: The audit trail's own context: the request being answered (who acts), the hall laptop's
#: session and the provenance of events (set from the moment by the night-file reader and by a
#: late close); none changes what a service allows.
CONTEXT_ALLOWED = {"organizations/audit.py"}
#: Functions given an act's moment that read the clock for when the act is *recorded*: whether
#: the night is over now (a late close), and when a late close was recorded.
CLOCK_ALLOWED = {
    ("occasions/services.py", "moment_of"),
    ("occasions/floor_services.py", "closed_late"),
    ("occasions/floor_services.py", "_close"),
}
CLOCK = {"now", "localdate", "today", "utcnow"}


def _modules() -> Iterator[tuple[str, ast.Module]]:
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            yield path.relative_to(ROOT).as_posix(), ast.parse(path.read_text(), str(path))


def test_no_app_keeps_an_ambient_moment():
    found = [
        f"{name}:{node.lineno}"
        for name, tree in _modules()
        if name not in CONTEXT_ALLOWED
        for node in ast.walk(tree)
        if (isinstance(node, ast.Name) and node.id == "ContextVar")
        or (isinstance(node, ast.Attribute) and node.attr == "ContextVar")
        or (isinstance(node, ast.alias) and node.name.endswith("ContextVar"))
    ]
    assert found == []


def test_whether_an_act_comes_from_paper_is_read_from_its_moment():
    """Nothing asks the paper module which sheet is being entered: ``moments.paper_of(at)``."""
    found = [
        f"{name}:{node.lineno}"
        for name, tree in _modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in ("paper", "paper_entry")
        and node.attr in ("current", "entering", "_current")
    ]
    assert found == []
    assert not hasattr(paper, "current")
    assert not hasattr(paper, "entering")


def test_a_function_given_an_acts_moment_reads_the_clock_only_through_moment_of():
    found = []
    for name, tree in _modules():
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if "at" not in {a.arg for a in fn.args.args + fn.args.kwonlyargs}:
                continue
            if (name, fn.name) in CLOCK_ALLOWED:
                continue
            for call in ast.walk(fn):
                if (
                    isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Attribute)
                    and call.func.attr in CLOCK
                    and not call.args
                ):
                    found.append(f"{name}:{call.lineno} {fn.name}: {ast.unparse(call)}")
    assert found == []


def test_the_walks_see_the_code_they_judge():
    """The walks above read the services (not an empty tree): ``moment_of`` is found, and the
    services pass ``at`` to it."""
    functions = {
        (name, node.name)
        for name, tree in _modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef)
    }
    assert functions >= CLOCK_ALLOWED
    assert ("organizations/audit.py", "provenance") in functions


def test_a_moment_from_paper_says_where_it_came_from(tenant, occasion):
    record = paper.begin(
        occasion=occasion, sheets="Door sheet 1", reason="The laptop failed", by=tenant.bookkeeper
    )
    sheet = moments.paper_sheet(record, sheet="  Door   sheet 1 ", by=tenant.bookkeeper)
    moment = moments.from_paper(sheet, at_night(occasion, 19, 5))
    assert moment.source == moments.Source.PAPER
    assert moments.paper_of(moment) is sheet
    # What the audit trail has recorded of a paper act since it began: the same keys, the same
    # values.
    assert moment.provenance == {
        "entered": "after the fact",
        "source": record.source,
        "paper_record": record.pk,
        "sheet": "Door sheet 1",
        "entered_by": tenant.bookkeeper.get_username(),
        "entered_at": sheet.entered_at,
    }
    assert moment_of(occasion, moment, by=tenant.bookkeeper) == at_night(occasion, 19, 5)
    with pytest.raises(ValidationError, match="Give the time written on the sheet"):
        moment_of(occasion, moments.from_paper(sheet, None), by=tenant.bookkeeper)


def test_a_time_stated_with_no_paper_behind_it_needs_none(tenant, occasion):
    when = at_night(occasion, 19, 5)
    assert moments.paper_of(when) is None
    assert moment_of(occasion, when, by=tenant.bookkeeper) == when
    assert moments.live().provenance == {}
    assert moments.restated(None, when) == when


def test_a_moment_from_paper_is_held_inside_the_paper_part(tenant, occasion):
    record = paper.begin(
        occasion=occasion,
        sheets="Door sheet 2",
        reason="The Wi-Fi dropped",
        by=tenant.bookkeeper,
        starts_at=at_night(occasion, 18, 30),
        ends_at=at_night(occasion, 20, 0),
    )
    sheet = moments.paper_sheet(record, sheet="Door sheet 2", by=tenant.bookkeeper)
    later = at_night(occasion, 21, 0)
    # The same time with no paper behind it is not judged against the paper part.
    assert moment_of(occasion, later, by=tenant.bookkeeper) == later
    with pytest.raises(ValidationError):
        moment_of(occasion, moments.from_paper(sheet, later), by=tenant.bookkeeper)
    assert moments.restated(moments.from_paper(sheet, None), later).paper is sheet


def test_a_queued_moment_keeps_when_it_was_done():
    when = timezone.now() - dt.timedelta(minutes=5)
    moment = moments.from_queue(when, device="hall-laptop-1", queued_at=timezone.now())
    assert moment.source == moments.Source.QUEUE
    assert moments.stated(moment) == when
    assert moments.paper_of(moment) is None
    assert moment.provenance["device"] == "hall-laptop-1"
