"""The night's blank control sheets as a PDF, for anyone of the organization and its inspectors:
it is read-only, printed before the night (or again, for the file) from the program and the
price list as they stand."""

from __future__ import annotations

from django.http import HttpResponse, HttpResponseNotAllowed
from django.utils.http import content_disposition_header

from nightfile import control_sheets
from occasions.views import get_occasion
from organizations.access import OrgRequest, org_view


@org_view()
def control_sheets_pdf(request: OrgRequest, pk: int) -> HttpResponse:
    """Made in the request: a blank form of a few pages, wanted now, when the hall is about to
    go on paper. Shown in the browser to print at once, and never kept by a cache: it names the
    organization's workers, and it changes with the program."""
    occasion = get_occasion(request.access, pk)
    if request.method not in ("GET", "HEAD"):
        # After the lookup: another organization's occasion is 404 whatever the method.
        return HttpResponseNotAllowed(["GET", "HEAD"])
    response = HttpResponse(control_sheets.render_pdf(occasion), content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=False, filename=f"control-sheets-{occasion.date:%Y-%m-%d}.pdf"
    )
    response["Cache-Control"] = "private, no-store"
    return response
