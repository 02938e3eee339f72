"""The house stays readable: no Python module over 500 lines (migrations and the benchmarks
aside, the tests included) and no function over 80 lines in the application's code. A module
that grows past it is split by what it is about, a function by the steps it takes."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ("beano", "organizations", "occasions", "equipment", "games", "reports", "inspections")
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80


def _modules(*tops: str) -> list[Path]:
    return sorted(
        path
        for top in tops
        for path in (ROOT / top).rglob("*.py")
        if "migrations" not in path.parts
    )


def test_the_walk_finds_the_code() -> None:
    """The checks below look at something: every app and the tests are found."""
    found = {path.relative_to(ROOT).parts[0] for path in _modules(*APPS, "tests")}
    assert found == {*APPS, "tests"}
    assert len(_modules(*APPS)) > 100


def test_no_module_is_over_500_lines() -> None:
    long = {
        str(path.relative_to(ROOT)): count
        for path in _modules(*APPS, "tests")
        if (count := len(path.read_text().splitlines())) > MAX_MODULE_LINES
    }
    assert not long, f"modules over {MAX_MODULE_LINES} lines: {long}"


def test_no_function_of_the_apps_is_over_80_lines() -> None:
    long = {}
    for path in _modules(*APPS):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    long[f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"] = length
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines: {long}"
