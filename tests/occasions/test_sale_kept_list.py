"""A sale judged on the door form's kept copy of the price list only when the database holds
exactly that list under the occasion's lock; any difference (a price, a label, an item added or
taken away behind the copy) and the list is read again and judged on as it stands. And the
counts a sale answers with are those the database gives after it."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from beano import rules
from occasions import sales_selectors
from occasions import sales_services as services
from occasions.models import Occasion, PriceListItem, Sale


def _kept(occasion: Occasion) -> list[PriceListItem]:
    return list(PriceListItem.objects.filter(occasion=occasion).order_by("pk"))


def _sell(occasion: Occasion, tenant, kept: list[PriceListItem], *items: PriceListItem) -> Sale:
    return services.record_sale(
        occasion=Occasion(pk=occasion.pk),
        organization=tenant.organization,
        lines=[(item, 1) for item in items],
        admission_receipt=None,
        by=tenant.worker,
        posted_list=kept,
    )


def _admission(items: list[PriceListItem]) -> PriceListItem:
    return next(i for i in items if i.category == PriceListItem.Category.ADMISSION)


def test_a_kept_list_equal_to_the_database_spares_the_read(open_occasion, tenant):
    kept = _kept(open_occasion)
    with CaptureQueriesContext(connection) as with_copy:
        _sell(open_occasion, tenant, kept, _admission(kept))
    with CaptureQueriesContext(connection) as without:
        _sell(open_occasion, tenant, [], _admission(kept))
    assert len(with_copy) == len(without) - 1
    assert Sale.objects.filter(occasion=open_occasion).count() == 2


@pytest.mark.parametrize(
    "change",
    [
        {"price": Decimal("3.00")},  # the posted price changed behind the copy
        {"label": "Admission (new sheet)"},
    ],
)
def test_a_kept_list_that_differs_is_not_judged_on(open_occasion, tenant, change):
    kept = _kept(open_occasion)
    admission = _admission(kept)
    PriceListItem.objects.filter(pk=admission.pk).update(**change)
    if "price" in change:  # charged at the copy's price: refused at the posted one
        with pytest.raises(rules.RuleViolation) as refused:
            _sell(open_occasion, tenant, kept, admission)
        assert [v.code for v in refused.value.violations] == ["C-4C-AT-POSTED-PRICE"]
        assert refused.value.citations == ["961 CMR 3.04(4)(c)"]
        assert not Sale.objects.exists()
    else:  # the label judged and shown is the database's
        sale = _sell(open_occasion, tenant, kept, admission)
        assert sale.lines.get().price_item.label == change["label"]


def test_a_copy_lacking_an_item_is_read_again(open_occasion, tenant):
    kept = _kept(open_occasion)
    extra = next(i for i in kept if i.category != PriceListItem.Category.ADMISSION)
    fewer = [i for i in kept if i.pk != extra.pk]
    sale = _sell(open_occasion, tenant, fewer, _admission(kept), extra)  # posted: sold
    assert extra.pk in {line.price_item_id for line in sale.lines.all()}


def test_an_item_of_the_copy_no_longer_posted_is_refused(open_occasion, tenant):
    kept = _kept(open_occasion)
    gone = PriceListItem(
        pk=kept[-1].pk + 1000,
        occasion=open_occasion,
        category=PriceListItem.Category.EXTRA_REGULAR,
        label="Extra regular card",
        price=Decimal("1.00"),
    )
    with pytest.raises(rules.RuleViolation) as refused:
        _sell(open_occasion, tenant, [*kept, gone], _admission(kept), gone)
    assert "C-4C-ON-POSTED-LIST" in [v.code for v in refused.value.violations]
    assert not Sale.objects.exists()


def test_the_counts_answered_are_the_databases_after_the_sale(open_occasion, tenant):
    kept = _kept(open_occasion)
    _sell(open_occasion, tenant, kept, _admission(kept))
    sale = _sell(open_occasion, tenant, kept, _admission(kept))
    assert sale.occasion.counts == sales_selectors.door_counts(open_occasion)
    assert sale.occasion.counts.receipts == 2 and sale.occasion.counts.admissions == 2
