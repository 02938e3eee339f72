"""The forms of the program and of each game's sheet: games and prizes, the times of the game,
the balls called, the claims with their winners and payouts, a jackpot's outcome."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import Any

from django import forms

from beano.rules.money import PRIZE, QuantityField, usd
from games.models import Arrangement, Game, PrizePart
from nightfile import format as fmt

#: A time before this is the morning after the night (a night that runs past midnight).
from nightfile.forms import NightTimeField, RowForm, moment, money_field, style
from nightfile.reader import read_ball
from occasions.models import Occasion, WorkerPresence


class ProgramRowForm(RowForm):
    """One prize of one game, as the game sheet's heading gives it; a game of several prizes
    takes one row for each, in order."""

    key = "number"
    needs = ("half", "kind", "arrangement", "amount")

    number = QuantityField(label="Game", min_value=1, max_value=99, required=False)
    half = forms.TypedChoiceField(
        label="Half", choices=[("", "—"), (1, "1"), (2, "2")], coerce=int, required=False
    )
    kind = forms.ChoiceField(label="Kind", choices=[("", "—"), *Game.Kind.choices], required=False)
    arrangement = forms.ModelChoiceField(
        label="Arrangement", queryset=Arrangement.objects.all(), required=False
    )
    prize_kind = forms.ChoiceField(
        label="Prize", choices=PrizePart.Kind.choices, initial="cash", required=False
    )
    amount = money_field("Amount or value ($)", PRIZE)
    description = forms.CharField(label="Merchandise", max_length=200, required=False)
    donated = forms.BooleanField(label="Donated", required=False)
    bonus = forms.BooleanField(label="Bonus prize", required=False)

    def clean(self) -> dict[str, Any]:
        # A winner-take-all prize is its cards' receipts less 10 % (3.04(8)(a)3), known once
        # they are sold: the program may leave it blank, and its game sheet gives it.
        winner_take_all = self.data.get(self.add_prefix("kind")) == Game.Kind.WINNER_TAKE_ALL
        self.needs = tuple(n for n in type(self).needs if not (winner_take_all and n == "amount"))
        return super().clean()


def program_sheets(rows: list[dict[str, Any]]) -> list[fmt.GameSheet]:
    """The program rows grouped into games, prizes in the order typed."""
    games: dict[int, list[dict[str, Any]]] = {}
    for d in rows:
        games.setdefault(d["number"], []).append(d)
    sheets = []
    for number, parts in games.items():
        first = parts[0]
        sheets.append(
            fmt.GameSheet(
                number=number,
                half=first["half"],
                kind=first["kind"],
                parts=tuple(
                    fmt.Part(
                        arrangement=d["arrangement"].code,
                        kind=d.get("prize_kind") or "cash",
                        # As typed, judged as typed (a winner-take-all prize left blank is
                        # its receipts' share of the moment, given on its game sheet).
                        amount=d["amount"] if d.get("amount") is not None else Decimal(0),
                        written=d.get("amount") is not None,
                        description=d.get("description", ""),
                        donated=bool(d.get("donated")),
                        bonus=bool(d.get("bonus")),
                    )
                    for d in parts
                ),
            )
        )
    return sheets


# A game sheet ---------------------------------------------------------------------------------


class GameSheetForm(forms.Form):
    """A game's sheet: its times, the balls called and, for a winner-take-all game, the prize
    the sheet says was announced (its receipts less 10 % then, 3.04(8)(a)3): recorded as
    written, or refused."""

    announced_at = NightTimeField(label="Prize and pattern announced at", required=False)
    prize = money_field("Prize announced ($)", PRIZE)
    balls_checked_at = NightTimeField(label="75 balls checked at", required=False)
    started_at = NightTimeField(label="Game started at", required=False)
    balls = forms.CharField(
        label="Balls called, in order (optional)",
        required=False,
        max_length=600,
        help_text="E.g. B5 I20 N35 … — with them, the winning card's numbers are checked.",
    )
    winners_at = NightTimeField(label="Winners recorded at", required=False)
    finished_at = NightTimeField(label="Game finished at", required=False)

    def __init__(self, *args: Any, winner_take_all: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if winner_take_all:
            self.fields["prize"].help_text = (
                "As written on the sheet: its cards' receipts then, less 10 % "
                "(961 CMR 3.04(8)(a)3)."
            )
        else:
            del self.fields["prize"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if "prize" in self.fields and data.get("announced_at") and data.get("prize") is None:
            self.add_error("prize", "Give the prize announced, as the sheet writes it.")
        if data.get("prize") is not None and not data.get("announced_at"):
            self.add_error("announced_at", "Give the time the prize was announced.")
        return data

    def clean_balls(self) -> tuple[fmt.Ball, ...]:

        text = self.cleaned_data.get("balls", "")
        balls = []
        for i, token in enumerate(re.split(r"[,\s]+", text.strip())):
            if not token:
                continue
            try:
                balls.append(read_ball(token, f"ball {i + 1}", dt.date.today()))
            except fmt.NightFormatError:
                raise forms.ValidationError(f"{token!r} is not a ball: write B5 or 42.") from None
        return tuple(balls)


class PaymentForm(forms.Form):
    """A payout as the sheet is signed: the worker who paid, the one who verified, the time, and
    for a win at or above the W-2G threshold the winner's details. Blank: no payout."""

    paid_by = forms.ModelChoiceField(
        label="Paid by (signed)", queryset=WorkerPresence.objects.none(), required=False
    )
    verified_by = forms.ModelChoiceField(
        label="Verified by (signed)", queryset=WorkerPresence.objects.none(), required=False
    )
    paid_at = NightTimeField(label="Paid at", required=False)
    w2g_legal_name = forms.CharField(label="W-2G: legal name", max_length=200, required=False)
    w2g_address = forms.CharField(label="W-2G: address", max_length=300, required=False)
    w2g_tin = forms.CharField(label="W-2G: TIN", max_length=20, required=False)
    w2g_backup = forms.BooleanField(label="W-2G: no TIN, backup withholding", required=False)
    w2g_id1 = forms.CharField(
        label="W-2G: first ID (kind and number)", max_length=120, required=False
    )
    w2g_id2 = forms.CharField(
        label="W-2G: second ID (kind and number)", max_length=120, required=False
    )

    W2G_FIELDS = ("w2g_legal_name", "w2g_address", "w2g_tin", "w2g_backup", "w2g_id1", "w2g_id2")

    def __init__(self, *args: Any, presences: Any = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        for name in ("paid_by", "verified_by"):
            if presences is not None:
                self.fields[name].queryset = presences
            self.fields[name].label_from_instance = lambda p: p.entry.person.legal_name

    def w2g_fields(self) -> list[Any]:
        return [self[name] for name in self.W2G_FIELDS]

    def check_payment(self, data: dict[str, Any]) -> None:
        paying = data.get("paid_by") or data.get("verified_by") or data.get("paid_at")
        if paying and not (data.get("paid_by") and data.get("verified_by") and data.get("paid_at")):
            raise forms.ValidationError(
                "A payout needs who paid, who verified (as signed) and the time."
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        self.check_payment(data)
        return data

    def payment(self, occasion: Occasion) -> fmt.Payment | None:
        """The payout the sheet records, or None where none is written."""
        data = self.cleaned_data
        if not data.get("paid_by"):
            return None
        w2g = None
        if data.get("w2g_legal_name") or data.get("w2g_tin") or data.get("w2g_backup"):
            id1 = (data.get("w2g_id1") or "").partition(" ")
            id2 = (data.get("w2g_id2") or "").partition(" ")
            w2g = {
                "legal_name": data.get("w2g_legal_name", ""),
                "address": data.get("w2g_address", ""),
                "tin": data.get("w2g_tin", ""),
                "backup_withholding": bool(data.get("w2g_backup")),
                "id1_kind": id1[0],
                "id1_number": id1[2],
                "id2_kind": id2[0],
                "id2_number": id2[2],
            }
        return fmt.Payment(
            at=moment(occasion, data["paid_at"]),
            paid_by=data["paid_by"].entry.person.legal_name,
            verified_by=data["verified_by"].entry.person.legal_name,
            w2g=w2g,
        )


class OwedPayoutForm(PaymentForm):
    """The payout of a winner recorded on the night and not paid then, as its sheet is signed:
    a night closed after the fact is closed only once every winner is paid (3.04(6)(f))."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        style(self)

    def main_fields(self) -> list[Any]:
        return [self["paid_by"], self["verified_by"], self["paid_at"]]


class ClaimRowForm(PaymentForm):
    part = forms.TypedChoiceField(label="Prize", coerce=int, required=False)
    claimed_at = NightTimeField(label="Claimed at", required=False)
    player = forms.CharField(label="Player", max_length=200, required=False)
    table = forms.CharField(label="Table", max_length=40, required=False)
    ball_in_hand = QuantityField(
        label="Ball in the caller's hand", min_value=1, max_value=75, required=False
    )
    calling_begun = forms.BooleanField(label="Its calling had begun", required=False)
    witness = forms.CharField(label="Witness at another table", max_length=200, required=False)
    witness_table = forms.CharField(label="Their table", max_length=40, required=False)
    card = forms.CharField(
        label="Card numbers read (when the balls are entered)",
        required=False,
        max_length=400,
        help_text="By square, e.g. B1=5 I1=20 N1=35 G1=50 O1=65.",
    )
    won = forms.BooleanField(label="Winner", required=False, initial=True)

    field_order = [
        "part",
        "claimed_at",
        "player",
        "table",
        "ball_in_hand",
        "calling_begun",
        "witness",
        "witness_table",
        "card",
        "won",
        "paid_by",
        "verified_by",
        "paid_at",
    ]

    def __init__(self, *args: Any, parts: Any = (), presences: Any = None, **kwargs: Any):
        super().__init__(*args, presences=presences, **kwargs)
        self.fields["part"].choices = [("", "—")] + [
            (p.order, f"{p.order}: {p.arrangement.name}, {usd(p.amount)}") for p in parts
        ]
        style(self)

    def main_fields(self) -> list[Any]:
        return [f for f in self if f.name not in self.W2G_FIELDS]

    def clean_card(self) -> dict[str, int] | None:
        text = self.cleaned_data.get("card", "").strip()
        if not text:
            return None
        card = {}
        for token in re.split(r"[,\s]+", text):
            match = re.match(r"^([BINGObingo][1-5])=([0-9]{1,2})$", token)
            if match is None:
                raise forms.ValidationError(f"{token!r}: write each square as B1=5.")
            card[match[1].upper()] = int(match[2])
        return card

    def clean(self) -> dict[str, Any]:
        data = forms.Form.clean(self)
        started = data.get("player") or data.get("claimed_at") or data.get("part")
        if started and not (data.get("part") and data.get("claimed_at")):
            raise forms.ValidationError("A claim needs its prize and the time it was made.")
        self.check_payment(data)
        return data

    def claim(self, occasion: Occasion) -> fmt.ClaimRow | None:
        data = self.cleaned_data
        if not data.get("part"):
            return None
        witness = data.get("witness", "").strip()
        return fmt.ClaimRow(
            part=data["part"],
            at=moment(occasion, data["claimed_at"]),
            player=data.get("player", ""),
            table=data.get("table", ""),
            ball_in_hand=data.get("ball_in_hand"),
            calling_begun=bool(data.get("calling_begun")),
            won=bool(data.get("won")),
            card=data.get("card"),
            witnesses=((witness, data.get("witness_table", "")),) if witness else (),
            payout=self.payment(occasion),
        )


class JackpotForm(forms.Form):
    """A progressive game's outcome as its sheet records it (3.04(8)(a)2)."""

    won_within_calls = forms.BooleanField(label="Jackpot won within its calls", required=False)
    consolation_paid = forms.BooleanField(label="Consolation prize paid", required=False)
