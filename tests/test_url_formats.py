"""``url_format``: a page's URL reversed once for a list, the same as ``reverse`` gives."""

from __future__ import annotations

import pytest
from django.urls import NoReverseMatch, reverse

from beano.url_formats import url_format


@pytest.mark.parametrize(
    ("name", "args"),
    [("organization_home", [7]), ("occasion_record", [7, 123456]), ("audit_log", [1])],
)
def test_it_gives_what_reverse_gives(name, args):
    assert url_format(name, len(args)).format(*args) == reverse(name, args=args)


def test_a_page_without_ids_is_its_url():
    assert url_format("commission_reports", 0) == reverse("commission_reports")


def test_more_ids_than_the_page_takes_is_an_error_not_a_wrong_link():
    with pytest.raises(NoReverseMatch):
        url_format("organization_home", 2)
