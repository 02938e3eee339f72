"""A refusal's words before its citation. The rules service's messages start with the paragraph
that refused ("961 CMR 3.04(1)(c): …", see ``beano.rules.base.Violation``), which logs, the audit
trail and the tests read; a page shows the plain words first and the citation after them."""

from __future__ import annotations

import re
from dataclasses import dataclass

# "961 CMR 3.04(1)(c): " or "M.G.L. c. 10 § 37: " at the start of a message, or inside a
# sentence where several messages were joined into one.
_CITATION = re.compile(r"(961 CMR 3\.\d+(?:\([0-9a-z]+\))*|M\.G\.L\. c\. 10 § \d+[A-Z]?): ")


@dataclass(frozen=True)
class Part:
    words: str
    citation: str = ""


def plain_first(text: str) -> list[Part]:
    """A message cut into its refusals, each its words and the citation that came before them.
    Text before the first citation is a part of its own with no citation."""
    text = str(text)
    found = list(_CITATION.finditer(text))
    if not found:
        return [Part(text)]
    parts = []
    if found[0].start() and text[: found[0].start()].strip():
        parts.append(Part(text[: found[0].start()].strip()))
    for i, match in enumerate(found):
        end = found[i + 1].start() if i + 1 < len(found) else len(text)
        words = text[match.end() : end].strip().rstrip(";").strip()
        parts.append(Part(words, match.group(1)))
    return parts
