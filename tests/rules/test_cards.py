import pytest

from beano.rules.cards import (
    ALL_SQUARES,
    COMMON_ARRANGEMENTS,
    FREE,
    NUMBERED_SQUARES,
    ball_label,
    column_range,
    covers,
    found_variant,
    is_whole_card,
    letter,
    position_name,
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


# What was typed, and the position found on it (issue 39: a whole card typed for "any single
# line" was judged square by square as if it were the line's squares)


def test_a_whole_card_is_every_numbered_square_and_nothing_less():
    assert len(NUMBERED_SQUARES) == 24
    assert is_whole_card(NUMBERED_SQUARES)
    assert is_whole_card(reversed(NUMBERED_SQUARES))  # in any order
    assert not is_whole_card(NUMBERED_SQUARES[1:])  # one square left blank
    assert not is_whole_card({"B2", "I2", "N2", "G2", "O2"})  # a line's squares
    assert not is_whole_card(())


def _squares(text: str) -> frozenset[str]:
    return frozenset(text.split())


ROW_2 = _squares("B2 I2 N2 G2 O2")


def test_the_position_found_is_a_variant_covered_with_the_free_centre():
    lines = COMMON_ARRANGEMENTS["single_line"][1]
    assert found_variant(lines, ROW_2 | {"B5", "O4"}) == ROW_2
    assert found_variant(lines, _squares("B3 I3 G3 O3")) == _squares("B3 I3 N3 G3 O3")
    assert found_variant(lines, _squares("B1 I2 G4")) is None
    assert found_variant(lines, ()) is None
    stamps = COMMON_ARRANGEMENTS["postage_stamp"][1]
    assert found_variant(stamps, _squares("G4 O4 G5 O5 B1")) == _squares("G4 O4 G5 O5")


@pytest.mark.parametrize(
    "squares,name",
    [
        ("B2 I2 N2 G2 O2", "row 2"),
        ("G1 G2 G3 G4 G5", "column G"),
        ("B1 I2 N3 G4 O5", "the diagonal B1–O5"),
        ("B5 I4 N3 G2 O1", "the diagonal B5–O1"),
        ("G1 O1 G2 O2", "the block G1–O2"),
        ("G4 O4 G5 O5", "the block G4–O5"),
        ("B3 I3 B4 I4 B5 I5", "the block B3–I5"),
        ("B1 I1 N1 G1 O1 B2 B3 B4 B5", "row 1 and column B"),
        ("B1 O1 B5 O5", "B1, O1, B5, O5"),
    ],
)
def test_each_position_found_has_a_name(squares, name):
    assert position_name(_squares(squares)) == name


def test_every_way_to_win_any_line_or_a_block_is_named_apart():
    for code in ("single_line", "two_lines", "postage_stamp", "six_pack"):
        variants = COMMON_ARRANGEMENTS[code][1]
        assert len({position_name(v) for v in variants}) == len(variants), code
