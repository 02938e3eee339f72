"""Reads for the equipment and card inventory pages, always given the organization."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import F, QuerySet

from beano import rules
from beano.rules import Decision
from beano.rules.equipment import USE
from organizations.equipment_services import equipment_facts, lease_authorizations
from organizations.models import DirectorAuthorization, Equipment, Organization
from organizations.models.authorizations import AuthorizationKind


@dataclass(frozen=True)
class EquipmentStatus:
    """Equipment as judged for use on a day (961 CMR 3.04(4)(a), (b), (e))."""

    equipment: Equipment
    decision: Decision
    retired: bool

    @property
    def usable(self) -> bool:
        return not self.retired and self.decision.allowed

    @property
    def lease_reference(self) -> str:
        return self.decision.waivers[0].reference if self.decision.waivers else ""


def equipment_statuses(organization: Organization, on: dt.date) -> list[EquipmentStatus]:
    """Every piece of the organization's equipment, in service first, each judged for use on
    ``on`` as an occasion opening that day would judge it."""
    limits = rules.limits_in_force(on)
    rows = (
        Equipment.objects.filter(organization=organization)
        .select_related("lease_authorization")
        .order_by(F("retired_on").asc(nulls_first=True), "kind", "description", "pk")
    )
    return [
        EquipmentStatus(
            equipment=e,
            decision=rules.judge(
                USE,
                equipment_facts(e),
                on=on,
                authorizations=lease_authorizations(e),
                limits=limits,
            ),
            retired=e.retired_by(on),
        )
        for e in rows
    ]


def lease_authorizations_of(organization: Organization) -> QuerySet[DirectorAuthorization]:
    return DirectorAuthorization.objects.filter(
        organization=organization, kind=AuthorizationKind.EQUIPMENT_LEASE
    ).order_by("-valid_from")
