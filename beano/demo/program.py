"""The demo's program: fourteen games, every prize within the figures in
force, added through the services so that the rules judge each one. The common arrangements are
named in the organization's existing authorizations of permissible winning arrangements
(961 CMR 3.04(6)(c)). Idempotent: a game already in the program is left as it is."""

from __future__ import annotations

from decimal import Decimal

from beano.rules import AuthorizationKind
from beano.rules.cards import COMMON_ARRANGEMENTS
from games import program_services as services
from games.models import Arrangement, ArrangementAuthorization, Game
from games.program_selectors import winner_take_all_prize
from occasions.models import Occasion
from organizations.models import DirectorAuthorization

Kind = Game.Kind
#: The progressive game's second prize, announced with the series' rules (``beano.demo.jackpot``).
CONSOLATION = "Consolation: the first coverall after the 52 numbers of the jackpot"
#: A game of a program: (number, half, kind, [(arrangement, amount, is_bonus)]); an amount of
#: None is the winner-take-all share.
ProgramGame = tuple[int, int, str, list[tuple[str, Decimal | None, bool]]]
PROGRAM: tuple[ProgramGame, ...] = (
    (1, 1, Kind.REGULAR, [("single_line", Decimal("50"), False)]),
    (2, 1, Kind.REGULAR, [("four_corners", Decimal("50"), False)]),
    (3, 1, Kind.REGULAR, [("two_lines", Decimal("75"), False)]),
    (
        4,
        1,
        Kind.REGULAR_BONUS,
        [("letter_x", Decimal("75"), False), ("letter_x", Decimal("75"), True)],
    ),
    (5, 1, Kind.REGULAR, [("postage_stamp", Decimal("50"), False)]),
    (6, 1, Kind.SPECIAL, [("picture_frame", Decimal("100"), False)]),
    (7, 1, Kind.WINNER_TAKE_ALL, [("single_line", None, False)]),
    (8, 1, Kind.REGULAR, [("letter_t", Decimal("75"), False)]),
    (9, 2, Kind.REGULAR, [("six_pack", Decimal("75"), False)]),
    (
        10,
        2,
        Kind.REGULAR_BONUS,
        [("small_diamond", Decimal("100"), False), ("small_diamond", Decimal("100"), True)],
    ),
    (
        11,
        2,
        Kind.SPECIAL,
        [("letter_h", Decimal("75"), False), ("coverall", Decimal("125"), False)],
    ),
    (12, 2, Kind.REGULAR, [("inner_square", Decimal("75"), False)]),
    # The progressive jackpot: $1,500 now (its series sets the amount when it carries it in),
    # and the $100 consolation to the first coverall after the limit.
    (
        13,
        2,
        Kind.PROGRESSIVE,
        [("coverall", Decimal("1500"), False), ("coverall", Decimal("100"), False)],
    ),
    (14, 2, Kind.REGULAR, [("coverall", Decimal("200"), False)]),
)


def authorize_common_arrangements(occasion: Occasion) -> None:
    """Name every common arrangement in each of the organization's authorizations of
    permissible winning arrangements (the demo's letters list them all in their subject)."""
    arrangements = list(Arrangement.objects.filter(code__in=COMMON_ARRANGEMENTS))
    for authorization in DirectorAuthorization.objects.filter(
        organization=occasion.organization, kind=AuthorizationKind.WINNING_ARRANGEMENT
    ):
        for arrangement in arrangements:
            ArrangementAuthorization.objects.get_or_create(
                authorization=authorization, arrangement=arrangement
            )


def seed_program(occasion: Occasion, program: tuple[ProgramGame, ...] = PROGRAM) -> None:
    """Plan ``program`` (the sample night's by default) at ``occasion``, scheduled or open."""
    existing = set(Game.objects.filter(occasion=occasion).values_list("number", flat=True))
    if existing >= {number for number, *_ in program}:
        return
    if occasion.status not in (Occasion.Status.SCHEDULED, Occasion.Status.OPEN):
        raise ValueError("The program is planned while the occasion is scheduled or open.")
    authorize_common_arrangements(occasion)
    arrangements = {a.code: a for a in Arrangement.objects.all()}
    for number, half, kind, parts in program:
        if number in existing:
            continue
        game = services.add_game(occasion=occasion, number=number, half=half, kind=kind, by=None)
        for order, (code, amount, is_bonus) in enumerate(parts, start=1):
            services.add_prize_part(
                game=game,
                arrangement=arrangements[code],
                kind="cash",
                amount=amount if amount is not None else winner_take_all_prize(occasion),
                description=CONSOLATION if kind == Kind.PROGRESSIVE and order > 1 else "",
                donated=False,
                is_bonus=is_bonus,
                by=None,
            )
