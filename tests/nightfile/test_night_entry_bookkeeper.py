"""A compensated bookkeeper on a night entered from paper (the sign-in sheet, the door's voids,
the payouts, the close-out): each refusal cites 961 CMR 3.04(1)(g), the paragraph that refuses
it, and the Director's written authorization of (1)(g) for that person waives it. The hole: they
were refused citing (1)(b) at the sign-in and the act's own paragraph as a second person."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from occasions.models import Occasion
from tests.nightfile.night_fixtures import known_night
from tests.nightfile.test_night_entry import codes, enter, refused


def _karen_as_second_person(data: dict[str, Any], where: str) -> None:
    """Karen Pacheco, the compensated bookkeeper of the night, signs as a second person."""
    if where == "payout":
        data["games"][0]["claims"][0]["payout"]["verified_by"] = "Karen Pacheco"
    elif where == "void":
        data["door"]["voids"][0]["witness"] = "Karen Pacheco"
    else:
        data["closeout"] = {
            "opening_bank": "200.00",
            "cash_counted": "596.00",
            "counts": {},
            "cash_verified_by": "Karen Pacheco",
        }


@pytest.mark.parametrize(
    ("where", "act"),
    [("payout", "verify the payout"), ("void", "witness the void"), ("cash", "verify the cash")],
)
def test_a_compensated_bookkeeper_is_no_second_person_on_paper_citing_1g(
    night_records, report_clock, where, act
):
    """The hole: refused under the act's paragraph ((6)(e) for a payout), never (1)(g)."""
    tenant = night_records
    data = known_night(tenant.organization.licenses.get().number)
    _karen_as_second_person(data, where)
    error = refused(tenant, data)
    assert codes(error) == {"W-1G-NOT-A-SECOND-PERSON": "961 CMR 3.04(1)(g)"}
    assert act in error.messages[0]


@pytest.mark.parametrize("where", ["payout", "void", "cash"])
def test_the_directors_authorization_lets_the_paid_bookkeeper_sign_on_paper(
    night_records, report_clock, crew, where
):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from organizations.models import DirectorAuthorization

    tenant = night_records
    DirectorAuthorization.objects.create(
        organization=tenant.organization,
        kind="1g_bookkeeper",
        reference_number="MSLC-1G-0007",
        subject="Karen Pacheco may also witness and verify",
        person=crew["karen"].person,
        valid_from=dt.date(2026, 1, 1),
        document=SimpleUploadedFile("letter.pdf", b"%PDF-1.4 letter", "application/pdf"),
    )
    data = known_night(tenant.organization.licenses.get().number)
    _karen_as_second_person(data, where)
    occasion = enter(tenant, data)
    assert occasion.status == Occasion.Status.CLOSED


def test_a_paid_bookkeeper_signed_in_as_caller_on_paper_is_refused_citing_1g(
    night_records, report_clock
):
    """The hole: refused citing (1)(b), "on the list as bookkeeper, not as caller"."""
    tenant = night_records
    data = known_night(tenant.organization.licenses.get().number)
    data["workers"][2]["role"] = "caller"
    error = refused(tenant, data)
    assert codes(error) == {"W-1G-SIGNS-IN-AS-BOOKKEEPER": "961 CMR 3.04(1)(g)"}
    assert error.act.what == "Karen Pacheco in"
