"""Text typed by people is cleaned one way (issue 41): ``beano.text`` puts it on one line, and
every service, form and selector goes through it (``one_line``, ``text`` for a service's field,
``folded``/``same_words`` to compare). A walk of the apps' code fails on a cleaner of its own: a
``" ".join(x.split())`` or a ``re.sub(r"\\s+", " ", x)`` outside beano/text.py."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from beano.settings import PROJECT_APPS
from beano.text import folded, one_line, same_words, text

ROOT = Path(__file__).resolve().parent.parent
APPS = ("beano", *PROJECT_APPS)
#: The one cleaner.
CLEANER = "beano/text.py"


def _is_split_without_sep(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "split"
        and not node.args
        and not node.keywords
    )


def _cleans_by_hand(node: ast.AST) -> bool:
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return False
    func = node.func
    if (
        func.attr == "join"
        and isinstance(func.value, ast.Constant)
        and func.value.value == " "
        and len(node.args) == 1
    ):
        return _is_split_without_sep(node.args[0])
    if func.attr == "sub" and isinstance(func.value, ast.Name) and func.value.id == "re":
        pattern, repl = [*node.args, None, None][:2]
        return (
            isinstance(pattern, ast.Constant)
            and isinstance(repl, ast.Constant)
            and str(pattern.value).startswith("\\s")
            and repl.value == " "
        )
    return False


def text_cleaned_by_hand(root: Path) -> list[str]:
    """Each place outside the one cleaner that puts text on one line itself."""
    found = []
    for app in APPS:
        for path in sorted((root / app).rglob("*.py")):
            name = path.relative_to(root).as_posix()
            if "migrations" in path.parts or name == CLEANER:
                continue
            tree = ast.parse(path.read_text(), filename=name)
            found += [f"{name}:{n.lineno}" for n in ast.walk(tree) if _cleans_by_hand(n)]
    return found


def test_no_module_but_the_one_cleaner_cleans_text_by_hand():
    assert text_cleaned_by_hand(ROOT) == [], "Clean typed text with beano.text (one_line, text)."


def test_the_walk_can_fail(tmp_path):
    for app in APPS:
        (tmp_path / app).mkdir()
    (tmp_path / "games" / "names.py").write_text(
        "import re\n"
        "def a(name):\n"
        "    return ' '.join(name.split())\n"
        "def b(name):\n"
        "    return ' '.join((name or '').split()).casefold()\n"
        "def c(name):\n"
        "    return re.sub(r'\\s+', ' ', name).strip()\n"
        "def d(words):\n"
        "    return ' '.join(words)\n"  # joining a list: not cleaning
        "def e(code):\n"
        "    return ''.join(code.split())\n"  # a code without its spaces: not a line of text
        "def f(line):\n"
        "    return ' '.join(line.split(','))\n"
    )
    (tmp_path / CLEANER).write_text("def one_line(v):\n    return ' '.join(v.split())\n")
    assert text_cleaned_by_hand(tmp_path) == [
        "games/names.py:3",
        "games/names.py:5",
        "games/names.py:7",
    ]


@pytest.mark.parametrize(
    ("typed", "clean"),
    [
        ("  Ann\t Lee \n", "Ann Lee"),
        ("Ann\r\nLee", "Ann Lee"),
        ("Ann\u00a0Lee", "Ann Lee"),  # a pasted no-break space
        (None, ""),
        ("", ""),
        (42, "42"),
    ],
)
def test_one_line(typed, clean):
    assert one_line(typed) == clean


def test_same_words_and_folded():
    assert same_words("North  Andover", "north andover")
    assert not same_words("Andover", "North Andover")
    assert folded(" ANN\tLee ") == "ann lee"


def test_text_refuses_naming_the_field():
    from django.core.exceptions import ValidationError

    assert text("  a  b ", "payee") == "a b"
    assert text("   ", "memo", required=False) == ""
    with pytest.raises(ValidationError) as missing:
        text(" \n ", "reason", missing="Say why.")
    assert missing.value.message_dict == {"reason": ["Say why."]}
    with pytest.raises(ValidationError) as long:
        text("x" * 61, "reference", limit=60)
    assert long.value.message_dict == {"reference": ["At most 60 characters."]}
