"""A door sale from its form's boxes, as the door's page and the laptop's queue
(``offline.services``) both record it: the form read against the posted list, the service
given its lines, and the receipt's words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from beano.rules.money import usd
from occasions import moments
from occasions import sales_selectors as selectors
from occasions import sales_services as services
from occasions.models import Occasion, PriceListItem, Sale
from occasions.sales_forms import SaleForm


def sale_form(organization: Any, occasion_id: int, data: Mapping[str, Any] | None) -> SaleForm:
    """The door's form for ``data``, one box per item of the posted list (the copy kept in the
    cache, or read again). An occasion not ``organization``'s, or with no list, has no boxes."""
    items: list[PriceListItem] = selectors.posted_items(organization, occasion_id)
    return SaleForm(data, items=items)


def record_sale_of(
    form: SaleForm,
    *,
    organization: Any,
    occasion_id: int,
    by: Any,
    at: moments.At = None,
    request_key: Any = None,
) -> Sale:
    """The sale of a valid ``form`` recorded (``Occasion.DoesNotExist`` for an occasion not
    ``organization``'s). ``request_key``: the form's own when None."""
    data = form.cleaned_data
    return services.record_sale(
        occasion=Occasion(pk=occasion_id),
        organization=organization,
        lines=list(form.lines),
        admission_receipt=data["admission_receipt"],
        by=by,
        at=at,
        request_key=request_key or data["request_key"],
        posted_list=form.items,
    )


def sale_words(sale: Sale) -> str:
    """The receipt's answer: "Receipt 13 recorded — $4.00: 1 × Admission, 2 × Extra …"."""
    lines = ", ".join(
        f"{line.quantity} × {line.get_category_display()}" for line in sale.lines.all()
    )
    return f"Receipt {sale.number} recorded — {usd(sale.total)}: {lines}."
