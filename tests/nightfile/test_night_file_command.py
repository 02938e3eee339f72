"""``import_night`` as the shell runs it: a file over the ceiling refused in one line before it
is parsed, a byte order mark accepted, and with --json every refusal printed as JSON in the
shape docs/formats/night-file.md gives (issue 40, item 8)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from nightfile import files
from occasions.models import Occasion, PaperRecord
from tests.nightfile.night_fixtures import known_night
from tests.nightfile.test_night_entry import run_command


def claims_dump(claims: int) -> str:
    """A file like the one that ran five minutes at 565 MB: one game of ``claims`` claims."""
    card = {f"{letter}{row}": 1 for letter in "BIGO" for row in (1, 2)}
    claim = {"part": 1, "at": "19:30", "player": "A Player", "table": "4", "card": card}
    game = {"number": 1, "half": 1, "kind": "regular", "parts": [], "claims": [claim] * claims}
    night = {"format": "beano-night/1", "license": "L", "date": "2026-12-04", "games": [game]}
    return json.dumps(night, indent=2)


def test_a_file_over_the_ceiling_is_refused_in_one_line_before_it_is_parsed(
    db, tmp_path, monkeypatch
):
    text = claims_dump(60_000)
    assert len(text) > 17 * 1024 * 1024  # the 18 MB file of the issue
    path = tmp_path / "dump.json"
    path.write_text(text)

    def never(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a file over the ceiling is never parsed")

    monkeypatch.setattr(files.json, "loads", never)
    status, out, err = run_command("import_night", str(path))
    assert status == 2 and out == ""
    assert err.count("\n") <= 1 and "Traceback" not in err
    assert "is too large for a night file: it holds at most 2 MB" in err


def test_a_file_at_the_ceiling_is_read(db, tmp_path):
    path = tmp_path / "big.json"
    text = json.dumps({"format": "beano-night/1", "license": "L", "pad": ""})
    path.write_text(text[:-2] + " " * (files.MAX_BYTES - len(text)) + '"}')
    assert path.stat().st_size == files.MAX_BYTES
    assert files.load(path)["format"] == "beano-night/1"
    path.write_text(text[:-2] + " " * (files.MAX_BYTES - len(text) + 1) + '"}')
    with pytest.raises(files.NightFormatError, match="too large"):
        files.load(path)


def test_a_file_saved_with_a_byte_order_mark_is_recorded(night_records, report_clock, tmp_path):
    """Notepad saves UTF-8 with a byte order mark: that file was "not a JSON file"."""
    tenant = night_records
    path = tmp_path / "notepad.json"
    data = json.dumps(known_night(tenant.organization.licenses.get().number))
    path.write_bytes(b"\xef\xbb\xbf" + data.encode())
    status, _, err = run_command("import_night", str(path))
    assert (status, err) == (0, ""), err
    assert Occasion.objects.get(date="2026-12-04").status == Occasion.Status.CLOSED


def test_a_refusal_with_json_is_printed_as_json(night_records, report_clock, tmp_path):
    tenant = night_records
    data = known_night(tenant.organization.licenses.get().number)
    data["door_prizes"][1]["value"] = "190.00"  # $25 + $190: over the $200 in force
    path = tmp_path / "refused.json"
    path.write_text(json.dumps(data))
    status, out, err = run_command("import_night", str(path), "--json")
    assert status == 2 and err == ""
    printed = json.loads(out)
    assert printed == {
        "file": str(path),
        "status": "refused",
        "saved": False,
        "refusals": [
            {
                "sheet": "Extras",
                "act": "door prize (Quilt)",
                "at": "20:00",
                "message": printed["refusals"][0]["message"],
                "citation": "961 CMR 3.04(8)(e)",
                "text": printed["refusals"][0]["text"],
            }
        ],
    }
    assert "$215.00" in printed["refusals"][0]["message"]
    assert printed["refusals"][0]["text"].startswith("Extras, door prize (Quilt) at 8:00 PM: ")
    assert not PaperRecord.objects.exists()


@pytest.mark.parametrize(
    "content,says",
    [
        ("this is not JSON", "not a JSON file"),
        ('{"format": "beano-night/2"}', '"format" must be "beano-night/1"'),
    ],
)
def test_an_unreadable_file_with_json_is_printed_as_json(db, tmp_path, content, says):
    path = tmp_path / "bad.json"
    path.write_text(content)
    status, out, err = run_command("import_night", str(path), "--json")
    assert status == 2 and err == ""
    printed = json.loads(out)
    assert printed["status"] == "unreadable" and printed["saved"] is False
    assert says in printed["message"] and printed["file"] == str(path)


def test_a_missing_file_with_json_is_printed_as_json(db, tmp_path):
    status, out, _ = run_command("import_night", str(tmp_path / "none.json"), "--json")
    assert status == 2 and json.loads(out)["message"] == "no such file."


@pytest.mark.parametrize(
    "games,says",
    [
        (
            [{"number": n, "claims": [{}] * 100} for n in range(1, 8)],
            "night.games: 700 claims in all; a night holds at most 600.",
        ),
        (
            [{"number": 1, "half": 1, "kind": "regular", "balls": list(range(1, 77))}],
            "night.games[0].balls: a list of at most the 75 balls.",
        ),
        (
            [{"number": 1, "half": 1, "kind": "regular", "claims": [{}] * 201}],
            "night.games[0].claims: 201 rows; a night's sheet holds at most 200.",
        ),
    ],
)
def test_a_night_larger_than_a_night_is_refused_before_any_act(db, tmp_path, games, says):
    """Under the ceiling a file can still hold thousands of claims, each an act the services
    judge: a night's rows are bounded so its work is."""
    path = tmp_path / "many.json"
    night = {"format": "beano-night/1", "license": "L", "date": "2026-12-04", "games": games}
    path.write_text(json.dumps(night))
    status, out, err = run_command("import_night", str(path))
    assert status == 2 and out == "" and says in err and err.count("\n") <= 1
