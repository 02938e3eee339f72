"""The Commission admin grants the winning arrangements a Director's letter authorizes
(961 CMR 3.04(6)(c)) in one act: each becomes an ``ArrangementAuthorization`` of the letter, and
the whole grant one event on the Commission's audit chain. A program's rules then allow exactly
those arrangements while the letter is valid."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db import transaction

from beano import locking
from beano.actors import Actor
from beano.rules import AuthorizationKind
from games.models import Arrangement, ArrangementAuthorization
from organizations.audit import record_event
from organizations.models import DirectorAuthorization


@transaction.atomic
def grant_arrangements(
    *, authorization: DirectorAuthorization, arrangements: Iterable[Arrangement], by: Actor
) -> list[ArrangementAuthorization]:
    """Add the arrangements to those the letter authorizes; refused for a letter of another
    kind or revoked, or when every arrangement chosen is already granted."""
    authorization = locking.lock(DirectorAuthorization.objects).get(pk=authorization.pk)
    if authorization.kind != AuthorizationKind.WINNING_ARRANGEMENT:
        raise ValidationError(
            {"authorization": "Only a letter authorizing permissible winning arrangements."}
        )
    if authorization.revoked_on is not None:
        raise ValidationError({"authorization": "This letter is revoked."})
    granted = {
        a.arrangement_id: a.arrangement.name
        for a in authorization.arrangements.select_related("arrangement")
    }
    chosen = {a.pk: a for a in arrangements}
    new = [a for pk, a in sorted(chosen.items()) if pk not in granted]
    if not new:
        raise ValidationError(
            {"arrangements": "Choose at least one arrangement this letter does not grant yet."}
        )
    rows = ArrangementAuthorization.objects.bulk_create(
        [ArrangementAuthorization(authorization=authorization, arrangement=a) for a in new]
    )
    record_event(
        organization=None,
        actor=by,
        action="commission.arrangements.granted",
        target=authorization,
        old={"arrangements": sorted(granted.values())},
        new={
            "arrangements": sorted([*granted.values(), *(a.name for a in new)]),
            "organization": authorization.organization.name,
        },
    )
    return rows
