"""The program page of an occasion for the hall laptop: the games by half with their prizes,
the announcements, the 75 balls confirmed, Start and Finish, and the forms to plan the program.
Each write is one service call; a refusal is shown by the game it concerns, with its citation,
and nothing is saved. htmx requests get the program panel back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from beano import rules
from beano.rules.limits import LimitName, limits_in_force
from games import program_selectors as selectors
from games import program_services as services
from games.finish_summary import finish_summary
from games.lookups import get_game
from games.models import Game, PrizePart
from games.program_forms import (
    BlankPartForms,
    CopyProgramForm,
    DrawnForm,
    GameForm,
    PrizePartForm,
)
from occasions.confirm import Confirmation, confirmed
from occasions.floor_bar import floor_bar
from occasions.models import Occasion
from occasions.views import RUNS_THE_NIGHT, get_occasion
from organizations.access import OrgAccess, OrgRequest, get_for_org, org_view
from organizations.forms import submit

Refusals = list[dict[str, str]]


def problems(error: ValidationError) -> Refusals:
    """A refusal as the page shows it: each message with its citation, where a rule gave one."""
    if isinstance(error, rules.RuleViolation):
        return [{"citation": v.citation, "message": v.message} for v in error.violations]
    return [{"citation": "", "message": m} for m in error.messages]


def _form_problems(form: Any) -> Refusals:
    return [{"citation": "", "message": m} for errors in form.errors.values() for m in errors]


def _htmx(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False))


def _copy_sources(occasion: Occasion) -> list[Occasion]:
    return list(
        Occasion.objects.filter(organization_id=occasion.organization_id, games__isnull=False)
        .exclude(pk=occasion.pk)
        .distinct()
        .order_by("-date")[:8]
    )


def _full_page(
    request: HttpRequest, access: OrgAccess, occasion: Occasion, **extra: Any
) -> HttpResponse:
    """The program page with the floor bar (an htmx update of the program leaves the bar)."""
    context = _context(access, occasion, **extra) | {"floor": floor_bar(occasion, "games")}
    return render(request, "games/program.html", context)


def _context(
    access: OrgAccess,
    occasion: Occasion,
    *,
    refusals: Refusals | None = None,
    refused_at: str = "",
    confirm: Confirmation | None = None,
    game_form: GameForm | None = None,
    part_form: PrizePartForm | None = None,
    part_form_game: int | None = None,
) -> dict[str, Any]:
    """The program; a refusal is placed where it was pressed (``refused_at``: "game-<pk>",
    "add-game" or "copy"), so an htmx swap shows it in view."""
    can_run = access.has_role(*RUNS_THE_NIGHT)
    games = selectors.program(occasion)
    authorized = list(selectors.authorized_arrangements(occasion.organization, occasion.date))
    limits = limits_in_force(occasion.date)
    editable = occasion.status in services.EDITABLE and can_run
    in_play = next((g for g in games if g.status == Game.Status.IN_PLAY), None)
    next_game = next((g for g in games if g.status == Game.Status.PLANNED), None)
    # Each planned game's "add a prize" form, shown where the program can still be planned.
    blank = BlankPartForms(authorized) if editable else None
    rows = []
    for game in games:
        parts = list(game.parts.all())
        if part_form is not None and part_form_game == game.pk:
            form: PrizePartForm | DrawnForm | None = part_form
        elif blank is not None and game.status == Game.Status.PLANNED:
            form = blank.of(game.pk)
        else:
            form = None
        rows.append(
            {
                "game": game,
                "here": f"game-{game.pk}",
                # The game in play or, between games, the next one: its prizes are
                # announced, its balls checked and it is started; the program runs in order.
                "current": game == (in_play or next_game)
                and occasion.status == Occasion.Status.OPEN,
                "parts": parts,
                "prize": sum((p.amount for p in parts if not p.is_bonus), selectors.ZERO),
                "bonus": sum((p.amount for p in parts if p.is_bonus), selectors.ZERO),
                "any_announced": any(p.announced_at for p in parts),
                "part_form": form,
            }
        )
    has_wta = any(g.kind == Game.Kind.WINNER_TAKE_ALL for g in games)
    return {
        "org": access.organization,
        "access": access,
        "occasion": occasion,
        "can_run": can_run,
        "editable": editable,
        "halves": [
            (half, label, [r for r in rows if r["game"].half == half])
            for half, label in ((1, "First half"), (2, "Second half"))
        ],
        "game_count": len(games),
        "in_play": in_play,
        "authorized": authorized,
        "game_form": game_form
        or GameForm(initial={"number": (games[-1].number + 1) if games else 1, "half": 1}),
        "copy_form": CopyProgramForm(occasions=_copy_sources(occasion)) if not games else None,
        "wta_receipts": selectors.winner_take_all_receipts(occasion) if has_wta else None,
        "wta_prize": selectors.winner_take_all_prize(occasion) if has_wta else None,
        "max_single": limits.get(LimitName.MAX_PRIZE_SINGLE_GAME),
        "max_bonus": limits.get(LimitName.MAX_BONUS_PRIZE),
        "max_total": limits.get(LimitName.MAX_TOTAL_PRIZES_OCCASION),
        "total_prizes": sum((r["prize"] + r["bonus"] for r in rows), selectors.ZERO),
        "refusals": refusals,
        "refused_at": refused_at,
        "confirm": confirm,
    }


def _respond(
    request: HttpRequest,
    access: OrgAccess,
    occasion: Occasion,
    *,
    done: str = "",
    **extra: Any,
) -> HttpResponse:
    """htmx: the program panel. A plain post: the page again with the refusal (status 200,
    nothing saved), or back to the page with the news."""
    occasion.refresh_from_db()
    if _htmx(request):
        # The game started or finished changes the floor bar: it comes along, swapped in place.
        bar = {"floor": floor_bar(occasion, "games"), "floor_oob": True}
        return render(
            request,
            "games/_program.html",
            _context(access, occasion, **extra) | {"done": done} | bar,
        )
    if extra.get("refusals") or extra.get("confirm"):
        return _full_page(request, access, occasion, **extra)
    if done:
        messages.success(request, done)
    return redirect("game_program", org_id=access.organization.pk, pk=occasion.pk)


@org_view()
def program_page(request: OrgRequest, pk: int) -> HttpResponse:
    access = request.access
    occasion = get_occasion(access, pk)
    return _full_page(request, access, occasion)


@org_view()
@require_POST
def game_add(request: OrgRequest, pk: int) -> HttpResponse:
    access = request.access
    occasion = get_occasion(access, pk)
    form = GameForm(request.POST)
    if not form.is_valid():
        return _respond(
            request,
            access,
            occasion,
            refusals=_form_problems(form),
            refused_at="add-game",
            game_form=form,
        )
    return submit(
        form,
        lambda data: services.add_game(occasion=occasion, by=request.user, **data),
        done=lambda game: _respond(
            request, access, occasion, done=f"Game {game.number} is in the program."
        ),
        refused=lambda error: _respond(
            request,
            access,
            occasion,
            refusals=problems(error),
            refused_at="add-game",
            game_form=form,
        ),
    )


#: What the program page reads of a game: its occasion, the organization and the license.
PROGRAM_GAME = ("occasion__organization", "occasion__license")


def _part(access: OrgAccess, pk: int, part_pk: int) -> PrizePart:
    return get_for_org(
        PrizePart.objects.select_related("game__occasion", "arrangement"),
        access,
        via="game__occasion__organization",
        pk=part_pk,
        game__occasion_id=pk,
    )


@org_view()
@require_POST
def prize_part_add(request: OrgRequest, pk: int, game_pk: int) -> HttpResponse:
    access = request.access
    game = get_game(access, pk, game_pk, related=PROGRAM_GAME)
    occasion = game.occasion
    authorized = list(selectors.authorized_arrangements(occasion.organization, occasion.date))
    form = PrizePartForm(request.POST, authorized=authorized, prefix=f"g{game.pk}")
    where = f"game-{game.pk}"
    if not form.is_valid():
        return _respond(
            request,
            access,
            occasion,
            refusals=_form_problems(form),
            refused_at=where,
            part_form=form,
            part_form_game=game.pk,
        )
    return submit(
        form,
        lambda data: services.add_prize_part(game=game, by=request.user, **data),
        done=lambda _: _respond(
            request, access, occasion, done=f"Game {game.number}'s prize is added."
        ),
        refused=lambda error: _respond(
            request,
            access,
            occasion,
            refusals=problems(error),
            refused_at=where,
            part_form=form,
            part_form_game=game.pk,
        ),
    )


def _run_game_act(
    request: OrgRequest, pk: int, game_pk: int, service: Callable[..., Any], done: str
) -> HttpResponse:
    access = request.access
    game = get_game(access, pk, game_pk, related=PROGRAM_GAME)
    return submit(
        None,
        lambda _: service(game=game, by=request.user),
        done=lambda _: _respond(
            request, access, game.occasion, done=done.format(number=game.number)
        ),
        refused=lambda error: _respond(
            request,
            access,
            game.occasion,
            refusals=problems(error),
            refused_at=f"game-{game.pk}",
        ),
    )


def _game_act(
    service: Callable[..., Any], done: str
) -> Callable[[HttpRequest, int, int], HttpResponse]:
    """A button on a game: call the service, show its refusal by the game."""

    @org_view()
    @require_POST
    def view(request: OrgRequest, pk: int, game_pk: int) -> HttpResponse:
        return _run_game_act(request, pk, game_pk, service, done)

    view.__name__ = service.__name__
    return view


game_remove = _game_act(services.remove_game, "Game {number} is out of the program.")
game_confirm_balls = _game_act(
    services.confirm_balls, "All 75 balls are in the receptacle for game {number}."
)
game_start = _game_act(services.start_game, "Game {number} has begun.")


@org_view()
@require_POST
def game_finish(request: OrgRequest, pk: int, game_pk: int) -> HttpResponse:
    """Finish a game once confirmed from its summary; an unconfirmed POST does nothing and shows
    the summary by the game (the prizes with no winner recorded yet)."""
    if confirmed(request):
        return _run_game_act(
            request, pk, game_pk, services.finish_game, "Game {number} is finished."
        )
    access = request.access
    game = get_game(access, pk, game_pk, related=PROGRAM_GAME)
    return _respond(
        request,
        access,
        game.occasion,
        confirm=finish_summary(game),
        refused_at=f"game-{game.pk}",
    )


def _part_act(
    service: Callable[..., Any], done: str
) -> Callable[[HttpRequest, int, int], HttpResponse]:
    @org_view()
    @require_POST
    def view(request: OrgRequest, pk: int, part_pk: int) -> HttpResponse:
        access = request.access
        part = _part(access, pk, part_pk)
        occasion = part.game.occasion
        return submit(
            None,
            lambda _: service(part=part, by=request.user),
            done=lambda _: _respond(
                request,
                access,
                occasion,
                done=done.format(number=part.game.number, order=part.order),
            ),
            refused=lambda error: _respond(
                request,
                access,
                occasion,
                refusals=problems(error),
                refused_at=f"game-{part.game_id}",
            ),
        )

    view.__name__ = service.__name__
    return view


prize_part_announce = _part_act(
    services.announce_prize_part, "Game {number}'s prize {order} is announced."
)
prize_part_remove = _part_act(services.remove_prize_part, "Game {number}'s prize is removed.")


@org_view()
@require_POST
def program_copy(request: OrgRequest, pk: int) -> HttpResponse:
    access = request.access
    occasion = get_occasion(access, pk)
    form = CopyProgramForm(request.POST, occasions=_copy_sources(occasion))
    if not form.is_valid():
        return _respond(request, access, occasion, refusals=_form_problems(form), refused_at="copy")
    source = get_occasion(access, form.cleaned_data["from_occasion"])
    return submit(
        form,
        lambda _: services.copy_program(occasion=occasion, from_occasion=source, by=request.user),
        done=lambda games: _respond(
            request,
            access,
            occasion,
            done=f"{len(games)} games copied from {source.date:%A, %B %-d}.",
        ),
        refused=lambda error: _respond(
            request, access, occasion, refusals=problems(error), refused_at="copy"
        ),
    )
