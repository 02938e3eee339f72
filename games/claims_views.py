"""The claims page of a game, for the hall laptop: record a claim, verify the draw and the winning
card, record the winners and their split, and pay them (961 CMR 3.04(6)(a), (d), (e), (f),
(1)(h); W-2G under 26 CFR 7.6041-1). Reads are open to every role and to inspectors; a claim is
recorded by a worker too, the rest by the head or the member in charge. A refusal comes back on
its form with its citation, status 200, nothing saved."""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import Decimal
from functools import partial
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from beano.rules.cards import ball_label, position_name
from beano.rules.claims import needs_w2g
from beano.rules.money import PRIZE, amount_so_far
from games import claims_selectors as selectors
from games import claims_services as services
from games import payout_services, winner_services
from games.claims_forms import (
    WITNESS_ROWS,
    CardForm,
    ClaimForm,
    DrawVerificationForm,
    PayoutForm,
    WinnersForm,
    square_field,
)
from games.lookups import get_game
from games.models import CardVerification, Claim, Game, PrizePart, Winner
from games.winners_summary import winners_summary
from occasions import floor_selectors
from occasions.confirm import Confirmation, confirmed
from occasions.floor_bar import floor_bar
from occasions.models import Occasion
from occasions.second_person import put_on_fields, who_can_confirm
from occasions.views import RUNS_THE_NIGHT, get_occasion
from organizations.access import OrgAccess, OrgRequest, get_for_org, org_view
from organizations.access_matrix import ON_THE_FLOOR as RECORDS_CLAIMS
from organizations.forms import show_refusal, submit


def _game(access: OrgAccess, pk: int, game_pk: int) -> Game:
    return get_game(
        access,
        get_occasion(access, pk),
        game_pk,
        related=("occasion__organization", "occasion__license"),
    )


def _claim(access: OrgAccess, game: Game, claim_pk: int) -> Claim:
    return get_for_org(
        Claim.objects.select_related("game", "part__arrangement"),
        access,
        via="game__occasion__organization",
        pk=claim_pk,
        game=game,
    )


def _verifiers(access: OrgAccess, user: Any) -> Any:
    return (
        get_user_model()
        .objects.filter(org_roles__organization=access.organization)
        .exclude(pk=user.pk)
        .distinct()
        .order_by("username")
    )


def _mic_name(occasion: Occasion) -> str:
    presence = floor_selectors.in_charge(occasion)
    return presence.entry.person.legal_name if presence is not None else ""


def _winner_forms(
    game: Game, rows: list[selectors.ClaimRow], people: Any
) -> dict[int, WinnersForm]:
    """One form per prize with verified claims and no winner yet."""
    awarded = {r.claim.part_id for r in rows if r.winner is not None}
    by_part: dict[int, list[Claim]] = {}
    for r in rows:
        if r.verified and r.winner is None and r.claim.part_id not in awarded:
            by_part.setdefault(r.claim.part_id, []).append(r.claim)
    return {
        part_pk: WinnersForm(claims=claims, people=people, prefix=f"part{part_pk}")
        for part_pk, claims in by_part.items()
    }


def _page(
    request: OrgRequest,
    game: Game,
    bound: dict[str, Any] | None = None,
    confirm: Confirmation | None = None,
) -> HttpResponse:
    """The claims page; ``bound`` the forms posted again (a refusal, a summary), by their slot;
    ``confirm`` the summary before recording a prize's winners (shown at the top of the page,
    in view without scrolling)."""
    access: OrgAccess = request.access
    occasion = game.occasion
    is_open = occasion.status == Occasion.Status.OPEN
    can_run = is_open and access.has_role(*RUNS_THE_NIGHT)
    can_claim = is_open and game.status == Game.Status.IN_PLAY and access.has_role(*RECORDS_CLAIMS)
    bound = bound or {}
    rows = selectors.game_claims(game)
    people = selectors.known_people(occasion)
    threshold = selectors.w2g_threshold(occasion)
    mic = _mic_name(occasion)
    calls = selectors.current_calls(game)
    claim_slots = []
    for row in rows:
        pk = row.claim.pk
        claim_slots.append(
            {
                "row": row,
                "draw": bound.get(f"draw_{pk}")
                or DrawVerificationForm(prefix=f"draw{pk}", initial={"member_in_charge": mic}),
                "card": bound.get(f"card_{pk}")
                or CardForm(prefix=f"card{pk}", initial=_card_again(row.card)),
                "squares": _arrangement_squares(row.claim.part),
                "variants": _named_variants(row.claim.part),
                "counted": " ".join(str(n) for n in row.counted),
            }
        )
    winner_forms = _winner_forms(game, rows, people) if can_run else {}
    for key, form in bound.items():
        if key.startswith("winners_"):
            winner_forms[int(key.removeprefix("winners_"))] = form
    parts = {p.pk: p for p in game.parts.select_related("arrangement")}
    payouts = _payouts(request, occasion, rows, bound, threshold) if rows else []
    return render(
        request,
        "games/claims.html",
        {
            "org": access.organization,
            "access": access,
            "occasion": occasion,
            "game": game,
            "parts": list(parts.values()),
            "calls": [ball_label(n) for n in calls],
            "called": calls,
            "last_call": calls[-1] if calls else "",
            "claim_form": bound.get("claim")
            or (ClaimForm(game=game, autofocus=not bound) if can_claim else None),
            "claims": claim_slots,
            "winner_forms": [(parts[k], f) for k, f in winner_forms.items() if k in parts],
            "payouts": payouts,
            "threshold": threshold,
            "can_run": can_run,
            "can_claim": can_claim,
            "focus": next(iter(bound), ""),
            "confirm": confirm,
            "floor": floor_bar(occasion, "claims", game_pk=game.pk),
        },
    )


def _payouts(
    request: OrgRequest,
    occasion: Occasion,
    rows: list[selectors.ClaimRow],
    bound: dict[str, Any],
    threshold: Decimal | None,
) -> list[dict[str, Any]]:
    """Each winner with their payout, or the form to pay them (for those who run the night
    while it is open): its verifiers those who could confirm now, read once for the page."""
    access: OrgAccess = request.access
    can_run = occasion.status == Occasion.Status.OPEN and access.has_role(*RUNS_THE_NIGHT)
    payouts = []
    verifiers: list[Any] | None = None
    for row in rows:
        winner = row.winner
        if winner is None:
            continue
        paid = getattr(winner, "payout", None)
        needs = needs_w2g(winner.share, threshold)
        form = None
        if paid is None and can_run:
            form = bound.get(f"payout_{winner.pk}") or PayoutForm(
                winner=winner, verifiers=_verifiers(access, request.user), needs_w2g=needs
            )
            if verifiers is None:
                verifiers = who_can_confirm(occasion, request.user, timezone.now())
            form.offer(verifiers)
        payouts.append({"winner": winner, "payout": paid, "form": form, "needs_w2g": needs})
    return payouts


def _card_again(card: CardVerification | None) -> dict[str, Any]:
    """A card found invalid comes back as it was read (its numbers, its witnesses), so a mistyped
    digit is corrected without typing the card and the witnesses again."""
    if card is None or card.valid or card.attested_on_paper:
        return {}
    initial: dict[str, Any] = {
        square_field(square): number for square, number in (card.numbers or {}).items()
    }
    for i, witness in enumerate(card.witnesses[:WITNESS_ROWS], start=1):
        initial[f"witness{i}_name"] = witness.get("name", "")
        initial[f"witness{i}_table"] = witness.get("table", "")
    return initial


def _card_done(card: CardVerification) -> str:
    if card.valid:
        return "The card verification is recorded. The card is valid."
    return (
        "The card verification is recorded. The card is invalid, for the reasons shown. The "
        "numbers and witnesses are kept in the form below: if a number was mistyped, correct it "
        "and check the card again."
    )


def _arrangement_squares(part: PrizePart) -> set[str]:
    """The squares to highlight on the card grid: the arrangement's, when it has one variant."""
    variants = part.arrangement.variants
    return set(variants[0]) if len(variants) == 1 else set()


def _named_variants(part: PrizePart) -> str:
    """Each way the arrangement wins with its name, for the card's grid to highlight the one the
    numbers typed cover and say it (static/js/claims.js), as the verification will name it."""
    arrangement = part.arrangement
    variants = arrangement.variants
    if len(variants) == 1:
        return json.dumps([[arrangement.name, variants[0]]])
    return json.dumps([[position_name(v), v] for v in variants])


def _done(request: HttpRequest, game: Game, text: str, anchor: str = "") -> HttpResponse:
    """Back to the claims page with what was done; an htmx form (the claim) has the browser load
    it whole, as a plain form's redirect would (without the anchor: from the claims page, an
    address differing only by its anchor would scroll, not load)."""
    messages.success(request, text)
    url = reverse(
        "game_claims",
        kwargs={
            "org_id": game.occasion.organization_id,
            "pk": game.occasion_id,
            "game_pk": game.pk,
        },
    )
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url + (f"#{anchor}" if anchor else ""))


def _submit(
    request: HttpRequest,
    game: Game,
    form: Any,
    slot: str,
    service: Callable[..., Any],
    done: str | Callable[[Any], str],
    fixed: dict[str, Any] | None = None,
    show: Callable[[Any, ValidationError], None] = show_refusal,
) -> HttpResponse:
    """Run the service on a valid form (with ``fixed`` arguments, e.g. the claim); a refusal or
    bad input re-renders the page, status 200, nothing saved, the refusal put on the form by
    ``show``. ``done`` says what was done, or makes it from what the service returned."""
    return submit(
        form,
        lambda _: service(by=request.user, **(fixed or {}), **form.service_values()),
        done=lambda result: _done(request, game, done(result) if callable(done) else done, slot),
        again=lambda: _page(request, game, bound={slot: form}),
        show=show,
    )


@never_cache  # winners' names and payouts: not kept by the browser of a shared laptop
@org_view()
def claims_page(request: OrgRequest, pk: int, game_pk: int) -> HttpResponse:
    access = request.access
    return _page(request, _game(access, pk, game_pk))


@org_view()
@require_POST
def claim_record(request: OrgRequest, pk: int, game_pk: int) -> HttpResponse:
    game = _game(request.access, pk, game_pk)
    form = ClaimForm(request.POST, game=game)
    return _submit(
        request,
        game,
        form,
        "claim",
        services.record_claim,
        "The claim is recorded.",
        {"game": game},
    )


@org_view()
@require_POST
def claim_verify_draw(request: OrgRequest, pk: int, game_pk: int, claim_pk: int) -> HttpResponse:
    access = request.access
    game = _game(access, pk, game_pk)
    claim = _claim(access, game, claim_pk)
    form = DrawVerificationForm(request.POST, prefix=f"draw{claim.pk}")
    return _submit(
        request,
        game,
        form,
        f"draw_{claim.pk}",
        services.verify_draw,
        "The verification of the draw is recorded.",
        {"claim": claim},
    )


@org_view()
@require_POST
def claim_verify_card(request: OrgRequest, pk: int, game_pk: int, claim_pk: int) -> HttpResponse:
    access = request.access
    game = _game(access, pk, game_pk)
    claim = _claim(access, game, claim_pk)
    form = CardForm(request.POST, prefix=f"card{claim.pk}")
    return _submit(
        request,
        game,
        form,
        f"card_{claim.pk}",
        services.verify_card,
        _card_done,
        {"claim": claim},
    )


def _eligible(game: Game, part_pk: int) -> list[Claim]:
    rows = selectors.game_claims(game)
    if any(r.winner is not None for r in rows if r.claim.part_id == part_pk):
        return []
    return [r.claim for r in rows if r.claim.part_id == part_pk and r.verified]


@org_view()
def winners_split(request: OrgRequest, pk: int, game_pk: int) -> HttpResponse:
    """The split the ticked claims would get, shown before saving (an htmx partial)."""
    access = request.access
    game = _game(access, pk, game_pk)
    part_pk = _int(request.GET.get("part"))
    if part_pk is None:
        return render(request, "games/_split.html", {"rows": []})
    part = get_for_org(
        PrizePart.objects.select_related("arrangement"),
        access,
        via="game__occasion__organization",
        pk=part_pk,
        game=game,
    )
    prefix = f"part{part.pk}-"
    eligible = _eligible(game, part.pk)
    ticked = [c for c in eligible if request.GET.get(f"{prefix}won_{c.pk}")]
    value = _money(request.GET.get(f"{prefix}substitute_value"))
    shares = winner_services.proposed_shares(part, len(ticked), value) if ticked else []
    # Each winner as named in the form so far (a name corrected there shows here at once).
    names = [
        (request.GET.get(f"{prefix}name_{c.pk}") or "").strip()[:NAME_SHOWN] or c.player_name
        for c in ticked
    ]
    return render(
        request,
        "games/_split.html",
        {
            "part": part,
            "rows": list(zip(names, shares, strict=True)),
            "total": sum(shares, Decimal("0")),
        },
    )


#: The most of a typed name the split preview repeats.
NAME_SHOWN = 120


def _int(value: str | None) -> int | None:
    if not value or not (value.isascii() and value.isdigit()):
        return None
    number = int(value)
    return number if 0 < number < 2**31 else None


def _money(value: str | None) -> Decimal | None:
    """The substitute value typed so far, or None (the equal share) while it is not one."""
    return amount_so_far(value, PRIZE)


@org_view()
@require_POST
def winners_record(request: OrgRequest, pk: int, game_pk: int, part_pk: int) -> HttpResponse:
    access = request.access
    game = _game(access, pk, game_pk)
    part = get_for_org(
        PrizePart.objects.all(), access, via="game__occasion__organization", pk=part_pk, game=game
    )
    form = WinnersForm(
        request.POST,
        claims=_eligible(game, part.pk),
        people=selectors.known_people(game.occasion),
        prefix=f"part{part.pk}",
    )
    if not confirmed(request):
        # Nothing is judged or saved yet: who wins what, the split, the tax forms it will need.
        bound = {f"winners_{part.pk}": form}
        if not form.is_valid():
            return _page(request, game, bound=bound)
        summary = winners_summary(game, part, form.service_values(), request.POST)
        return _page(request, game, bound=bound, confirm=summary)
    return _submit(
        request,
        game,
        form,
        f"winners_{part.pk}",
        winner_services.record_winners,
        "Winners recorded.",
    )


@org_view()
@require_POST
def payout_record(request: OrgRequest, pk: int, game_pk: int, winner_pk: int) -> HttpResponse:
    access = request.access
    game = _game(access, pk, game_pk)
    winner = get_for_org(
        Winner.objects.select_related("claim"),
        access,
        via="claim__game__occasion__organization",
        pk=winner_pk,
        claim__game=game,
    )
    threshold = selectors.w2g_threshold(game.occasion)
    form = PayoutForm(
        request.POST,
        winner=winner,
        verifiers=_verifiers(access, request.user),
        needs_w2g=needs_w2g(winner.share, threshold),
    )
    return _submit(
        request,
        game,
        form,
        f"payout_{winner.pk}",
        payout_services.record_payout,
        f"{winner.player_name} is paid.",
        {"winner": winner},
        show=partial(put_on_fields, person="verified_by", secret="verifier_secret"),
    )
