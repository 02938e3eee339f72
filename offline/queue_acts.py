"""The live forms an act of the laptop's queue may be, by their url name: each builds the SAME
form class the live view builds from the fields, and calls the SAME service (through the
function the view calls too, where the view had more than a form and a call), with the act's
moment and its key. Bad input is refused with the form's own messages."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.http import QueryDict

from beano.actors import Actor
from beano.rules.cards import ball_label
from beano.rules.claims import needs_w2g
from games import claims_selectors, draw_acts, payout_services
from games import claims_services as claims
from games.claims_forms import ClaimForm, PayoutForm
from games.draw_forms import BallForm
from games.models import Game, Winner
from occasions import door_acts, floor_selectors, floor_services, moments
from occasions import sales_services as sales
from occasions.floor_forms import SignInForm
from occasions.models import Occasion, Sale
from occasions.sales_forms import AttendanceForm, VoidForm
from occasions.second_person import users_of
from organizations.access import OrgAccess


@dataclass
class Doing:
    """One act being recorded: where, by whom, as of when, and what the laptop's form held."""

    occasion: Occasion
    access: OrgAccess
    by: Actor
    at: moments.Moment
    key: uuid.UUID
    data: QueryDict
    kwargs: dict[str, Any]


@dataclass
class Done:
    """What an act recorded: the words the live page says, what the laptop shows of it, and
    the record."""

    said: str
    target_type: str = ""
    target_id: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def _valid(form: forms.Form) -> forms.Form:
    """The form, or its messages as a refusal (the live page would show them on the form)."""
    if not form.is_valid():
        labels = {name: str(f.label or name) for name, f in form.fields.items()}
        raise ValidationError(
            [
                f"{labels.get(name, '')}: {message}" if name in labels else message
                for name, errors in form.errors.items()
                for message in errors
            ]
        )
    return form


def _target(record: Any) -> dict[str, Any]:
    return {"target_type": record._meta.label_lower, "target_id": record.pk}


def sale(d: Doing) -> Done:
    form = door_acts.sale_form(d.access.organization, d.occasion.pk, d.data)
    recorded = door_acts.record_sale_of(
        _valid(form),  # type: ignore[arg-type]
        organization=d.access.organization,
        occasion_id=d.occasion.pk,
        by=d.by,
        at=d.at,
        request_key=d.key,
    )
    return Done(
        door_acts.sale_words(recorded), extra={"receipt": recorded.number}, **_target(recorded)
    )


def ball(d: Doing) -> Done:
    form = _valid(BallForm(d.data))
    call = draw_acts.call_ball(
        form,  # type: ignore[arg-type]
        organization=d.access.organization,
        occasion_id=d.occasion.pk,
        game_id=d.kwargs["game_pk"],
        by=d.by,
        at=d.at,
        request_key=d.key,
    )
    return Done(
        draw_acts.called_words(call), extra={"ball": ball_label(call.number)}, **_target(call)
    )


def _game(d: Doing) -> Game:
    return Game.objects.select_related("occasion__organization", "occasion__license").get(
        pk=d.kwargs["game_pk"], occasion=d.occasion
    )


def claim(d: Doing) -> Done:
    game = _game(d)
    form = _valid(ClaimForm(d.data, game=game))
    values = form.service_values() | {"request_key": d.key}  # type: ignore[attr-defined]
    recorded = claims.record_claim(game=game, by=d.by, at=d.at, **values)
    return Done("The claim is recorded.", extra={"claim": recorded.pk}, **_target(recorded))


def attendance(d: Doing) -> Done:
    form = _valid(AttendanceForm(d.data))
    announced = sales.announce_attendance(
        occasion=d.occasion, players=form.cleaned_data["players"], by=d.by, at=d.at
    )
    return Done(f"{announced.players} players in attendance, announced.", **_target(announced))


def sign_in(d: Doing) -> Done:
    form = _valid(SignInForm(d.data, occasion=d.occasion))
    presence = floor_services.sign_in_worker(
        occasion=d.occasion, by=d.by, at=d.at, **form.cleaned_data
    )
    said = f"{presence.entry.person.legal_name} is signed in as {presence.get_role_display()}."
    return Done(said, **_target(presence))


def sign_out(d: Doing) -> Done:
    presence = floor_selectors.presences(d.occasion).get(pk=d.kwargs["presence_pk"])
    floor_services.sign_out_worker(presence=presence, by=d.by, at=d.at)
    return Done(f"{presence.entry.person.legal_name} is signed out.", **_target(presence))


def void(d: Doing) -> Done:
    form = _valid(VoidForm(d.data, witnesses=users_of(d.occasion.organization_id)))
    data = form.cleaned_data
    found = Sale.objects.filter(occasion=d.occasion, number=data["receipt"]).first()
    if found is None:
        raise ValidationError(f"No receipt {data['receipt']} at this occasion.")
    voided = sales.void_sale(
        sale=found,
        reason=data["reason"],
        witness=data["witness"],
        witness_secret=data["witness_secret"],
        by=d.by,
        at=d.at,
    )
    return Done(
        f"Receipt {voided.number} is voided.", extra={"receipt": voided.number}, **_target(voided)
    )


def payout(d: Doing) -> Done:
    game = _game(d)
    winner = Winner.objects.select_related("claim").get(pk=d.kwargs["winner_pk"], claim__game=game)
    user = d.by
    verifiers = (
        get_user_model()
        .objects.filter(org_roles__organization=d.occasion.organization)
        .exclude(pk=getattr(user, "pk", None))
        .distinct()
    )
    threshold = claims_selectors.w2g_threshold(game.occasion)
    form = _valid(
        PayoutForm(
            d.data,
            winner=winner,
            verifiers=verifiers,
            needs_w2g=needs_w2g(winner.share, threshold),
        )
    )
    paid = payout_services.record_payout(
        winner=winner,
        by=d.by,
        at=d.at,
        **form.service_values(),  # type: ignore[attr-defined]
    )
    return Done(f"{winner.player_name} is paid.", **_target(paid))


#: The live forms an act may be, by url name.
ACTS: dict[str, Callable[[Doing], Done]] = {
    "sale_record": sale,
    "draw_call": ball,
    "claim_record": claim,
    "attendance_announce": attendance,
    "workers_present": sign_in,
    "worker_sign_out": sign_out,
    "sale_void": void,
    "payout_record": payout,
}
