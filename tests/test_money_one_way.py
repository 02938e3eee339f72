"""Money is read one way and written one way (issue 41). Read: every amount typed by a person goes
through ``beano.rules.money`` (``MoneyField`` in a form, ``money``/``parse_money`` in a service),
never ``Decimal(...)`` of the text: ``Decimal`` reads "4e2", "1_000" and Arabic-Indic digits as
numbers. Written: a template writes an amount with the builtin ``usd`` filter, $1,234.56 and a
negative one as ($12.00), never "$" before a variable (``floatformat`` writes "$-12.00"). Two walks,
over the apps' code and over the templates, each with a self-test that it can fail."""

from __future__ import annotations

import ast
import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.template import Context, Template

from beano.settings import PROJECT_APPS

ROOT = Path(__file__).resolve().parent.parent
APPS = ("beano", *PROJECT_APPS)
#: The one parser.
PARSER = "beano/rules/money.py"

#: Modules that still read a number with ``Decimal`` and catch its failure, each for a reason
#: that is not a person typing an amount. This list may only shrink: an entry whose module no
#: longer does so fails the test too, so remove it when you convert one.
ALLOWED = {
    # CLOSEOUT_VARIANCE_THRESHOLD from the environment, read while settings load (before the
    # form and model machinery beano.rules.money imports can be); an administrator's setting.
    "beano/env.py",
    # Compares a recorded figure with the current one in a backup's trail; reads no typing.
    "beano/backup/trail.py",
    # The figure an audit event recorded, shown in its line; reads no typing.
    "organizations/templatetags/audit_tags.py",
    # The ``usd`` filter: writes a figure a page holds (text, in a report's stored figures).
    "beano/templatetags/amounts.py",
    # A stored figure of the exceptions list, compared for the inspector; reads no typing.
    "inspections/exceptions.py",
}

#: String methods whose result handed to ``Decimal`` means text is being cleaned into an amount.
TEXT_METHODS = {"replace", "strip", "lstrip", "rstrip", "split", "removeprefix", "translate"}
#: Where a request's typing arrives.
TYPED = {"POST", "GET", "cleaned_data"}


def _is_decimal_call(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Name) and node.func.id in {"Decimal", "D"})
            or (isinstance(node.func, ast.Attribute) and node.func.attr == "Decimal")
        )
        and bool(node.args)
    )


def _cleans_text(node: ast.AST) -> bool:
    for sub in ast.walk(node):
        called = sub.func if isinstance(sub, ast.Call) else None
        if isinstance(called, ast.Attribute) and called.attr in TEXT_METHODS:
            return True
        if isinstance(sub, ast.Attribute) and sub.attr in TYPED:
            return True
    return False


def _catches_invalid_operation(handler: ast.ExceptHandler) -> bool:
    names = (
        {
            n.id if isinstance(n, ast.Name) else n.attr
            for n in ast.walk(handler.type)
            if isinstance(n, ast.Name | ast.Attribute)
        }
        if handler.type is not None
        else set()
    )
    return "InvalidOperation" in names


def hand_parsing(root: Path) -> dict[str, list[str]]:
    """Each module outside the one parser reading money by hand: what it does, by line."""
    found: dict[str, list[str]] = {}
    for app in APPS:
        for path in sorted((root / app).rglob("*.py")):
            name = path.relative_to(root).as_posix()
            if "migrations" in path.parts or name == PARSER:
                continue
            tree = ast.parse(path.read_text(), filename=name)
            for node in ast.walk(tree):
                if _is_decimal_call(node) and _cleans_text(node.args[0]):
                    found.setdefault(name, []).append(f"{node.lineno}: Decimal() of cleaned text")
                elif isinstance(node, ast.ExceptHandler) and _catches_invalid_operation(node):
                    found.setdefault(name, []).append(f"{node.lineno}: catches InvalidOperation")
    return found


def test_no_module_but_the_one_parser_reads_money_by_hand():
    found = hand_parsing(ROOT)
    assert {k: v for k, v in found.items() if k not in ALLOWED} == {}, (
        "Read an amount with beano.rules.money (MoneyField, money, parse_money)."
    )
    assert sorted(ALLOWED - set(found)) == [], "No longer needed: remove it from ALLOWED."


def test_the_code_walk_can_fail(tmp_path):
    for app in APPS:
        (tmp_path / app).mkdir()
    (tmp_path / "games" / "shares.py").write_text(
        "from decimal import Decimal, InvalidOperation\n"
        "def share(text):\n"
        "    return Decimal(text.replace('$', '').replace(',', ''))\n"
        "def other(text):\n"
        "    try:\n"
        "        return Decimal(text)\n"
        "    except (ValueError, InvalidOperation):\n"
        "        return None\n"
        "def typed(form):\n"
        "    return Decimal(form.cleaned_data['amount'])\n"
        "def stored(figures):\n"
        "    return Decimal(figures['gross'])\n"  # a stored figure: not typing
    )
    (tmp_path / "beano" / "rules").mkdir()
    (tmp_path / PARSER).write_text("from decimal import Decimal\nDecimal(' 1 '.strip())\n")
    assert hand_parsing(tmp_path) == {
        "games/shares.py": [
            "3: Decimal() of cleaned text",
            "7: catches InvalidOperation",
            "10: Decimal() of cleaned text",
        ]
    }


# Writing -------------------------------------------------------------------------------------

#: "$" written before a variable: the template writes the amount itself (``floatformat`` writes
#: "$-12.00"; a bare ``{{ amount }}`` "$-12.00" too, and "$1250.00" without its comma), and
#: ``usd`` would write a second "$".
DOLLAR_BEFORE = re.compile(r"\$\s*\{\{")
#: ``floatformat`` on a variable: money if a word of its name is one of these.
FLOATFORMAT = re.compile(r"\{\{\s*([\w.]+)\s*\|\s*floatformat")
MONEY_WORDS = {
    "amount",
    "price",
    "total",
    "share",
    "prize",
    "jackpot",
    "value",
    "paid",
    "carried",
    "limit",
    "cost",
    "fee",
    "rate",
    "receipts",
    "bank",
    "cash",
    "expense",
    "expenses",
    "threshold",
    "bonus",
    "increment",
    "cap",
    "consolation",
    "added",
    "gross",
    "net",
    "tax",
    "refund",
    "sale",
    "sales",
    "payout",
    "deposit",
    "balance",
    "rent",
    "proceeds",
    "dollars",
}


def _money_named(line: str) -> bool:
    return any(MONEY_WORDS & set(re.split(r"[._]", name)) for name in FLOATFORMAT.findall(line))


def _template_dirs(root: Path) -> list[Path]:
    dirs = [root / "templates"] + [root / app / "templates" for app in APPS]
    return [d for d in dirs if d.is_dir()]


def money_written_by_hand(root: Path) -> list[str]:
    found = []
    for folder in _template_dirs(root):
        for path in sorted(folder.rglob("*")):
            if path.suffix not in {".html", ".txt", ".xml", ".svg"}:
                continue
            for number, line in enumerate(path.read_text().splitlines(), start=1):
                if DOLLAR_BEFORE.search(line) or _money_named(line):
                    found.append(f"{path.relative_to(root).as_posix()}:{number}")
    return found


def test_no_template_writes_money_by_hand():
    assert money_written_by_hand(ROOT) == [], "Write an amount {{ amount|usd }}."


def test_the_template_walk_can_fail(tmp_path):
    (tmp_path / "templates" / "games").mkdir(parents=True)
    (tmp_path / "templates" / "games" / "a.html").write_text(
        '<p>${{ w.share|floatformat:"2g" }}</p>\n'
        "<p>{{ w.share|usd }}</p>\n"
        "<p>{{ prize_total|floatformat:2 }}</p>\n"
        "<p>{{ players|floatformat:0 }} players, {{ rate_percent }} %</p>\n"
        "<p>${{ s.police_total }}</p>\n"
    )
    assert money_written_by_hand(tmp_path) == [
        "templates/games/a.html:1",
        "templates/games/a.html:3",
        "templates/games/a.html:5",
    ]


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Decimal("1234.5"), "$1,234.50"),
        (Decimal("-12"), "($12.00)"),
        ("-12.00", "($12.00)"),  # a report's stored figure is text
        (0, "$0.00"),
        (None, "—"),
        ("", "—"),
        ("NaN", "—"),
    ],
)
def test_usd_is_a_builtin_of_every_template_and_writes_a_negative_in_parentheses(value, text):
    assert Template("{{ amount|usd }}").render(Context({"amount": value})) == text


# Writing in code -----------------------------------------------------------------------------

#: The one formatter of the door's running total in the browser (the JS twin of ``usd``).
JS_FORMATTER = "static/js/door.js"
#: "$" glued to a number in JavaScript, or a number written to the cent by hand.
JS_DOLLAR = re.compile(r"""["']\$["']\s*\+|\+\s*["']\$|toFixed\(""")
JS_USD = re.compile(r"\n(\s*)function usd\(.*?\n\1\}", re.DOTALL)


def _dollar_before(text: str) -> bool:
    return text.endswith("$") or text.endswith("$(")


def _writes_dollars(node: ast.AST) -> bool:
    if isinstance(node, ast.JoinedStr):
        return any(
            isinstance(a, ast.Constant)
            and isinstance(a.value, str)
            and a.value.endswith("$")
            and isinstance(b, ast.FormattedValue)
            for a, b in zip(node.values, node.values[1:], strict=False)
        )
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        template = node.func.value
        return (
            node.func.attr == "format"
            and isinstance(template, ast.Constant)
            and isinstance(template.value, str)
            and "${" in template.value
        )
    if isinstance(node, ast.BinOp) and isinstance(node.left, ast.Constant):
        left = node.left.value
        return isinstance(left, str) and (
            (isinstance(node.op, ast.Mod) and "$%" in left)
            or (isinstance(node.op, ast.Add) and left.endswith("$"))
        )
    return False


def dollars_written_by_hand(root: Path) -> list[str]:
    """Each place outside the one formatter that writes "$" before a number of its own making:
    an f-string "${x:,.2f}", a "${}".format(x), a "$%.2f" % x, a "$" + text; in the browser's
    scripts, a "$" + or a toFixed() outside the door's ``usd``."""
    found = []
    for app in APPS:
        for path in sorted((root / app).rglob("*.py")):
            name = path.relative_to(root).as_posix()
            if "migrations" in path.parts or name == PARSER:
                continue
            tree = ast.parse(path.read_text(), filename=name)
            found += [f"{name}:{n.lineno}" for n in ast.walk(tree) if _writes_dollars(n)]
    scripts = root / "static" / "js"
    for path in sorted(scripts.glob("*.js")) if scripts.is_dir() else []:
        name = path.relative_to(root).as_posix()
        text = path.read_text()
        if name == JS_FORMATTER:
            text = JS_USD.sub(lambda m: "\n" * m.group(0).count("\n"), text, count=1)
        for number, line in enumerate(text.splitlines(), start=1):
            if JS_DOLLAR.search(line):
                found.append(f"{name}:{number}")
    return sorted(set(found))


def test_no_code_writes_dollars_by_hand():
    assert dollars_written_by_hand(ROOT) == [], (
        "Write an amount with beano.rules.money.usd (the door's total with usd in door.js)."
    )


def test_the_dollar_walk_can_fail(tmp_path):
    for app in APPS:
        (tmp_path / app).mkdir()
    (tmp_path / "beano" / "rules").mkdir()
    (tmp_path / "beano" / "rules" / "prizes.py").write_text(
        "def a(x):\n"
        "    return f'The prize is ${x:,.2f}.'\n"
        "def b(x):\n"
        "    return '${}'.format(x)\n"
        "def c(x):\n"
        "    return '$%.2f' % x\n"
        "def d(x):\n"
        "    return 'paid $' + str(x)\n"
        "def e(x, n):\n"
        "    return f'{n:,} cards, {x} %, costs $'\n"  # no number after the "$"
    )
    (tmp_path / PARSER).write_text("def usd(x):\n    return f'${x:,.2f}'\n")
    (tmp_path / "static" / "js").mkdir(parents=True)
    (tmp_path / "static" / "js" / "floor.js").write_text('a = "$" + (n / 100).toFixed(2);\n')
    (tmp_path / JS_FORMATTER).write_text(
        "(function () {\n"
        "  function usd(cents) {\n"
        '    return "$" + (cents / 100).toFixed(2);\n'
        "  }\n"
        '  out.textContent = "$" + total;\n'
        "})();\n"
    )
    assert dollars_written_by_hand(tmp_path) == [
        "beano/rules/prizes.py:2",
        "beano/rules/prizes.py:4",
        "beano/rules/prizes.py:6",
        "beano/rules/prizes.py:8",
        "static/js/door.js:5",
        "static/js/floor.js:1",
    ]


@pytest.mark.parametrize(
    ("amount", "options", "text"),
    [
        (Decimal("1234.5"), {}, "$1,234.50"),
        (Decimal("-12"), {}, "($12.00)"),
        (Decimal("75.00"), {"bare_dollars": True}, "$75"),
        (Decimal("37.50"), {"bare_dollars": True}, "$37.50"),
        (Decimal("1.25"), {"signed": True}, "+$1.25"),
        (Decimal("-1250"), {"signed": True}, "−$1,250.00"),
        (Decimal("0"), {"signed": True}, "$0.00"),
        (Decimal("1234.50"), {"whole": True}, "$1,235"),
        (Decimal("-0.4"), {"whole": True}, "$0"),
    ],
)
def test_the_one_formatter(amount, options, text):
    from beano.rules.money import usd

    assert usd(amount, **options) == text
