"""The game sheets' entry pages: the list of the program's games with the intermission between
the halves, and each game's sheet (times, balls, claims, winners, payouts, a jackpot's outcome)
recorded through the floor's services as of the times written on it. A winner recorded on the
night and not paid then is paid from the sheet too: a night is not closed with a prize owed."""

from __future__ import annotations

from typing import Any

from django import forms as django_forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from games.models import Game, Winner
from nightfile import acts, forms, game_acts, game_forms
from nightfile import format as fmt
from nightfile.views import (
    SECTIONS,
    access_of,
    entered,
    night_presences,
    paper_records,
    record_acts,
    valid_forms,
)
from occasions.models import Occasion
from occasions.views import get_occasion
from organizations.access import org_view

# The game sheets ----------------------------------------------------------------------------


@org_view()
def paper_games(request: HttpRequest, pk: int) -> HttpResponse:
    access = access_of(request)
    occasion = get_occasion(access, pk)
    games = list(
        Game.objects.filter(occasion=occasion)
        .prefetch_related("parts__arrangement")
        .order_by("number")
    )
    return render(
        request,
        "nightfile/games.html",
        {
            "org": access.organization,
            "access": access,
            "occasion": occasion,
            "page": "paper",
            "section": "games",
            "sections": SECTIONS,
            "first_half": [g for g in games if g.half == 1],
            "second_half": [g for g in games if g.half == 2],
            "announcement": getattr(occasion, "attendance_announcement", None),
            "record": (paper_records(occasion) or [None])[-1],
        },
    )


def unpaid_winners(game: Game) -> list[Winner]:
    """The game's winners with no payout, recorded live on the night or from an earlier entry:
    their payout is entered from the sheet that records it."""
    return list(
        Winner.objects.filter(claim__game=game, payout__isnull=True)
        .select_related("claim__part__arrangement")
        .order_by("claim__claimed_at", "pk")
    )


def _game_forms(game: Game, occasion: Occasion, data: Any = None) -> dict[str, Any]:
    parts = list(game.parts.select_related("arrangement").order_by("order"))
    presences = night_presences(occasion)
    claims = django_forms.formset_factory(game_forms.ClaimRowForm, extra=3)
    bound = {
        "form": game_forms.GameSheetForm(
            data, winner_take_all=game.kind == Game.Kind.WINNER_TAKE_ALL
        ),
        "claims": claims(data, prefix="c", form_kwargs={"parts": parts, "presences": presences}),
    }
    if game.kind == Game.Kind.PROGRESSIVE:
        bound["jackpot"] = game_forms.JackpotForm(data)
    for winner in unpaid_winners(game):
        form = game_forms.OwedPayoutForm(data, prefix=f"owed-{winner.pk}", presences=presences)
        form.winner = winner  # type: ignore[attr-defined]
        bound[f"owed-{winner.pk}"] = form
    return bound


def owed_forms(bound: dict[str, Any]) -> list[game_forms.OwedPayoutForm]:
    return [form for name, form in bound.items() if name.startswith("owed-")]


def _game_acts(game: Game, occasion: Occasion, bound: dict[str, Any]) -> list[acts.Act]:
    d = bound["form"].cleaned_data

    def at(name: str) -> Any:
        return forms.moment(occasion, d[name]) if d.get(name) else None

    parts = list(game.parts.select_related("arrangement").order_by("order"))
    sheet = fmt.GameSheet(
        number=game.number,
        half=game.half,
        kind=game.kind,
        parts=tuple(
            fmt.Part(
                arrangement=p.arrangement.code,
                kind=p.kind,
                # A winner-take-all prize as the sheet says it was announced, judged then.
                amount=p.amount if d.get("prize") is None else d["prize"],
                announced_at=at("announced_at") if p.announced_at is None else None,
                winners_at=at("winners_at"),
                written=d.get("prize") is not None and p.announced_at is None,
            )
            for p in parts
        ),
        balls_confirmed_at=at("balls_checked_at"),
        started_at=at("started_at"),
        finished_at=at("finished_at"),
        balls=d.get("balls", ()),
        claims=tuple(
            c for c in (f.claim(occasion) for f in bound["claims"].forms if f.cleaned_data) if c
        ),
        jackpot=_jackpot(game, bound),
    )
    owed = [(f.winner, f.payment(occasion)) for f in owed_forms(bound)]
    payouts = [game_acts.payout_to(winner, paid) for winner, paid in owed if paid is not None]
    return game_acts.game_acts(sheet) + payouts


def _jackpot(game: Game, bound: dict[str, Any]) -> fmt.Jackpot | None:
    if "jackpot" not in bound:
        return None
    from games.models import ProgressiveGame

    progressive = ProgressiveGame.objects.filter(game=game).select_related("series").first()
    if progressive is None:
        return None
    d = bound["jackpot"].cleaned_data
    return fmt.Jackpot(
        series=progressive.series.name,
        won_within_calls=bool(d.get("won_within_calls")),
        consolation_paid=bool(d.get("consolation_paid")),
    )


@org_view()
def paper_game(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    access = access_of(request)
    occasion = get_occasion(access, pk)
    game = Game.objects.filter(occasion=occasion, number=number).first()
    if game is None:
        raise Http404
    records = paper_records(occasion)
    if not records:
        messages.info(request, "First say which part of the night comes from paper.")
        return redirect("paper_home", org_id=access.organization.pk, pk=pk)
    bound = _game_forms(game, occasion, request.POST if request.method == "POST" else None)
    refusal = None
    if request.method == "POST" and valid_forms(bound):
        refusal = record_acts(request, occasion, records[-1], _game_acts(game, occasion, bound))
        if refusal is None:
            messages.success(request, entered(f"Game {number} sheet: entered", occasion, bound))
            following = (
                Game.objects.filter(occasion=occasion, number__gt=number).order_by("number").first()
            )
            announced = hasattr(Occasion.objects.get(pk=occasion.pk), "attendance_announcement")
            if following is not None and following.half > game.half and not announced:
                return redirect(
                    "paper_section", org_id=access.organization.pk, pk=pk, section="attendance"
                )
            if following is not None:
                return redirect(
                    "paper_game", org_id=access.organization.pk, pk=pk, number=following.number
                )
            return redirect("paper_section", org_id=access.organization.pk, pk=pk, section="extras")
    game.refresh_from_db()
    context = {
        "org": access.organization,
        "access": access,
        "occasion": occasion,
        "page": "paper",
        "section": "games",
        "sections": SECTIONS,
        "record": records[-1],
        "game": game,
        "parts": list(game.parts.select_related("arrangement").order_by("order")),
        "claims": list(
            game.claims.select_related("winner__payout", "part").order_by("claimed_at", "pk")
        ),
        "balls": list(game.calls.filter(voided_at__isnull=True).order_by("sequence")),
        "forms": bound,
        "owed": owed_forms(bound),
        "refusal": refusal,
        "games_url": reverse("paper_games", kwargs={"org_id": access.organization.pk, "pk": pk}),
    }
    return render(request, "nightfile/game.html", context)
