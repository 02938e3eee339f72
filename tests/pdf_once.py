"""PDFs rendered once per process for the tests that need a PDF in place but not what it shows.

WeasyPrint takes a fraction of a second to seconds a document. A test that downloads a PDF to
check who may reach it, that a GET writes nothing, or that the page answers, does not read the
document: the first rendering in a process is real, and every later call of the same renderer
is given that first PDF. What a PDF shows is tested where it is rendered for real each time
(tests/reports/test_pdf*.py, tests/nightfile/test_control_sheets.py)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from types import ModuleType
from typing import Any
from unittest import mock

_FIRST: dict[str, bytes] = {}


@contextlib.contextmanager
def rendered_once(module: ModuleType, name: str) -> Iterator[None]:
    """While open, ``module.name`` (a function returning a PDF's bytes) renders for real the
    first time in this process and returns that PDF on every later call."""
    real = getattr(module, name)
    key = f"{module.__name__}.{name}"

    def first(*args: Any, **kwargs: Any) -> bytes:
        if key not in _FIRST:
            _FIRST[key] = real(*args, **kwargs)
        return _FIRST[key]

    with mock.patch.object(module, name, first):
        yield
