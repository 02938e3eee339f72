"""Money said in words is said one way (``beano.rules.money.usd``): "$1,200.00", never the
database's "$1200.0000". The 2025 W-2G threshold, a dated row read back with four decimals,
once printed so in the refusal of a payout without the winner's details; and a walk over the
code finds no f-string that writes "$" before an amount not formatted."""

from __future__ import annotations

import ast
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from beano.rules.money import usd
from beano.settings import PROJECT_APPS
from games.payout_services import check_w2g

ROOT = Path(__file__).resolve().parent.parent
APPS = ("beano", *PROJECT_APPS)
#: The formatter itself puts "$" before the text it has formatted.
FORMATTER = "beano/rules/money.py"


def _raw_amounts(root: Path) -> list[str]:
    """Each f-string whose "$" is followed by a value written as it is (no format, no usd)."""
    found = []
    for app in APPS:
        for path in (root / app).rglob("*.py"):
            name = str(path.relative_to(root))
            if "migrations" in path.parts or name == FORMATTER:
                continue
            for node in ast.walk(ast.parse(path.read_text(), filename=name)):
                if not isinstance(node, ast.JoinedStr):
                    continue
                for before, value in zip(node.values, node.values[1:], strict=False):
                    if (
                        isinstance(before, ast.Constant)
                        and str(before.value).endswith("$")
                        and isinstance(value, ast.FormattedValue)
                        and value.format_spec is None
                    ):
                        found.append(f"{name}:{node.lineno}: {ast.unparse(value.value)}")
    return found


def test_no_amount_is_written_after_a_dollar_sign_unformatted():
    assert _raw_amounts(ROOT) == []


def test_the_walk_can_fail(tmp_path):
    for app in APPS:
        (tmp_path / app).mkdir()
    (tmp_path / "games" / "bad.py").write_text('amount = 1\nmessage = f"paid ${amount}"\n')
    assert _raw_amounts(tmp_path) == ["games/bad.py:2: amount"]


@pytest.mark.parametrize(
    ("amount", "words"),
    [
        (Decimal("1200.0000"), "$1,200.00"),
        (Decimal("600"), "$600.00"),
        (Decimal("0.5"), "$0.50"),
        (Decimal("-12"), "($12.00)"),
    ],
)
def test_the_formatter_writes_money_as_money(amount, words):
    assert usd(amount) == words


def test_the_w2g_refusal_says_the_threshold_as_money():
    with pytest.raises(ValidationError) as refused:
        check_w2g(None, Decimal("1200.0000"), Decimal("1500.0000"))
    (message,) = refused.value.messages
    assert "a single win of $1,500.00 ($1,200.00 or more) needs Form W-2G" in message
    assert "0000" not in message
