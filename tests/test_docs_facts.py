"""The documents name what exists: docs/DEPLOY.md's configuration table lists exactly the
environment variables the settings read, and every `make` target a document names is in the
Makefile."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Where the environment is read: the settings, their helpers, and `make run`'s server.
READERS = ("beano/settings.py", "beano/env.py", "beano/devserver.py")
READ = re.compile(r"\b(?:env_\w+|_raw|environ\.get|getenv)\(\s*\"([A-Z][A-Z0-9_]+)\"")
#: `make x` as a command, perhaps after variables (`TEST_WORKERS=1 make test`), at the start of
#: inline code or of a line of a fenced code block; not the word "make" in prose.
COMMAND = re.compile(r"^\s*(?:[A-Z_]+=\S+ )*make ([a-z][\w-]*)", re.MULTILINE)
FENCED = re.compile(r"^```[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
INLINE = re.compile(r"`([^`\n]+)`")


def commands(text: str) -> list[str]:
    code = [*FENCED.findall(text), *INLINE.findall(FENCED.sub("", text))]
    return [target for block in code for target in COMMAND.findall(block)]


def variables_read() -> set[str]:
    return {name for path in READERS for name in READ.findall((ROOT / path).read_text())}


def variables_documented() -> set[str]:
    deploy = (ROOT / "docs" / "DEPLOY.md").read_text()
    table = deploy[deploy.index("| Variable | Default | Meaning |") :].split("\n\n")[0]
    rows = table.splitlines()[2:]
    return {name for row in rows for name in re.findall(r"`([A-Z][A-Z0-9_]+)`", row.split("|")[1])}


def test_the_configuration_table_lists_every_variable_read_and_no_other():
    read, documented = variables_read(), variables_documented()
    assert {"SECRET_KEY", "AUDIT_KEY", "DATABASE_URL", "CELERY_BROKER_VISIBILITY_TIMEOUT"} <= read
    assert read - documented == set(), "read but not in docs/DEPLOY.md"
    assert documented - read == set(), "in docs/DEPLOY.md but read nowhere"


def test_every_make_target_the_documents_name_is_in_the_makefile():
    targets = set(re.findall(r"^([a-z][\w-]*):", (ROOT / "Makefile").read_text(), re.MULTILINE))
    documents = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    named = {(path.name, target) for path in documents for target in commands(path.read_text())}
    assert {target for _, target in named} >= {"run", "test", "lint"}
    assert sorted((name, t) for name, t in named if t not in targets) == []
