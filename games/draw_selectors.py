"""Reads of the draw: the calls that count, the 75-ball board, the game in play and the public
flashboard's state. Each read runs a fixed number of queries, however many balls are called."""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import re
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db.models import Case, Count, IntegerField, Max, Q, QuerySet, Value, When
from django.utils import timezone

from beano.prepared import Prepared
from beano.rules.cards import COLUMNS, ROWS, ball_label, column_range
from games.models import BallCall, Flashboard, Game, PrizePart
from occasions import live
from occasions.models import Occasion

log = logging.getLogger(__name__)

PLAYED = (Game.Status.IN_PLAY, Game.Status.FINISHED)


@dataclass(frozen=True)
class Ball:
    number: int
    called: bool

    @property
    def label(self) -> str:
        return ball_label(self.number)


@dataclass(frozen=True)
class BoardState:
    """The 75 balls of one game: which are called (voided entries left out), in what order, and
    the last one."""

    calls: tuple[BallCall, ...] = ()
    called: frozenset[int] = field(default_factory=frozenset)

    @classmethod
    def of(cls, calls: list[BallCall]) -> BoardState:
        live = tuple(c for c in calls if c.voided_at is None)
        return cls(calls=live, called=frozenset(c.number for c in live))

    @property
    def count(self) -> int:
        return len(self.calls)

    @property
    def last(self) -> BallCall | None:
        return self.calls[-1] if self.calls else None

    @property
    def rows(self) -> list[tuple[str, list[Ball]]]:
        """B, I, N, G, O, each with its 15 balls, lit when called."""
        return [(c, [Ball(n, n in self.called) for n in column_range(c)]) for c in COLUMNS]


def calls_that_count(game: Game) -> QuerySet[BallCall]:
    """The game's calls that count, in the order called: a voided (mis-keyed) entry never does."""
    return BallCall.objects.filter(game=game, voided_at__isnull=True).order_by("sequence")


def board_state(game: Game) -> BoardState:
    """One query."""
    return BoardState.of(list(calls_that_count(game)))


def prize_parts(game: Game) -> list[PrizePart]:
    """The game's prizes with their arrangements, in order (one query)."""
    return _PRIZE_PARTS.all(game.pk)


#: Compiled once per process: the flashboard reads it after every ball.
_PRIZE_PARTS = Prepared(
    lambda game_id: (
        PrizePart.objects.filter(game_id=game_id).select_related("arrangement").order_by("order")
    )
)


def occasion_games(occasion: Occasion) -> list[Game]:
    """The occasion's program for the game picker, each with its count of balls (one query)."""
    return list(
        Game.objects.filter(occasion=occasion)
        .annotate(balls=Count("calls", filter=Q(calls__voided_at__isnull=True)))
        .order_by("number")
    )


def current_first(queryset: QuerySet[Game]) -> QuerySet[Game]:
    """The game in play first, else the one that started last."""
    return queryset.filter(status__in=PLAYED).order_by(
        Case(
            When(status=Game.Status.IN_PLAY, then=Value(0)),
            default=Value(1),
            output_field=IntegerField(),
        ),
        "-started_at",
        "-number",
    )


def current_game(occasion: Occasion) -> Game | None:
    """The game the hall is playing: the one in play, or the last one played (one query)."""
    return current_first(Game.objects.filter(occasion=occasion)).first()


def picture(variants: list[list[str]]) -> list[list[str]]:
    """A 5×5 picture of an arrangement's first variant, row by row: "on", "free" or "off"."""
    squares = set(variants[0]) if variants else set()
    return [
        [
            "free" if f"{c}{r}" == "N3" else ("on" if f"{c}{r}" in squares else "off")
            for c in COLUMNS
        ]
        for r in ROWS
    ]


#: How long after its close a night's link still shows its final board, "This night is over":
#: the hall's screen is not left on an error while the hall packs up; then the link answers
#: nothing, as a link turned off does (SECURITY.md, the public flashboard).
SHOWN_AFTER_CLOSE = dt.timedelta(hours=2)


def shown_until(occasion: Occasion) -> dt.datetime | None:
    """Until when a closed night's board is shown (None: an open night, shown while open)."""
    if occasion.status != Occasion.Status.CLOSED or occasion.closed_at is None:
        return None
    return occasion.closed_at + SHOWN_AFTER_CLOSE


def active_flashboard(token: str) -> Flashboard | None:
    """The flashboard this token opens, if its link is current and its occasion open, or closed
    less than ``SHOWN_AFTER_CLOSE`` ago (its final board): an anonymous link to a night long
    over opens nothing (one query)."""
    if not token or len(token) > 64:
        return None
    found = _ACTIVE_FLASHBOARD.all(token)
    board = found[0] if found else None
    if board is None:
        return None
    until = shown_until(board.occasion)
    if board.occasion.status == Occasion.Status.CLOSED and (
        until is None or timezone.now() >= until
    ):
        return None
    return board


#: The flashboards are polled every second: their reads are compiled once per process.
_ACTIVE_FLASHBOARD = Prepared(
    lambda token: (
        Flashboard.objects.select_related("occasion__organization")
        .filter(token=token, revoked_at__isnull=True, occasion__status__in=("open", "closed"))
        .order_by("pk")[:1]
    )
)


@dataclass(frozen=True)
class FlashState:
    """What the flashboard shows, reduced to a fingerprint: the current game and its status, the
    last call entered, how many are voided, and its prize parts as announced."""

    game: Game | None
    etag: str


def flash_state(occasion_id: int, *, over: bool = False) -> FlashState:
    """The current game with its fingerprint, in one query (the 304 answer needs no more);
    ``over``: the night is closed, its final board shown."""
    found = _CURRENT_GAME_STATE.all(occasion_id)
    game = found[0] if found else None
    ended = ":over" if over else ""
    if game is None:
        key = f"{occasion_id}:none{ended}"
    else:
        key = ended + ":".join(
            str(v)
            for v in (
                occasion_id,
                game.pk,
                game.status,
                game.last_call,
                game.voided,
                game.part_count,
                game.last_part,
                game.announced,
            )
        )
    # The occasion's id leads the tag, so that the poll that sends it back can read the kept
    # answer and the occasion's version at once (``flash_answer``); the rest is the fingerprint.
    digest = hashlib.sha256(key.encode()).hexdigest()[:32]
    return FlashState(game=game, etag=f'"{occasion_id}-{digest}"')


_CURRENT_GAME_STATE = Prepared(
    lambda occasion_id: current_first(Game.objects.filter(occasion_id=occasion_id)).annotate(
        last_call=Max("calls__pk"),
        voided=Count("calls", filter=Q(calls__voided_at__isnull=False), distinct=True),
        part_count=Count("parts", distinct=True),
        last_part=Max("parts__pk"),
        announced=Max("parts__announced_at"),
    )[:1]
)


#: How long a flashboard's answer is kept in the cache at most (a change ends it sooner).
ANSWER_TTL = 10 * 60


@dataclass(frozen=True)
class FlashAnswer:
    """What a poll of the flashboard needs first: the board's ETag. When it was read from the
    database this time, the board and its state come with it, ready to render."""

    etag: str
    board: Flashboard | None = None
    state: FlashState | None = None


def _answer_key(token: str) -> str:
    return f"flashboard:{token}"


#: The occasion an ETag of ``flash_state`` names (it leads the tag).
_TAGGED_OCCASION = re.compile(r'\s*(?:W/)?"(\d{1,18})-[0-9a-f]{32}"')


def _kept_answer(key: str, seen: str) -> tuple[Any, int | None]:
    """The answer kept under ``key`` and, when ``seen`` (the ETag the poll sent back) names an
    occasion, that occasion's live version, read with it in one round trip to the cache."""
    tagged = _TAGGED_OCCASION.match(seen)
    named = int(tagged[1]) if tagged else None
    try:
        if named is None:
            return cache.get(key), None
        version_key = live.version_key(named)
        found = cache.get_many([key, version_key])
    except Exception:
        log.warning("flashboard: the cache could not be read")
        return None, None
    kept = found.get(key)
    # The tag is the client's word: its version counts only for the occasion the kept answer
    # (the server's own, under the token) is of.
    return kept, found.get(version_key) if kept is not None and kept[0] == named else None


def _still_shown(kept: Any) -> bool:
    """A kept answer of a closed night stands until its final board stops being shown (kept
    with it, as a timestamp); an open night's (None) while its version stands."""
    until = kept[3] if len(kept) > 3 else None
    return until is None or timezone.now().timestamp() < until


def unchanged_etag(token: str, seen: str) -> str | None:
    """The board's ETag when ``seen`` (a poll's If-None-Match) is exactly it and the cache
    proves it current (the answer kept under the token, of the occasion the tag names, at that
    occasion's live version, and a closed night's final board still shown), in one round trip
    to the cache and no query; None whenever that is not proved, for the whole answer
    (``flash_answer``) to decide."""
    if not token or len(token) > 64 or not seen:
        return None
    kept, current = _kept_answer(_answer_key(token), seen)
    proved = kept is not None and current is not None and kept[1] == current
    proved = proved and _still_shown(kept)
    return kept[2] if proved and kept[2] and kept[2] == seen.strip() else None


def flash_answer(token: str, *, fresh: bool = False, seen: str = "") -> FlashAnswer | None:
    """The ETag of the board this token opens, or None when it opens none (a wrong, replaced or
    turned-off link, or its occasion not open). Kept in the cache with the occasion's live
    version (``occasions.live``): while the version stands, the answer costs no query and one
    round trip to the cache when the poll sends back a tag of this board (``seen``, its
    If-None-Match: the tag names the occasion, so both are read at once), two otherwise; after
    a change, or once a closed night's final board is no longer shown, the board is read again.
    ``fresh`` reads the board from the database whatever the cache holds, for a poll that must
    show it (two queries)."""
    if not token or len(token) > 64:
        return None
    if fresh:
        board = active_flashboard(token)
        state = state_of(board)
        return FlashAnswer(state.etag, board, state) if board is not None and state else None
    key = _answer_key(token)
    kept, current = _kept_answer(key, seen)
    occasion_id = kept[0] if kept else None
    if occasion_id is None:  # the token's occasion never changes; its board's state does
        occasion_id = (
            Flashboard.objects.filter(token=token).values_list("occasion_id", flat=True).first()
        )
        if occasion_id is None:
            return None
    if current is None:
        current = live.version(occasion_id)  # read before the database, never after
    if kept is not None and current is not None and kept[1] == current and _still_shown(kept):
        return FlashAnswer(kept[2]) if kept[2] else None
    board = active_flashboard(token)
    state = state_of(board)
    if current is not None:
        _keep(key, occasion_id, current, state, board)
    return FlashAnswer(state.etag, board, state) if board is not None and state else None


def state_of(board: Flashboard | None) -> FlashState | None:
    """What the board this link opens shows (one query), the night over once it is closed."""
    if board is None:
        return None
    return flash_state(board.occasion_id, over=board.occasion.status == Occasion.Status.CLOSED)


def _keep(
    key: str, occasion_id: int, version: int, state: FlashState | None, board: Flashboard | None
) -> None:
    """The answer kept for the polls that follow: a closed night's with the moment its final
    board stops being shown, and no longer than that."""
    until = shown_until(board.occasion) if board is not None else None
    ttl = ANSWER_TTL
    if until is not None:
        ttl = max(1, min(ttl, int((until - timezone.now()).total_seconds()) + 1))
    etag = state.etag if state else ""
    answer = (occasion_id, version, etag, until.timestamp() if until is not None else None)
    try:
        cache.set(key, answer, ttl)
    except Exception:
        log.warning("flashboard: the cache could not be written")
