"""The caller's console (the ball entered by keyboard or tapped on a 75-ball board, each call
listed with its time and a correction) and the public flashboard the hall's screen shows.
Every refusal is shown with its citation, status 200, and saves nothing; htmx requests get the
console's live part back."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.utils.cache import get_conditional_response, patch_cache_control
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap, trigger_client_event

from beano.rules.cards import ball_label
from games import board_cache, draw_acts
from games import draw_selectors as selectors
from games import draw_services as services
from games.draw_forms import BallForm, CorrectionForm
from games.lookups import get_game
from games.models import BallCall, Game
from occasions.floor_bar import floor_bar
from occasions.floor_views import problems
from occasions.models import Occasion
from occasions.views import get_occasion
from organizations.access import OrgAccess, OrgRequest, get_for_org, org_view
from organizations.access_matrix import ON_THE_FLOOR as CALLS
from organizations.forms import submit

#: The caller is a worker; the member in charge and the head may enter balls too.


def _form_problems(form: Any) -> list[dict[str, str]]:
    return [{"citation": "", "message": m} for errors in form.errors.values() for m in errors]


def _console_context(
    access: OrgAccess, occasion: Occasion, game: Game, *, fresh: bool = True, **extra: Any
) -> dict[str, Any]:
    kept = board_cache.kept_board(
        access.organization.pk, occasion.pk, game.pk, known=game, fresh=fresh
    )
    calls = list(kept.calls) if kept is not None else []
    can_call = access.has_role(*CALLS)
    return {
        "org": access.organization,
        "access": access,
        "occasion": occasion,
        "game": game,
        "games": selectors.occasion_games(occasion),
        "parts": [{"part": p} for p in selectors.prize_parts(game)],
        "calls": list(reversed(calls)),
        "board": selectors.BoardState.of(calls),
        "board_version": kept.version if kept is not None else None,
        "can_call": can_call,
        "in_play": game.status == Game.Status.IN_PLAY,
        "ball_form": extra.pop("ball_form", None) or BallForm(),
        **extra,
    }


def _console(
    request: OrgRequest, occasion: Occasion, game: Game, status: int = 200, **extra: Any
) -> HttpResponse:
    access = request.access
    context = _console_context(access, occasion, game, **extra)
    if request.htmx:
        return render(request, "games/draw/_live.html", context, status=status)
    context["floor"] = floor_bar(occasion, "console", game_pk=game.pk)
    return render(request, "games/draw/console.html", context, status=status)


def _back(game: Game) -> HttpResponse:
    return redirect(
        "draw_console", org_id=game.occasion.organization_id, pk=game.occasion_id, game_pk=game.pk
    )


@org_view()
def draw_home(request: OrgRequest, pk: int) -> HttpResponse:
    """The occasion's games to pick from; with a game in play, that game's console at once:
    the links that name the draw (the dashboard's, the occasion page's) cannot know which game
    is in play without a query, and the caller came to enter its balls, not to pick it. The
    console's own picker offers the other games."""
    access = request.access
    occasion = get_occasion(access, pk)
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET", "HEAD"])
    games = selectors.occasion_games(occasion)
    in_play = [g for g in games if g.status == Game.Status.IN_PLAY]
    if len(in_play) == 1:
        return redirect(
            "draw_console", org_id=occasion.organization_id, pk=occasion.pk, game_pk=in_play[0].pk
        )
    return render(
        request,
        "games/draw/home.html",
        {
            "org": access.organization,
            "access": access,
            "occasion": occasion,
            "games": games,
            "current": selectors.current_game(occasion),
            "floor": floor_bar(occasion, "console"),
        },
    )


@org_view()
def draw_console(request: OrgRequest, pk: int, game_pk: int) -> HttpResponse:
    access = request.access
    occasion = get_occasion(access, pk)
    game = get_game(access, occasion, game_pk)
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET", "HEAD"])
    return _console(request, occasion, game)


@org_view()
def draw_board(request: OrgRequest, pk: int, game_pk: int) -> HttpResponse:
    """The console's refresh, polled: the last ball, the board and the calls as every live page
    of the night reads them, from the kept board (``games.board_cache``), not read again for
    this console; nothing (204) while the board is the version the console shows (``since``).
    Another organization's game is a 404 here as everywhere."""
    access = request.access
    kept = board_cache.kept_board(access.organization.pk, pk, game_pk)
    if kept is None:
        raise Http404
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET", "HEAD"])
    if kept.version is not None and request.GET.get("since") == str(kept.version):
        return HttpResponse(status=204)
    calls = list(kept.calls)
    context = {
        "org": access.organization,
        "occasion": Occasion(pk=pk, organization=access.organization),
        "game": Game(pk=game_pk, occasion_id=pk, status=kept.status),
        "board": selectors.BoardState.of(calls),
        "board_version": kept.version,
        "calls": list(reversed(calls)),
        "can_call": access.has_role(*CALLS),
        "in_play": kept.status == Game.Status.IN_PLAY,
    }
    return render(request, "games/draw/_refresh.html", context)


def _called(request: OrgRequest, call: BallCall, done: str) -> HttpResponse:
    """The console's answer to a ball recorded: its delta (the message, the last ball and the
    count, the ball lit and the one no longer last, the new line of the calls, the picker's
    count), swapped out of band; the form stays where it is, its box readied by draw.js."""
    game = call.game
    context = {
        "org": request.access.organization,
        "occasion": game.occasion,
        "game": game,
        "c": call,
        "previous": call.previous_last,
        "done": done,
        "can_call": True,
        "in_play": True,
    }
    response = render(request, "games/draw/_called.html", context)
    reswap(response, "none")
    # On receipt, before the swap: a ball typed or entered from then on is the next one.
    return trigger_client_event(
        response, "ballCalled", {"sequence": call.sequence}, after="receive"
    )


@org_view()
@require_POST
def draw_call(request: OrgRequest, pk: int, game_pk: int) -> HttpResponse:
    """A ball entered. The game is read once, under the service's lock (another organization's
    is a 404 there); only a refusal reads the console again to show it."""
    access = request.access
    form = BallForm(request.POST)
    if not form.is_valid():
        occasion = get_occasion(access, pk)
        game = get_game(access, occasion, game_pk)
        return _console(request, occasion, game, ball_form=form, refusals=_form_problems(form))

    def call(data: dict[str, Any]) -> BallCall:
        try:
            return draw_acts.call_ball(
                form,
                organization=access.organization,
                occasion_id=pk,
                game_id=game_pk,
                by=request.user,
            )
        except Game.DoesNotExist:
            raise Http404 from None

    def refused(error: ValidationError) -> HttpResponse:
        occasion = get_occasion(access, pk)
        game = get_game(access, occasion, game_pk)
        return _console(request, occasion, game, ball_form=form, refusals=problems(error))

    return submit(
        form,
        call,
        done=lambda call: _after_call(request, access, pk, game_pk, call),
        refused=refused,
    )


def _after_call(
    request: OrgRequest, access: OrgAccess, pk: int, game_pk: int, call: BallCall
) -> HttpResponse:
    """The answer to a ball called: the console with it, or only what changed (htmx)."""
    done = draw_acts.called_words(call)
    if not request.htmx:
        messages.success(request, done)
        return _back(call.game)
    if not hasattr(call, "live_count"):  # the same key sent again: the console as it stands
        occasion = get_occasion(access, pk)
        return _console(request, occasion, get_game(access, occasion, game_pk), done=done)
    return _called(request, call, done)


@org_view()
@require_POST
def draw_correct(request: OrgRequest, pk: int, game_pk: int, call_pk: int) -> HttpResponse:
    access = request.access
    occasion = get_occasion(access, pk)
    game = get_game(access, occasion, game_pk)
    call = get_for_org(
        BallCall.objects.all(), access, via="game__occasion__organization", pk=call_pk, game=game
    )
    form = CorrectionForm(request.POST)
    if not form.is_valid():
        return _console(request, occasion, game, refusals=_form_problems(form))

    def corrected(_: object) -> HttpResponse:
        done = f"Call #{call.sequence} ({ball_label(call.number)}) voided: enter the ball called."
        if not request.htmx:
            messages.success(request, done)
            return _back(game)
        return _console(request, occasion, game, done=done)

    return submit(
        form,
        lambda data: services.correct_ball_call(call=call, reason=data["reason"], by=request.user),
        done=corrected,
        refused=lambda error: _console(
            request, occasion, game, refusals=problems(error), refused_call=call.pk
        ),
    )


@org_view()
@require_POST
def flashboard_link(request: OrgRequest, pk: int) -> HttpResponse:
    """Make the flashboard's public link, replace it with a new one, or turn it off. A refusal
    (the occasion sealed by its filed report while the page stayed open) comes back to the
    occasion's page as its message."""
    access = request.access
    occasion = get_occasion(access, pk)

    def act(_: object) -> str:
        if request.POST.get("action") == "off":
            services.revoke_flashboard_link(occasion=occasion, by=request.user)
            return "The flashboard link is turned off."
        services.issue_flashboard_link(occasion=occasion, by=request.user)
        return "A new flashboard link is ready; any older link has stopped."

    def back(message: str, level: int) -> HttpResponse:
        messages.add_message(request, level, message)
        return redirect("occasion_detail", org_id=access.organization.pk, pk=occasion.pk)

    return submit(
        None,
        act,
        done=lambda done: back(done, messages.SUCCESS),
        refused=lambda error: back(" ".join(error.messages), messages.ERROR),
    )


# The public flashboard: no login, the token is the only key.


def _flash_board(flash: Any, game: Game, fresh: bool) -> selectors.BoardState:
    """The board from the copy the consoles read too (``games.board_cache``); the whole page
    (``fresh``) reads it from the database and keeps it for the polls."""
    organization_id = flash.occasion.organization_id
    kept = board_cache.kept_board(
        organization_id, flash.occasion_id, game.pk, known=game, fresh=fresh
    )
    return selectors.BoardState.of(list(kept.calls) if kept is not None else [])


def _flash_context(
    board: Any, state: selectors.FlashState, *, fresh: bool = False
) -> dict[str, Any]:
    game = state.game
    if game is None:
        return {"flash": board, "game": None, "etag": state.etag}
    return {
        "flash": board,
        "game": game,
        "parts": [{"part": p} for p in selectors.prize_parts(game)],
        "board": _flash_board(board, game, fresh),
        "etag": state.etag,
    }


def _public_headers(response: HttpResponse) -> HttpResponse:
    patch_cache_control(response, no_cache=True)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@require_GET
def flashboard(request: HttpRequest, token: str) -> HttpResponse:
    board = selectors.active_flashboard(token)
    state = selectors.state_of(board)
    if board is None or state is None:
        raise Http404
    response = render(
        request, "games/flashboard/page.html", _flash_context(board, state, fresh=True)
    )
    return _public_headers(response)


@require_GET
def flashboard_board(request: HttpRequest, token: str) -> HttpResponse:
    """The part that changes, polled every second: 304 Not Modified while its ETag stands,
    answered from the cache without a query (``selectors.flash_answer``, in one round trip when
    the tag sent back is this board's); the board itself when a ball is called, voided or the
    game changes."""
    answer = selectors.flash_answer(token, seen=request.headers.get("If-None-Match", ""))
    if answer is None:
        raise Http404
    response = get_conditional_response(request, etag=answer.etag)
    if response is None:
        if answer.board is None or answer.state is None:
            answer = selectors.flash_answer(token, fresh=True)
            if answer is None or answer.board is None or answer.state is None:
                raise Http404
        context = _flash_context(answer.board, answer.state)
        response = render(request, "games/flashboard/_board.html", context)
    response["ETag"] = answer.etag
    return _public_headers(response)
