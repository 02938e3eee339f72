"""No side doors: a refusal that rests on the regulation is the rules service's, so it carries
its paragraph and is in the refused actions' log. This walks every refusal the code can make
outside ``beano/rules`` (each ``raise ValidationError``/``PermissionDenied``, each form error
and page message a view adds) and fails on any that cites 961 CMR, a paragraph like (4)(c) or
the Beano Law in its own words: that refusal belongs in a rule. What remains outside are
refusals of bad input and of the state of a record (a quantity that is not a number, a game
already started), which cite nothing."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("beano", "organizations", "occasions", "equipment", "games", "reports", "inspections")
#: What a citation looks like in a message.
CITES = re.compile(r"3\.0\d|CMR|\(\d{1,2}\)\([a-z]\)|c\.\s?271|Beano Law|§")
REFUSALS = {"ValidationError", "PermissionDenied"}
ADDERS = {"add_error", "error"}  # form.add_error(...), messages.error(...)


def _name(node: ast.AST) -> str:
    return node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")


def refusals(tree: ast.AST) -> Iterator[ast.AST]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if _name(exc) in REFUSALS:
                yield node
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ADDERS
        ):
            yield node


def cited(node: ast.AST) -> list[str]:
    return [
        n.value
        for n in ast.walk(node)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and CITES.search(n.value)
    ]


def modules() -> Iterator[Path]:
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if "/migrations/" in rel or rel.startswith("beano/rules/"):
                continue
            yield path


def test_no_refusal_outside_the_rules_service_cites_the_regulation():
    found = []
    for path in modules():
        for node in refusals(ast.parse(path.read_text(), filename=str(path))):
            for text in cited(node):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {text.strip()[:80]!r}")
    assert not found, "refusals citing the regulation outside the rules service:\n" + "\n".join(
        found
    )


def test_the_walk_finds_a_side_door_when_there_is_one():
    """The walk itself can fail: a refusal of the old night import is caught."""
    side_door = ast.parse(
        'raise ValidationError(f"{name} is not on the worker list: only listed persons '
        'conduct or assist in Beano (961 CMR 3.04(1)(b)).")'
    )
    (node,) = refusals(side_door)
    assert cited(node)
    assert sum(1 for _ in modules()) > 100  # it walks the apps, not an empty folder
