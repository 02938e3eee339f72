import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from beano import rules
from beano.rules.charges import PackageFacts, PriceItemFact, PriceListFacts
from beano.rules.models import RefusedAction
from occasions import services
from occasions.models import Occasion, PriceListItem
from organizations.models import DirectorAuthorization
from tests.conftest import login

DAY = dt.date(2026, 12, 4)
USUAL = [
    {"category": "admission", "label": "Admission", "price": "2.00"},
    {"category": "extra_regular", "label": "Extra regular card", "price": "1.00"},
    {"category": "bonus", "label": "Bonus card", "price": "1.00"},
]


def _facts(*items, opened=False, packages=()):
    return [
        PriceListFacts(opened, tuple(PriceItemFact(c, label, Decimal(p)) for c, label, p in items)),
        PackageFacts(tuple(packages)),
    ]


def _codes(decision):
    return [(v.code, v.citation) for v in decision.violations]


def test_a_list_with_admission_at_one_dollar_is_allowed(db):
    assert rules.judge("prices.set", _facts(("admission", "Admission", "1.00")), on=DAY).allowed


def test_it_refuses_admission_under_one_dollar(db):
    decision = rules.judge("prices.set", _facts(("admission", "Admission", "0.99")), on=DAY)
    assert _codes(decision) == [("C-5A-MIN-ADMISSION", "961 CMR 3.04(5)(a)")]


def test_it_refuses_a_list_without_admission_or_with_a_free_item(db):
    decision = rules.judge("prices.set", _facts(("bonus", "Bonus", "0.00")), on=DAY)
    assert {c for c, _ in _codes(decision)} == {"C-4C-ADMISSION-PRICED"}
    assert len(decision.violations) == 2


def test_it_refuses_any_change_once_the_occasion_has_opened(db):
    decision = rules.judge("prices.set", _facts(("admission", "A", "2.00"), opened=True), on=DAY)
    assert _codes(decision) == [("C-4C-PRICES-FIXED", "961 CMR 3.04(4)(c)")]


def test_a_package_needs_the_directors_permission_and_a_valid_one_waives_it(db):
    facts = _facts(("admission", "A", "2.00"), packages=["Early bird package"])
    assert _codes(rules.judge("prices.set", facts, on=DAY)) == [
        ("C-5A-PACKAGES", "961 CMR 3.04(5)(a)")
    ]
    granted = rules.AuthorizationFact(1, "5a_packages", "DIR-5A", dt.date(2026, 1, 1), None)
    expired = rules.AuthorizationFact(
        2, "5a_packages", "DIR-OLD", dt.date(2025, 1, 1), dt.date(2025, 12, 31)
    )
    assert rules.judge("prices.set", facts, on=DAY, authorizations=[granted]).allowed
    assert not rules.judge("prices.set", facts, on=DAY, authorizations=[expired]).allowed


@pytest.mark.parametrize(
    "price",
    ["1e9", Decimal("1E+9"), "1_000", "\uff12", "\u0662", 2.0, Decimal("1000.01")],
    ids=repr,
)
def test_a_price_given_without_a_form_is_an_amount_within_its_ceiling(tenant, occasion, price):
    items = [{"category": "admission", "label": "Admission", "price": price}]
    with pytest.raises(ValidationError) as error:
        services.set_price_list(occasion=occasion, items=items, by=tenant.member_in_charge)
    assert list(error.value.message_dict) == ["price"]
    assert not PriceListItem.objects.exists()


def test_the_member_in_charge_posts_the_price_list_and_it_is_audited(tenant, occasion):
    items = services.set_price_list(occasion=occasion, items=USUAL, by=tenant.member_in_charge)
    assert [i.price for i in items] == [Decimal("2.00"), Decimal("1.00"), Decimal("1.00")]
    replaced = services.set_price_list(
        occasion=occasion, items=USUAL[:1], by=tenant.member_in_charge
    )
    assert list(occasion.price_items.all()) == replaced


def test_a_refused_price_list_saves_nothing_and_is_logged(tenant, occasion):
    services.set_price_list(occasion=occasion, items=USUAL, by=tenant.member_in_charge)
    Occasion.objects.filter(pk=occasion.pk).update(status=Occasion.Status.OPEN)
    with pytest.raises(rules.RuleViolation) as refused:
        services.set_price_list(
            occasion=occasion,
            items=[{"category": "admission", "label": "Admission", "price": "1.50"}],
            by=tenant.member_in_charge,
        )
    assert refused.value.citations == ["961 CMR 3.04(4)(c)"]
    assert [i.price for i in occasion.price_items.all()] == [
        Decimal("2.00"),
        Decimal("1.00"),
        Decimal("1.00"),
    ]
    assert RefusedAction.objects.get().citations == "961 CMR 3.04(4)(c)"


def test_an_authorized_package_names_its_authorization(tenant, occasion):
    granted = DirectorAuthorization.objects.create(
        organization=tenant.organization,
        kind="5a_packages",
        reference_number="DIR-5A-1",
        subject="Early bird package",
        valid_from=dt.date(2026, 1, 1),
    )
    services.set_price_list(
        occasion=occasion,
        items=[
            *USUAL,
            {
                "category": "package",
                "label": "Early bird",
                "price": "5.00",
                "package_contents": "admission, 2 extra regular, 1 special",
            },
        ],
        by=tenant.member_in_charge,
    )
    assert PriceListItem.objects.get(category="package").authorization == granted


def _post(client, tenant, occasion, rows):
    data = {"form-TOTAL_FORMS": str(len(rows)), "form-INITIAL_FORMS": "0"}
    for n, row in enumerate(rows):
        for key, value in row.items():
            data[f"form-{n}-{key}"] = value
    return client.post(reverse("price_list", args=[tenant.organization.pk, occasion.pk]), data)


def test_the_price_page_proposes_the_usual_prices_and_posts_them(client, tenant, occasion):
    login(client, tenant.member_in_charge)
    page = client.get(reverse("price_list", args=[tenant.organization.pk, occasion.pk]))
    assert b"Winner-take-all card" in page.content
    response = _post(client, tenant, occasion, USUAL)
    assert response.status_code == 302
    assert occasion.price_items.count() == 3
    printed = client.get(reverse("price_list_print", args=[tenant.organization.pk, occasion.pk]))
    assert b"$2.00" in printed.content


@pytest.mark.parametrize(
    "price,message",
    [
        ("0.50", "961 CMR 3.04(5)(a)"),
        ("2.005", "at most two decimals"),
        ("-1", "cannot be negative"),
        ("12345678901234", "too large"),
        ("1e9", "with the digits 0 to 9"),
        ("two dollars", "with the digits 0 to 9"),
    ],
)
def test_bad_prices_get_a_message_and_save_nothing(client, tenant, occasion, price, message):
    login(client, tenant.member_in_charge)
    response = _post(
        client, tenant, occasion, [{"category": "admission", "label": "Admission", "price": price}]
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not occasion.price_items.exists()


def test_an_empty_price_list_is_refused_with_a_message(client, tenant, occasion):
    login(client, tenant.member_in_charge)
    response = _post(client, tenant, occasion, [{"category": "", "label": "", "price": ""}])
    assert "The price list is empty" in response.content.decode()


def test_a_price_change_posted_after_the_opening_is_refused_by_the_rules_and_logged(
    client, tenant, occasion
):
    """The hole: the page refused it with its own message, so the refused-actions log never
    heard of the attempt. Now the rules service refuses it (3.04(4)(c)) and logs it."""
    from beano.rules.models import RefusedAction
    from tests.fixtures.night import open_for_tests

    open_for_tests(occasion)
    before = list(occasion.price_items.values_list("label", "price"))
    login(client, tenant.member_in_charge)
    response = _post(
        client, tenant, occasion, [{"category": "admission", "label": "Admission", "price": "1.50"}]
    )
    assert response.status_code == 200
    assert "its posted prices cannot be changed" in response.content.decode()
    assert list(occasion.price_items.values_list("label", "price")) == before
    refused = RefusedAction.objects.get(action="prices.set")
    assert refused.citations == "961 CMR 3.04(4)(c)"


def test_a_price_list_typed_wrong_after_the_opening_is_refused_by_the_rules_too(
    client, tenant, occasion
):
    """The side door left: after the opening, a list that does not even parse was refused by the
    page's own message. It is judged too, the posted list standing in for it."""
    from beano.rules.models import RefusedAction
    from tests.fixtures.night import open_for_tests

    open_for_tests(occasion)
    login(client, tenant.member_in_charge)
    response = _post(client, tenant, occasion, [{"category": "", "label": "", "price": "x"}])
    assert response.status_code == 200
    assert "its posted prices cannot be changed" in response.content.decode()
    assert RefusedAction.objects.get(action="prices.set").citations == "961 CMR 3.04(4)(c)"
