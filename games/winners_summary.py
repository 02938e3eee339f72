"""The summary shown before the winners of a prize are recorded (``occasions.confirm``): who wins
what, the split to the dollar (961 CMR 3.04(6)(f)), what is paid now and what the payout will
ask (Form W-2G, Form 5754), the claims of the prize left out, and what can be put right after.
Nothing is judged or saved here: the rules judge the winners when the summary is confirmed."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from beano.rules.claims import needs_w2g
from beano.rules.money import usd
from games import claims_selectors as selectors
from games.models import Claim, Game, PrizePart
from games.winner_services import PlayerEntry, proposed_shares
from occasions.confirm import CONFIRMED, Confirmation

#: The POST fields the confirmed form must not carry again.
NOT_POSTED_AGAIN = frozenset({"csrfmiddlewaretoken", CONFIRMED})


def _claim_label(claim: Claim) -> str:
    when = date_format(timezone.localtime(claim.claimed_at), "g:i:s A")
    return f"the claim of {when}" + (f" at table {claim.table}" if claim.table else "")


def _join(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _split(part: PrizePart, players: Sequence[PlayerEntry], shares: Sequence[Decimal]) -> str:
    prize = f"{part.arrangement.name}, {usd(part.amount)}"
    if len(players) == 1:
        kind = "" if part.kind == PrizePart.Kind.CASH else " in merchandise"
        return f"{players[0].name} wins prize {part.order} ({prize}){kind}, all of it."
    each = _join([f"{p.name} {usd(s)}" for p, s in zip(players, shares, strict=True)])
    if part.kind == PrizePart.Kind.CASH:
        return (
            f"{len(players)} winners on the same call share prize {part.order} ({prize}), "
            f"divided to the dollar: {each}."
        )
    return (
        f"{len(players)} winners on the same call share prize {part.order} ({prize} in "
        f"merchandise): each gets a substitute prize, {each}."
    )


def _tax_forms(
    players: Sequence[PlayerEntry], shares: Sequence[Decimal], threshold: Decimal | None
) -> list[str]:
    if threshold is None:
        return []
    over = [(p, s) for p, s in zip(players, shares, strict=True) if needs_w2g(s, threshold)]
    if not over:
        return [f"No share reaches {usd(threshold)}: no Form W-2G and no Form 5754 is needed."]
    return [
        f"{p.name}'s {usd(s)} is {usd(threshold)} or more: at the payout, Form W-2G takes their "
        "legal name, address and TIN and two IDs seen; if they share the win with a group, "
        "Form 5754 lists each person's name, address, TIN and share."
        for p, s in over
    ]


def _left_out(game: Game, part: PrizePart, chosen: Sequence[Claim]) -> list[str]:
    """The prize's other claims: verified but not ticked, or not verified yet (none of them can
    share the prize once its winners are recorded)."""
    ticked = {c.pk for c in chosen}
    lines = []
    for row in selectors.game_claims(game):
        claim = row.claim
        if claim.part_id != part.pk or claim.pk in ticked or row.winner is not None:
            continue
        who = f" ({claim.player_name})" if claim.player_name else ""
        if row.verified:
            lines.append(
                f"{_claim_label(claim).capitalize()}{who} was verified but is not ticked: it "
                "gets nothing."
            )
        else:
            lines.append(
                f"{_claim_label(claim).capitalize()}{who} is not verified yet: once these "
                "winners are recorded it cannot share this prize."
            )
    return lines


def winners_summary(
    game: Game, part: PrizePart, values: dict[str, Any], posted: Any
) -> Confirmation:
    """Before recording the winners of ``part`` from the form's ``values`` (its
    ``service_values``); ``posted`` is the POST, sent again with the confirmation."""
    claims: list[Claim] = values["claims"]
    players: list[PlayerEntry] = values["players"]
    shares = proposed_shares(part, len(players), values.get("substitute_value"))
    occasion = game.occasion
    threshold = selectors.w2g_threshold(occasion)
    kwargs = {"org_id": occasion.organization_id, "pk": occasion.pk, "game_pk": game.pk}
    named = [
        f"{p.name} for {_claim_label(c)}"
        + (f" (on our lists as {p.person.legal_name})" if p.person else "")
        for c, p in zip(claims, players, strict=True)
    ]
    does = [
        f"Record {_join(named)} as the winner{'s' if len(named) > 1 else ''}.",
        _split(part, players, shares),
        "Nothing is paid yet: each winner is then paid on this page, the payout verified by a "
        "second person.",
        *_tax_forms(players, shares, threshold),
    ]
    return Confirmation(
        title=f"Record the winners of game {game.number}, prize {part.order}?",
        button="Yes, record the winners",
        action=reverse("winners_record", kwargs=kwargs | {"part_pk": part.pk}),
        back=reverse("game_claims", kwargs=kwargs) + f"#winners_{part.pk}",
        does=tuple(does),
        unfinished=tuple(_left_out(game, part, claims)),
        corrections=(
            "Recorded winners and their shares cannot be changed or taken back on this page, and "
            "no other claim can share the prize afterwards: check each name and tick now.",
            "If a winner is recorded by mistake, do not pay that share: tell the bookkeeper, who "
            "writes what happened in the close-out's explanation (once the report is filed, in "
            "an amendment).",
        ),
        fields=tuple(
            (name, value)
            for name in posted
            if name not in NOT_POSTED_AGAIN
            for value in posted.getlist(name)
        ),
    )
