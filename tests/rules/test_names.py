"""People matched by name, not by string (961 CMR 3.04(1)(f), (h))."""

import pytest

from beano.rules.names import match, may_be_same_person, same_person


@pytest.mark.parametrize(
    "typed",
    [
        "Mary Gallagher",
        "Gallagher, Mary",
        "  mary   GALLAGHER ",
        "Gallagher Mary",
        "Máry Gallagher.",
    ],
)
def test_the_same_name_written_another_way_is_the_same_person(typed):
    assert same_person(typed, "Mary Gallagher")


@pytest.mark.parametrize(
    "typed",
    ["M. Gallagher", "Gallagher, M", "Mary Galagher", "Mary Gallaghre", "Mary Ann Gallagher"],
)
def test_a_name_that_may_be_the_person_is_near(typed):
    assert not same_person(typed, "Mary Gallagher")
    assert may_be_same_person(typed, "Mary Gallagher")


@pytest.mark.parametrize(
    "typed", ["Mary Smith", "John Gallagher", "Gallagher", "Marie Gallant", ""]
)
def test_another_person_is_neither(typed):
    assert not same_person(typed, "Mary Gallagher")
    assert not may_be_same_person(typed, "Mary Gallagher") or typed == "Gallagher"


def test_match_sorts_the_people_into_exact_and_near():
    people = [(1, "Mary Gallagher"), (2, "Thomas Ferreira"), (3, "Mary Galagher")]
    assert match("gallagher, mary", people) == ([1], [3])
    assert match("T. Ferreira", people) == ([], [2])
    assert match("Ann Pires", people) == ([], [])
