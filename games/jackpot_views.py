"""Progressive jackpot pages (961 CMR 3.04(6)(h), (8)(a)2): the organization's series with their
announced rules and ledgers, starting a series, changing its rules while allowed; an occasion's
progressive games, carrying a jackpot into one and recording its outcome. Reads are open to
every role and to inspectors; writes to the head and the member in charge. A refusal comes back
on its form with its citation (status 200) and nothing is saved."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from beano.rules.money import usd
from games import jackpot_selectors as selectors
from games import jackpot_services as services
from games import jackpot_settlement
from games.jackpot_forms import (
    AttachForm,
    OutcomeForm,
    SeriesRulesForm,
    StartSeriesForm,
    rules_initial,
)
from games.models import ProgressiveGame, ProgressiveSeries
from occasions.models import Occasion
from occasions.views import RUNS_THE_NIGHT, get_occasion
from organizations.access import OrgAccess, OrgRequest, get_for_org, org_view
from organizations.forms import submit

RULES_CITATION = "961 CMR 3.04(6)(h), (8)(a)2"


def _series(access: OrgAccess, pk: int) -> ProgressiveSeries:
    return get_for_org(
        ProgressiveSeries.objects.select_related("arrangement", "started_by"), access, pk=pk
    )


@org_view()
def jackpot_list(request: OrgRequest) -> HttpResponse:
    access: OrgAccess = request.access
    return render(
        request,
        "games/jackpot_list.html",
        {
            "org": access.organization,
            "access": access,
            "tab": "jackpots",
            "lines": selectors.series_lines(access.organization, timezone.localdate()),
            "can_run": access.has_role(*RUNS_THE_NIGHT),
        },
    )


def _form_page(request: OrgRequest, form: Any, title: str, submit: str) -> HttpResponse:
    access: OrgAccess = request.access
    return render(
        request,
        "occasions/form_page.html",
        {
            "org": access.organization,
            "access": access,
            "tab": "jackpots",
            "form": form,
            "title": title,
            "citation": RULES_CITATION,
            "submit_label": submit,
        },
    )


@org_view()
def jackpot_start(request: OrgRequest) -> HttpResponse:
    access: OrgAccess = request.access
    form = StartSeriesForm(request.POST if request.method == "POST" else None)

    def started(series: Any) -> HttpResponse:
        messages.success(request, f"{series.name} is started under its announced rules.")
        return redirect("jackpot_detail", org_id=access.organization.pk, pk=series.pk)

    return submit(
        form,
        lambda _: services.start_series(
            organization=access.organization, by=request.user, **form.service_values()
        ),
        done=started,
        again=lambda: _form_page(
            request, form, "Start a progressive jackpot series", "Announce and start"
        ),
    )


@org_view()
def jackpot_detail(request: OrgRequest, pk: int) -> HttpResponse:
    access: OrgAccess = request.access
    series = _series(access, pk)
    pending = selectors.pending_game(series)
    terms = None
    if pending is None and series.is_active:
        terms = selectors.next_terms(series, timezone.localdate())
    return render(
        request,
        "games/jackpot_detail.html",
        {
            "org": access.organization,
            "access": access,
            "tab": "jackpots",
            "series": series,
            "pending": pending,
            "terms": terms,
            "rows": selectors.ledger(series),
            "can_run": access.has_role(*RUNS_THE_NIGHT),
        },
    )


@org_view()
def jackpot_rules_change(request: OrgRequest, pk: int) -> HttpResponse:
    """Change a series' rules: refused, with its citation, once its first game has begun and
    before its jackpot is won."""
    access: OrgAccess = request.access
    series = _series(access, pk)
    post = request.method == "POST"
    form = SeriesRulesForm(request.POST if post else None, initial=rules_initial(series))

    def changed(_: Any) -> HttpResponse:
        messages.success(request, f"The rules of {series.name} are changed.")
        return redirect("jackpot_detail", org_id=access.organization.pk, pk=series.pk)

    return submit(
        form,
        lambda _: services.change_series_rules(
            series=series, by=request.user, **form.service_values()
        ),
        done=changed,
        again=lambda: _form_page(
            request, form, f"Change the rules of {series.name}", "Change the rules"
        ),
    )


def _panel(
    request: OrgRequest,
    occasion: Occasion,
    *,
    attach_form: AttachForm | None = None,
    outcome_for: tuple[int, OutcomeForm] | None = None,
) -> HttpResponse:
    """The occasion's progressive games: the whole page, or the panel alone for htmx."""
    access: OrgAccess = request.access
    can_run = access.has_role(*RUNS_THE_NIGHT)
    games = list(selectors.progressive_games(occasion))
    played = occasion.opened_at is not None and occasion.status in (
        Occasion.Status.OPEN,
        Occasion.Status.CLOSED,
    )
    rows = []
    for game in games:
        pg = getattr(game, "progressive", None)
        form = None
        if can_run and played and pg is not None and not pg.is_settled:
            form = outcome_for[1] if outcome_for and outcome_for[0] == pg.pk else OutcomeForm()
        rows.append({"game": game, "pg": pg, "outcome_form": form})
    if attach_form is None and can_run and occasion.status != Occasion.Status.NOT_PLAYED:
        candidate = AttachForm(occasion=occasion)
        if candidate.fields["game"].queryset.exists():  # type: ignore[attr-defined]
            attach_form = candidate
    context = {
        "org": access.organization,
        "access": access,
        "occasion": occasion,
        "rows": rows,
        "attach_form": attach_form,
        "has_series": selectors.attachable_series(access.organization).exists(),
        "can_run": can_run,
    }
    template = (
        "games/_occasion_jackpot_panel.html" if request.htmx else "games/occasion_jackpot.html"
    )  # type: ignore[attr-defined]
    return render(request, template, context)


@org_view()
def occasion_jackpot(request: OrgRequest, pk: int) -> HttpResponse:
    access: OrgAccess = request.access
    return _panel(request, get_occasion(access, pk))


def _done(request: HttpRequest, occasion: Occasion, text: str) -> HttpResponse:
    messages.success(request, text)
    if request.htmx:  # type: ignore[attr-defined]
        return _panel(request, occasion)
    return redirect("occasion_jackpot", org_id=occasion.organization_id, pk=occasion.pk)


@org_view()
@require_POST
def occasion_jackpot_attach(request: OrgRequest, pk: int) -> HttpResponse:
    access: OrgAccess = request.access
    occasion = get_occasion(access, pk)
    form = AttachForm(request.POST, occasion=occasion)
    return submit(
        form,
        lambda values: services.attach_game(by=request.user, **values),
        done=lambda pg: _done(
            request,
            occasion,
            f"Game {pg.game.number} carries {pg.series.name}: {usd(pg.jackpot_amount)} "
            f"within {pg.calls_allowed} calls.",
        ),
        again=lambda: _panel(request, occasion, attach_form=form),
    )


@org_view()
@require_POST
def jackpot_game_outcome(request: OrgRequest, pk: int) -> HttpResponse:
    access: OrgAccess = request.access
    pg = get_for_org(
        ProgressiveGame.objects.select_related("game", "series", "occasion"),
        access,
        via="series__organization",
        pk=pk,
    )
    occasion = get_occasion(access, pg.occasion_id)
    form = OutcomeForm(request.POST)

    def settled(entry: Any) -> HttpResponse:
        carried = (
            f"the jackpot of {usd(entry.paid)} is paid and the series is won"
            if entry.paid_kind == entry.Paid.JACKPOT
            else f"{usd(entry.carried_out)} carried to the next occasion"
        )
        return _done(request, occasion, f"Game {pg.game.number} is recorded: {carried}.")

    return submit(
        form,
        lambda _: jackpot_settlement.settle_game(
            progressive_game=pg, by=request.user, **form.service_values()
        ),
        done=settled,
        again=lambda: _panel(request, occasion, outcome_for=(pg.pk, form)),
    )
