"""docs/API.md's examples, run as a reader would type them: against a live server of the seeded
demo, with bash, curl and python3, in the order the document gives them.

The document's convention: every code block fenced as ``sh`` is run (in its own bash with
``set -euo pipefail``, the variables and functions of the blocks before it carried over, in a
directory where ``docs/`` is the repository's), and must exit 0; the block fenced as ``text``
right after it, if any, says what it answers: each ``HTTP/1.1 NNN`` line a status the output
must show, in that order, and each citation (``961 CMR …``) one the output must name; a text
block without a status line is output to be found as it is, line by line."""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.demo_snapshot import seed_demo

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "API.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.M | re.S)
STATUS = re.compile(r"^HTTP/[\d.]+ (\d{3})\b", re.M)
CITATION = re.compile(r"961 CMR [\d.]+(?:\([\w]+\))+")


@dataclass(frozen=True)
class Example:
    number: int
    script: str
    answers: str  # the text block after it ('' if none)

    def expected_statuses(self) -> list[str]:
        return STATUS.findall(self.answers)


def examples(text: str) -> list[Example]:
    blocks = [(m.group(1), m.group(2)) for m in FENCE.finditer(text)]
    found = []
    for i, (kind, body) in enumerate(blocks):
        if kind != "sh":
            continue
        following = blocks[i + 1] if i + 1 < len(blocks) else ("", "")
        found.append(Example(len(found) + 1, body, following[1] if following[0] == "text" else ""))
    return found


def run(example: Example, state: Path, workdir: Path, base: str) -> subprocess.CompletedProcess:
    """The block in a new bash, after the state the blocks before it left, leaving its own."""
    script = (
        "set -euo pipefail\nset -a\n"
        f"source {state}\n"
        # Kept even when the block fails midway: what it found is what a reader would have.
        f"trap '{{ export -p; declare -f; }} > {state}.next && mv {state}.next {state}' EXIT\n"
        f"{example.script}\n"
    )
    env = {"PATH": os.environ["PATH"], "HOME": str(workdir), "BASE": base, "LC_ALL": "C.UTF-8"}
    return subprocess.run(
        ["bash", "-c", script],
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def problems_with(example: Example, done: subprocess.CompletedProcess) -> list[str]:
    out = done.stdout
    found = []
    if done.returncode != 0:
        found.append(f"exit {done.returncode}: {done.stderr.strip()[-400:]}")
    statuses = STATUS.findall(out)
    expected = example.expected_statuses()
    if statuses != expected:
        found.append(f"statuses {statuses}, the document says {expected}")
    for citation in sorted(set(CITATION.findall(example.answers))):
        if citation not in out:
            found.append(f"does not name {citation}")
    if example.answers and not expected:
        for line in example.answers.splitlines():
            if line.strip() and line.strip() not in out:
                found.append(f"does not answer {line.strip()!r}")
    return found


def test_the_convention_finds_the_examples_and_what_they_answer():
    found = examples(DOC.read_text())
    assert len(found) >= 10
    scripts = "\n".join(e.script for e in found)
    for operation in ("/night/", "/balls/", "/sales/", "/night-files/", "/commission/reports/"):
        assert operation in scripts, operation
    assert "Idempotency-Key" in scripts and "--etag-compare" in scripts
    statuses = [s for e in found for s in e.expected_statuses()]
    assert {"200", "201", "304", "403", "404", "422"} <= set(statuses)
    refusal = next(e for e in found if "422" in e.expected_statuses())
    assert set(CITATION.findall(refusal.answers)) == {"961 CMR 3.04(6)(a)"}


def test_a_check_of_an_example_can_fail():
    example = Example(1, "true", "HTTP/1.1 201 Created\n961 CMR 3.04(6)(a)\n")
    done = subprocess.CompletedProcess([], 0, stdout="HTTP/1.1 200 OK\n", stderr="")
    assert problems_with(example, done) == [
        "statuses ['200'], the document says ['201']",
        "does not name 961 CMR 3.04(6)(a)",
    ]


def test_the_documents_examples_run_against_the_demo(live_server: Any, tmp_path: Path) -> None:
    seed_demo()
    (tmp_path / "docs").symlink_to(ROOT / "docs")
    state = tmp_path / "state.sh"
    state.write_text("")
    failures = []
    for example in examples(DOC.read_text()):
        done = run(example, state, tmp_path, live_server.url)
        found = problems_with(example, done)
        if found:
            first = example.script.strip().splitlines()[0]
            failures.append(f"example {example.number} ({first}): " + "; ".join(found))
    if failures:
        pytest.fail("\n".join(failures), pytrace=False)
