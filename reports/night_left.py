"""What the reports leave open at an occasion's close (registered from ``ReportsConfig.ready()``
through ``occasions.extensions.NIGHT_LEFT``): the paper issued to the door by serial and not yet
counted back (961 CMR 3.04(4)(e)). Listed, not refused: the unsold paper is counted back at the
close or after it, and the filing waits for it. One query."""

from __future__ import annotations

from django.urls import reverse

from equipment.models import PaperIssue
from occasions.confirm import Left
from occasions.extensions import NightLeft
from occasions.models import Occasion


def night_left(occasion: Occasion) -> NightLeft:
    issues = (
        PaperIssue.objects.filter(occasion=occasion, returned__isnull=True)
        .select_related("purchase")
        .order_by("purchase__card_type", "serial_from", "pk")
    )
    where = (
        "Paper by serial",
        reverse("occasion_serials", kwargs={"org_id": occasion.organization_id, "pk": occasion.pk}),
    )
    return NightLeft(
        lines=tuple(
            Left(
                f"{i.purchase.kind} {i.serial_from}–{i.serial_to}"
                + " is at the door, not counted back: count the unsold paper back at the close.",
                (where,),
            )
            for i in issues
        )
    )
