"""The project's documents link only to what is in the repository, and to what is there: every
relative link of a Markdown file at the top level or under docs/ resolves to a file or folder of
the repository (and its #anchor to a heading of that file), and none points outside it (an
absolute path, file://, or ../ past the repository's root)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: ``[text](target)`` and ``![alt](target "title")``; the target ends at a space or ")".
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
#: ``<./path>`` autolinks, and ``[label]: target`` reference definitions.
AUTOLINK = re.compile(r"<((?:\.{0,2}/|[\w.-]+/)[^>\s]*)>")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.MULTILINE)
REMOTE = re.compile(r"^(?:https?|mailto|ftp):", re.IGNORECASE)


def documents() -> list[Path]:
    return sorted(ROOT.glob("*.md")) + sorted((ROOT / "docs").rglob("*.md"))


def prose(text: str) -> str:
    """The text without its fenced code blocks and inline code, where a "link" is an example."""
    text = re.sub(r"^(```|~~~).*?^\1[^\n]*$", "", text, flags=re.MULTILINE | re.DOTALL)
    return re.sub(r"(`+)(?:(?!\1).)+?\1", "", text, flags=re.DOTALL)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    heading = re.sub(r"`|\*\*|__", "", heading.strip().lower())
    heading = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    return re.sub(r"[^\w\- ]", "", heading).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    for line in prose(path.read_text(encoding="utf-8")).splitlines():
        heading = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if heading:
            anchor = slug(heading.group(1))
            n = 1
            unique = anchor
            while unique in found:
                unique = f"{anchor}-{n}"
                n += 1
            found.add(unique)
    return found


def links(text: str) -> list[str]:
    body = prose(text)
    return LINK.findall(body) + AUTOLINK.findall(body) + REFERENCE.findall(body)


def broken(path: Path, root: Path = ROOT) -> list[str]:
    """What is wrong with each local link of ``path``, one line each; [] when all resolve."""
    problems = []
    for target in links(path.read_text(encoding="utf-8")):
        if REMOTE.match(target):
            continue
        where = f"{path.relative_to(root)}: ({target})"
        if target.lower().startswith("file:") or target.startswith(("/", "\\", "~")):
            problems.append(f"{where} points outside the repository")
            continue
        file_part, _, anchor = target.partition("#")
        resolved = (path.parent / file_part).resolve() if file_part else path
        if not resolved.is_relative_to(root):
            problems.append(f"{where} points outside the repository")
        elif not resolved.exists():
            problems.append(f"{where} names nothing in the repository")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            problems.append(f"{where}: {resolved.name} has no heading #{anchor}")
    return problems


def test_the_documents_are_found():
    names = {p.relative_to(ROOT).as_posix() for p in documents()}
    assert {"README.md", "SECURITY.md", "docs/GUIDE.md", "docs/DEPLOY.md"} <= names
    assert {"docs/DEVELOPING.md", "docs/ARCHITECTURE.md"} <= names


@pytest.mark.parametrize("path", documents(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_local_link_resolves_inside_the_repository(path):
    assert broken(path) == []


def test_the_readme_leads_to_the_guide_deployment_and_development():
    targets = set(links((ROOT / "README.md").read_text(encoding="utf-8")))
    assert {"docs/GUIDE.md", "docs/DEPLOY.md", "docs/DEVELOPING.md"} <= targets
    assert {"docs/ARCHITECTURE.md", "SECURITY.md"} <= targets


def test_the_readme_is_read_in_five_minutes():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 160


def test_the_check_finds_each_kind_of_bad_link(tmp_path):
    """The checker itself: each kind of bad link is named, a good one and examples in code
    are not."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "OTHER.md").write_text("# Other\n\n## The demo's data\n")
    page = tmp_path / "docs" / "PAGE.md"
    page.write_text(
        "# Page\n\n"
        "[ok](OTHER.md#the-demos-data) [ok too](#page) [web](https://example.org/x)\n"
        "[missing](GONE.md) [shared](../../shared/DESIGN.md) [abs](/work/shared/STYLE.md)\n"
        "[anchor](OTHER.md#nowhere) [file](file:///etc/passwd)\n\n"
        "```\n[in code](NOT-CHECKED.md)\n```\n"
        "and `[inline](ALSO-NOT.md)`\n"
    )
    problems = broken(page, root=tmp_path)
    assert len(problems) == 5, problems
    assert "docs/PAGE.md: (GONE.md) names nothing in the repository" in problems
    assert "docs/PAGE.md: (../../shared/DESIGN.md) points outside the repository" in problems
    assert "docs/PAGE.md: (/work/shared/STYLE.md) points outside the repository" in problems
    assert "docs/PAGE.md: (OTHER.md#nowhere): OTHER.md has no heading #nowhere" in problems
    assert "docs/PAGE.md: (file:///etc/passwd) points outside the repository" in problems
