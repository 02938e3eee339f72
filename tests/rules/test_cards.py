import pytest

from beano.rules.cards import (
    ALL_SQUARES,
    COMMON_ARRANGEMENTS,
    FREE,
    ball_label,
    column_range,
    covers,
    letter,
)


@pytest.mark.parametrize(
    "number,label",
    [
        (1, "B1"),
        (15, "B15"),
        (16, "I16"),
        (30, "I30"),
        (31, "N31"),
        (45, "N45"),
        (46, "G46"),
        (60, "G60"),
        (61, "O61"),
        (75, "O75"),
    ],
)
def test_each_ball_has_its_letter(number, label):
    assert ball_label(number) == label


@pytest.mark.parametrize("number", [0, 76, -3])
def test_there_is_no_ball_outside_1_to_75(number):
    with pytest.raises(ValueError, match="not a ball"):
        letter(number)


def test_columns_hold_fifteen_numbers_each():
    assert list(column_range("N")) == list(range(31, 46))
    assert len(ALL_SQUARES) == 25 and FREE in ALL_SQUARES


def test_the_free_centre_counts_toward_a_line():
    line = COMMON_ARRANGEMENTS["single_line"][1]
    assert covers(line, {"B3", "I3", "G3", "O3"})
    assert not covers(line, {"B3", "I3", "G3"})


def test_the_common_arrangements_have_their_variants():
    counts = {code: len(variants) for code, (_, variants) in COMMON_ARRANGEMENTS.items()}
    assert counts["single_line"] == 12
    assert counts["two_lines"] == 66
    assert counts["postage_stamp"] == 4
    assert counts["six_pack"] == 12
    assert counts["coverall"] == 1 and len(COMMON_ARRANGEMENTS["coverall"][1][0]) == 25
    assert covers(COMMON_ARRANGEMENTS["four_corners"][1], {"B1", "O1", "B5", "O5"})
    assert not covers(COMMON_ARRANGEMENTS["four_corners"][1], {"B1", "O1", "B5"})


def test_the_arrangements_are_shipped_as_data(db):
    from games.models import Arrangement

    assert Arrangement.objects.count() == len(COMMON_ARRANGEMENTS)
    assert Arrangement.objects.get(code="letter_x").is_won_by(
        {"B1", "I2", "G4", "O5", "O1", "G2", "I4", "B5"}
    )
