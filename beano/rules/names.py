"""People matched by name, not by string: the rules that forbid a listed worker to win (961 CMR
3.04(1)(h)) or to be paid (3.04(1)(f)) would have a side door if "Gallagher, Mary" or "mary
gallagher" were another person than Mary Gallagher. A name is read as its words, whatever their
order, case, accents, spacing and punctuation; a match is exact when the words are the same, and
near when they may be the same person written another way (an initial for a first name, a
letter missed or swapped): a near match must be resolved by a person, never guessed."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import TypeVar

T = TypeVar("T")
WORD = re.compile(r"[a-z]+")
#: Words that say nothing of who someone is ("Mary Gallagher Jr.").
NOISE = frozenset({"jr", "sr", "ii", "iii", "iv", "mr", "mrs", "ms", "miss", "dr"})


def words(name: str) -> tuple[str, ...]:
    """The words of a name, lower case, without accents or punctuation, in sorted order (so
    "Gallagher, Mary" and "Mary  GALLAGHER" have the same words)."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return tuple(sorted(w for w in WORD.findall(plain) if w not in NOISE))


def same_person(a: str, b: str) -> bool:
    """The same words: the same name, written another way."""
    wa, wb = words(a), words(b)
    return bool(wa) and wa == wb


def _close(a: str, b: str) -> bool:
    """Two words that may be one: the same, an initial of the other, or (five letters or more)
    one letter missed, added, changed or two swapped."""
    if a == b:
        return True
    if len(a) == 1 or len(b) == 1:
        return a[0] == b[0]
    if min(len(a), len(b)) < 5 or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diffs = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diffs) == 1 or (
            len(diffs) == 2 and diffs[1] == diffs[0] + 1 and a[diffs[0]] == b[diffs[1]]
        )
    short, long_ = sorted((a, b), key=len)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


def may_be_same_person(a: str, b: str) -> bool:
    """Near: every word of the shorter name stands for a different word of the longer one (the
    same, an initial, a slip of a letter), and at least one whole word is the same."""
    wa, wb = words(a), words(b)
    if not wa or not wb or wa == wb:
        return False
    short, long_ = sorted((wa, wb), key=len)
    if not {w for w in short if len(w) > 1} & set(long_):
        return False
    unused = list(long_)
    for word in short:
        match = next((w for w in unused if _close(word, w)), None)
        if match is None:
            return False
        unused.remove(match)
    return True


def match(name: str, people: Iterable[tuple[T, str]]) -> tuple[list[T], list[T]]:
    """The people (key, legal name) whose name is ``name`` written another way, and those it
    may be: (exact, near)."""
    exact: list[T] = []
    near: list[T] = []
    for key, legal_name in people:
        if same_person(name, legal_name):
            exact.append(key)
        elif may_be_same_person(name, legal_name):
            near.append(key)
    return exact, near
