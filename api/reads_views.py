"""The reads of one organization: its licenses, its occasions with their figures, an occasion's
details (its posted price list, its program, its door and, once closed, its report's figures)
and the night's state for flashboards and points of sale. Each reads through the selectors the
pages use, so the API says what the pages say; a token of another organization gets 404, a
Commission token reads every organization its maker reviews."""

from __future__ import annotations

import hashlib
import json
from decimal import Decimal
from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics
from rest_framework.request import Request
from rest_framework.response import Response

from api import access
from api import reads_serializers as out
from api.base import ApiView, Pages, etagged
from api.schema import READ_PROBLEMS
from beano.rules.cards import ball_label
from games import board_cache, draw_selectors, program_selectors
from games.models import Game, PrizePart
from occasions import live, sales_selectors
from occasions.models import Occasion
from occasions.sales_services import MAX_QUANTITY
from organizations.models import License, Organization
from reports.figures import compute_figures, to_json
from reports.models import FinancialReport
from reports.occasion_totals import FIGURES, with_kept_figures

CENT = Decimal("0.01")


def _occasion(organization: Organization, occasion_id: int) -> Occasion:
    """The organization's occasion, else 404 (another organization's is none)."""
    found = (
        Occasion.objects.select_related("license")
        .filter(organization=organization, pk=occasion_id)
        .first()
    )
    if found is None:
        raise Http404
    return found


class LicenseList(generics.ListAPIView, ApiView):
    read_scopes = access.ORG_READ
    pagination_class = Pages
    serializer_class = out.LicenseSerializer

    def get_queryset(self) -> QuerySet[License]:
        organization = access.organization(self.request, self.kwargs["org_id"])
        return License.objects.filter(organization=organization).order_by("-valid_from", "pk")

    @extend_schema(
        operation_id="api_licenses",
        responses={200: out.LicenseSerializer(many=True), **READ_PROBLEMS},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The organization's licenses, latest first."""
        return super().get(request, *args, **kwargs)


_OCCASION_FILTERS = [
    OpenApiParameter("from", OpenApiTypes.DATE, description="Occasions on or after this day."),
    OpenApiParameter("to", OpenApiTypes.DATE, description="Occasions on or before this day."),
    OpenApiParameter(
        "status", OpenApiTypes.STR, enum=Occasion.Status.values, description="Only this status."
    ),
]


class OccasionList(generics.ListAPIView, ApiView):
    read_scopes = access.ORG_READ
    pagination_class = Pages
    serializer_class = out.OccasionSerializer

    def get_queryset(self) -> QuerySet[Occasion]:
        organization = access.organization(self.request, self.kwargs["org_id"])
        asked = out.OccasionFilterSerializer(data=self.request.query_params)
        asked.is_valid(raise_exception=True)
        found = Occasion.objects.filter(organization=organization)
        if (start := asked.validated_data.get("from")) is not None:
            found = found.filter(date__gte=start)
        if (end := asked.validated_data.get("to")) is not None:
            found = found.filter(date__lte=end)
        if status := asked.validated_data.get("status"):
            found = found.filter(status=status)
        # The figures as the Commission's lists read them: a closed night's as kept.
        return with_kept_figures(found.select_related("license")).order_by("-date", "-pk")

    @extend_schema(
        operation_id="api_occasions",
        parameters=_OCCASION_FILTERS,
        responses={200: out.OccasionSerializer(many=True), **READ_PROBLEMS},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The organization's occasions, latest first, each with its figures."""
        return super().get(request, *args, **kwargs)


def _money(value: Any) -> str:
    return f"{Decimal(str(value)).quantize(CENT):.2f}"


def _headline(figures: dict[str, Any]) -> dict[str, str]:
    """The report's headline figures from its figures (``reports.figures``, as JSON: what is
    filed, hashed and embedded in the PDF; the names of ``nightfile.writer.summary_figures``)."""
    receipts, tax, net = figures["receipts"], figures["tax"], figures["net"]
    return {
        "door_total": _money(receipts["door_total"]),
        "charity_game_tickets": _money(receipts["charity_game_tickets"]["amount"]),
        "refunds": _money(receipts["refunds"]),
        "gross_receipts": _money(receipts["gross_receipts"]),
        "beano_tax": _money(tax["tax"]),
        "interest": _money(tax["interest"]),
        "tax_due": _money(tax["total_due"]),
        "prizes_total": _money(figures["prizes"]["total"]),
        "prizes_expensed": _money(figures["prizes"]["expensed"]),
        "door_prizes": _money(net["door_prizes"]),
        "charity_prizes": _money(net["charity_prizes"]),
        "expenses_total": _money(figures["expenses"]["total"]),
        "net_proceeds": _money(net["net_proceeds"]),
    }


def report_figures(occasion: Occasion) -> dict[str, Any] | None:
    """The figures of the occasion's report: its latest filed version's, as filed; a closed
    occasion's not filed yet as the report computes them now; none before the close."""
    filed = FinancialReport.objects.filter(occasion=occasion).order_by("-version").first()
    if filed is not None:
        return {
            "source": "filed",
            "report_version": filed.version,
            "figures_sha256": filed.figures_sha256,
            **_headline(filed.figures),
        }
    if occasion.status != Occasion.Status.CLOSED:
        return None
    return {
        "source": "computed",
        "report_version": None,
        "figures_sha256": None,
        **_headline(to_json(compute_figures(occasion))),
    }


def door_part(counts: sales_selectors.DoorCounts, players: int | None) -> dict[str, Any]:
    return {
        "receipts": counts.receipts,
        "voided": counts.voided,
        "total": counts.total,
        "admissions": counts.admissions,
        "attendance": players,
        "categories": [
            {"category": c.category, "label": c.label, "quantity": c.quantity, "amount": c.amount}
            for c in counts.categories
        ],
    }


def _door(occasion: Occasion) -> dict[str, Any]:
    """As the occasion page shows it (``occasion_door``): a closed night's as kept, an open
    one's as the door screens keep it (no query while the door's number stands)."""
    counts, attendance = sales_selectors.occasion_door(occasion)
    announced = attendance.announcement
    return door_part(counts, announced.players if announced is not None else None)


def prize_part(part: PrizePart) -> dict[str, Any]:
    arrangement = part.arrangement
    return {
        "order": part.order,
        "pattern": {
            "code": arrangement.code,
            "name": arrangement.name,
            "picture": draw_selectors.picture(arrangement.variants),
        },
        "kind": part.kind,
        "amount": part.amount,
        "description": part.description,
        "donated": part.donated,
        "is_bonus": part.is_bonus,
        "announced_at": part.announced_at,
    }


def _games(occasion: Occasion) -> list[dict[str, Any]]:
    """The program (``program_selectors.program``) with each game's balls called
    (``draw_selectors.occasion_games``): three queries however many games."""
    balls = {g.pk: g.balls for g in draw_selectors.occasion_games(occasion)}
    return [
        {
            "id": game.pk,
            "number": game.number,
            "half": game.half,
            "kind": game.kind,
            "status": game.status,
            "started_at": game.started_at,
            "finished_at": game.finished_at,
            "balls_called": balls.get(game.pk, 0),
            "prizes": [prize_part(p) for p in game.parts.all()],
        }
        for game in program_selectors.program(occasion)
    ]


def _price_list(organization: Organization, occasion: Occasion) -> list[dict[str, Any]]:
    """The posted list as the door's form reads it (``sales_selectors.posted_items``)."""
    return [
        {
            "id": item.pk,
            "category": item.category,
            "category_label": item.get_category_display(),
            "label": item.label,
            "price": item.price,
            "package_contents": item.package_contents,
            "max_quantity": MAX_QUANTITY,
        }
        for item in sales_selectors.posted_items(organization, occasion.pk)
    ]


class OccasionDetail(ApiView):
    read_scopes = access.ORG_READ

    @extend_schema(
        operation_id="api_occasion",
        responses={200: out.OccasionDetailSerializer, **READ_PROBLEMS},
    )
    def get(self, request: Request, org_id: int, occasion_id: int) -> Response:
        """An occasion: its posted price list (the item ids a sale names), its program (each
        game's number, patterns, prizes and status), its door's counts and, once it is closed,
        its report's figures."""
        organization = access.organization(request, org_id)
        occasion = _occasion(organization, occasion_id)
        found = with_kept_figures(Occasion.objects.filter(pk=occasion.pk)).values(*FIGURES)
        answer = {
            "id": occasion.pk,
            "date": occasion.date,
            "status": occasion.status,
            "license": {"id": occasion.license_id, "number": occasion.license.number},
            "opened_at": occasion.opened_at,
            "closed_at": occasion.closed_at,
            "not_played_reason": occasion.not_played_reason,
            **found.get(),  # the totals, as the lists show them
            "price_list": _price_list(organization, occasion),
            "games": _games(occasion),
            "door": _door(occasion),
            "figures": report_figures(occasion),
        }
        return Response(out.OccasionDetailSerializer(answer).data)


def _ball(call: Any) -> dict[str, Any]:
    return {
        "sequence": call.sequence,
        "number": call.number,
        "label": ball_label(call.number),
        "called_at": call.called_at,
    }


def _night(occasion: Occasion, organization: Organization) -> dict[str, Any]:
    """The night as the flashboard and the door screens read it: the current game
    (``draw_selectors.flash_state``, one query), its board as kept in the cache
    (``board_cache.kept_board``: no query while the board's number stands), its prizes (one
    query) and the door's counts (``occasion_door``: none while the door's number stands)."""
    game: Game | None = draw_selectors.flash_state(occasion.pk).game
    calls: list[Any] = []
    current = None
    if game is not None:
        board = board_cache.kept_board(organization.pk, occasion.pk, game.pk, known=game)
        calls = [c for c in board.calls if c.voided_at is None] if board is not None else []
        current = {
            "id": game.pk,
            "number": game.number,
            "kind": game.kind,
            "status": game.status,
            "started_at": game.started_at,
            "prizes": [prize_part(p) for p in draw_selectors.prize_parts(game)],
        }
    balls = [_ball(c) for c in calls]
    return {
        "occasion": {"id": occasion.pk, "date": occasion.date, "status": occasion.status},
        "door": _door(occasion),
        "game": current,
        "balls": balls,
        "last_ball": balls[-1] if balls else None,
    }


class Night(ApiView):
    read_scopes = access.ORG_READ

    @extend_schema(
        operation_id="api_night",
        parameters=[
            OpenApiParameter(
                "If-None-Match",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                description="The ETag of the last answer: 304 while nothing has changed.",
            )
        ],
        responses={
            200: out.NightSerializer,
            304: OpenApiResponse(description="Nothing has changed since the ETag sent."),
            **READ_PROBLEMS,
        },
    )
    def get(self, request: Request, org_id: int, occasion_id: int) -> Response:
        """The night's state for flashboards and points of sale: the door's counts, the game in
        play (or the last one played), its patterns and prizes, the balls called in order and
        the last one. Poll it with If-None-Match: while the board's and the door's numbers
        stand, the answer is 304 and nothing of the night is read."""
        organization = access.organization(request, org_id)
        occasion = _occasion(organization, occasion_id)
        # The numbers are read before the night, never after (``occasions.live``).
        board, door = live.version(occasion.pk), live.version(occasion.pk, live.DOOR)
        tag = None
        if board is not None and door is not None:
            tag = f"night-{occasion.pk}-{occasion.status}-{board}-{door}"
            unchanged = etagged(request, Response(), tag)
            if unchanged.status_code == 304:
                return unchanged
        answer = out.NightSerializer(_night(occasion, organization)).data
        if tag is None:  # the cache is down: the answer itself is the tag
            canonical = json.dumps(answer, sort_keys=True, default=str).encode()
            tag = f"night-{occasion.pk}-" + hashlib.sha256(canonical).hexdigest()[:32]
        return etagged(request, Response(answer), tag)
