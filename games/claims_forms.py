"""Forms of the claims page: they only shape input (a ball, names, a card's numbers, money);
the services and the rules of 961 CMR 3.04(6) decide."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.db.models import QuerySet

from beano.rules.cards import ALL_SQUARES, FREE
from beano.rules.claims import Witness
from beano.rules.money import PRIZE, MoneyField, QuantityField, usd
from games.form5754 import GroupMember, parse_lines
from games.models import Claim, Game, PrizePart, Winner
from games.payout_services import W2GDetails
from games.winner_services import PlayerEntry
from occasions.floor_forms import request_key_field
from occasions.second_person import offer
from organizations.models import Person

YES_NO = [("yes", "Yes — calling had begun"), ("no", "No — not yet begun")]
WITNESS_ROWS = 3


def _name(label: str, **kwargs: Any) -> forms.CharField:
    kwargs.setdefault("required", False)
    return forms.CharField(label=label, max_length=200, **kwargs)


class ClaimForm(forms.Form):
    part = forms.ModelChoiceField(queryset=PrizePart.objects.none(), label="Prize claimed")
    ball_in_hand = QuantityField(
        label="Ball the caller had drawn",
        required=False,
        min_value=1,
        max_value=75,
        help_text="The ball out of the machine when BINGO was called. Blank if none was.",
        # A text box: a number box would send a typo ("e5") empty, a claim with no ball in
        # hand; typed as it is, it is refused in place.
        widget=forms.TextInput(
            attrs={"inputmode": "numeric", "autocomplete": "off", "autofocus": True}
        ),
    )
    # No answer is chosen for the worker: the one the console's record gives is taken when none
    # is (games.claims_services.record_claim), never one the rules would refuse.
    calling_begun = forms.ChoiceField(
        choices=YES_NO,
        required=False,
        widget=forms.RadioSelect,
        label="Had the caller started to call it out?",
        help_text="Yes: that ball counts for the claim. No: it does not (961 CMR 3.04(6)(a)).",
    )
    player_name = _name("Player")
    table = forms.CharField(label="Table", max_length=40, required=False)
    request_key = request_key_field()

    def __init__(self, *args: Any, game: Game, autofocus: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not autofocus:  # the page was re-shown for another form: its refusal has the focus
            self.fields["ball_in_hand"].widget.attrs.pop("autofocus", None)
        parts = game.parts.filter(announced_at__isnull=False).select_related("arrangement")
        self.fields["part"].queryset = parts
        self.fields["part"].label_from_instance = lambda p: (
            f"Prize {p.order}: {p.arrangement} — {usd(p.amount)}"
        )
        if len(parts) == 1:
            self.fields["part"].initial = parts[0].pk

    def service_values(self) -> dict[str, Any]:
        d = self.cleaned_data
        return {
            "part": d["part"],
            "ball_in_hand": d["ball_in_hand"],
            "calling_begun": {"yes": True, "no": False}.get(d["calling_begun"]),
            "player_name": d["player_name"],
            "table": d["table"],
            "request_key": d["request_key"],
        }


class DrawVerificationForm(forms.Form):
    requested_by = _name("Requested by (player)")
    member_in_charge = _name("Member in charge present", required=True)
    witnesses = forms.CharField(
        label="Players present, other than the winner",
        max_length=1000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="One name a line.",
    )

    def service_values(self) -> dict[str, Any]:
        d = self.cleaned_data
        return {
            "requested_by": d["requested_by"],
            "member_in_charge": d["member_in_charge"],
            "witnesses": [line for line in d["witnesses"].splitlines() if line.strip()],
        }


def square_field(square: str) -> str:
    return f"sq_{square}"


class CardForm(forms.Form):
    """A 5×5 grid: the numbers of the arrangement's squares, or of the whole card (all 24: what
    is typed decides which, beano.rules.cards.is_whole_card); N3 is free."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for square in ALL_SQUARES:
            if square == FREE:
                continue
            self.fields[square_field(square)] = QuantityField(
                label=square,
                required=False,
                min_value=1,
                max_value=75,
                widget=forms.TextInput(attrs={"inputmode": "numeric", "class": "card-cell"}),
            )
        for i in range(1, WITNESS_ROWS + 1):
            self.fields[f"witness{i}_name"] = _name(f"Witness {i}")
            self.fields[f"witness{i}_table"] = forms.CharField(
                label="at table", max_length=40, required=False
            )

    def grid(self) -> list[list[Any]]:
        """The bound fields row by row, None for the free centre."""
        rows = []
        for r in range(1, 6):
            row = []
            for c in "BINGO":
                square = f"{c}{r}"
                row.append(None if square == FREE else self[square_field(square)])
            rows.append(row)
        return rows

    def witness_rows(self) -> list[tuple[Any, Any]]:
        return [
            (self[f"witness{i}_name"], self[f"witness{i}_table"])
            for i in range(1, WITNESS_ROWS + 1)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not any(
            data.get(square_field(s)) is not None for s in ALL_SQUARES if s != FREE
        ) and not any(self.errors.get(square_field(s)) for s in ALL_SQUARES if s != FREE):
            raise forms.ValidationError(
                "Type the numbers of the arrangement's squares, or all 24 of the card."
            )
        return data

    def service_values(self) -> dict[str, Any]:
        d = self.cleaned_data
        numbers = {
            s: d[square_field(s)]
            for s in ALL_SQUARES
            if s != FREE and d.get(square_field(s)) is not None
        }
        witnesses = [
            Witness(d[f"witness{i}_name"], d[f"witness{i}_table"])
            for i in range(1, WITNESS_ROWS + 1)
        ]
        return {"numbers": numbers, "witnesses": witnesses}


class WinnersForm(forms.Form):
    """The verified claims of one prize: tick those who won on the same call, name each (a known
    person where there is one); merchandise among several gets substitute prizes."""

    substitute_value = MoneyField(
        kind=PRIZE,
        label="Value of each substitute prize",
        required=False,
        help_text="Blank: the equal share, to the cent.",
    )

    def __init__(
        self, *args: Any, claims: list[Claim], people: QuerySet[Person], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.claims = claims
        for claim in claims:
            self.fields[f"won_{claim.pk}"] = forms.BooleanField(required=False, label="Won")
            self.fields[f"name_{claim.pk}"] = _name("Player", initial=claim.player_name)
            self.fields[f"person_{claim.pk}"] = forms.ModelChoiceField(
                queryset=people,
                required=False,
                label="The winner on the organization's lists",
                empty_label="— not on our lists —",
                # Its column heading is not its label: the select names itself (axe select-name).
                widget=forms.Select(
                    attrs={
                        "class": "form-select",
                        "aria-label": f"{claim.player_name or 'This claim'}: on our lists?",
                    }
                ),
            )
            self.fields[f"substitute_{claim.pk}"] = _name("Substitute prize")
            self.fields[f"other_{claim.pk}"] = _name("Not the worker of a similar name: who, why")

    def rows(self) -> list[dict[str, Any]]:
        return [
            {
                "claim": c,
                "won": self[f"won_{c.pk}"],
                "name": self[f"name_{c.pk}"],
                "person": self[f"person_{c.pk}"],
                "substitute": self[f"substitute_{c.pk}"],
                "other": self[f"other_{c.pk}"],
            }
            for c in self.claims
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not any(data.get(f"won_{c.pk}") for c in self.claims):
            raise forms.ValidationError("Tick the winning claims.")
        return data

    def service_values(self) -> dict[str, Any]:
        d = self.cleaned_data
        chosen = [c for c in self.claims if d.get(f"won_{c.pk}")]
        return {
            "claims": chosen,
            "players": [
                PlayerEntry(
                    name=d.get(f"name_{c.pk}") or "",
                    person=d.get(f"person_{c.pk}"),
                    substitute=d.get(f"substitute_{c.pk}") or "",
                    other_person_reason=d.get(f"other_{c.pk}") or "",
                )
                for c in chosen
            ],
            "substitute_value": d.get("substitute_value"),
        }


def _person_label(user: Any) -> str:
    full = user.get_full_name()
    return f"{full} ({user.get_username()})" if full else user.get_username()


class PayoutForm(forms.Form):
    verified_by = forms.ModelChoiceField(queryset=None, label="Verified by")  # type: ignore[arg-type]
    verifier_secret = forms.CharField(
        label="The verifier types their own password or PIN",
        max_length=128,
        required=False,
        strip=False,
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "off"}),
    )
    amount = MoneyField(kind=PRIZE, label="Amount paid")
    w2g_legal_name = _name("Winner's legal name")
    w2g_address = forms.CharField(label="Address", max_length=300, required=False)
    tin = forms.CharField(
        label="TIN (SSN or ITIN)",
        max_length=11,
        required=False,
        # Never written back into the page (a shared hall laptop): retyped after a refusal.
        widget=forms.PasswordInput(
            render_value=False, attrs={"autocomplete": "off", "inputmode": "numeric"}
        ),
    )
    backup_withholding = forms.BooleanField(
        required=False, label="No TIN furnished: backup withholding"
    )
    id1_kind = forms.CharField(label="ID 1 kind", max_length=60, required=False)
    id1_number = forms.CharField(
        label="ID 1 number",
        max_length=60,
        required=False,
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "off"}),
    )
    id2_kind = forms.CharField(label="ID 2 kind", max_length=60, required=False)
    id2_number = forms.CharField(
        label="ID 2 number",
        max_length=60,
        required=False,
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "off"}),
    )

    group = forms.CharField(
        label="Shared by a group (Form 5754): one person a line",
        required=False,
        max_length=5000,
        widget=forms.Textarea(attrs={"rows": 3, "autocomplete": "off"}),
        help_text="Legal name; address; TIN; share — everyone entitled to a share, the winner "
        "too. Leave empty when the winner alone is entitled to the prize.",
    )

    W2G_FIELDS = (
        "w2g_legal_name",
        "w2g_address",
        "tin",
        "backup_withholding",
        "id1_kind",
        "id1_number",
        "id2_kind",
        "id2_number",
        "group",
    )

    def __init__(
        self, *args: Any, winner: Winner, verifiers: QuerySet[Any], needs_w2g: bool, **kwargs: Any
    ) -> None:
        kwargs.setdefault("prefix", f"payout{winner.pk}")
        super().__init__(*args, **kwargs)
        self.winner = winner
        self.needs_w2g = needs_w2g
        self.fields["verified_by"].queryset = verifiers
        self.fields["verified_by"].label_from_instance = _person_label
        self.offered: list[Any] | None = None
        self.fields["amount"].initial = winner.share
        self.fields["amount"].max_value = Decimal("9999999999.99")
        if not needs_w2g:
            for name in self.W2G_FIELDS:
                del self.fields[name]

    def offer(self, people: list[Any]) -> None:
        """The verifiers listed: those who could confirm now (``who_can_confirm``)."""
        self.offered = people
        offer(self.fields["verified_by"], people, _person_label)

    def w2g_fields(self) -> list[Any]:
        return [self[n] for n in self.W2G_FIELDS if n in self.fields]

    def service_values(self) -> dict[str, Any]:
        d = self.cleaned_data
        values: dict[str, Any] = {
            "verified_by": d["verified_by"],
            "verifier_secret": d.get("verifier_secret") or "",
            "amount": d["amount"],
        }
        if self.needs_w2g:
            values["w2g"] = W2GDetails(
                legal_name=d["w2g_legal_name"],
                address=d["w2g_address"],
                tin=d["tin"],
                backup_withholding=d["backup_withholding"],
                id1_kind=d["id1_kind"],
                id1_number=d["id1_number"],
                id2_kind=d["id2_kind"],
                id2_number=d["id2_number"],
            )
            values["group"] = d.get("group") or []
        return values

    def clean_group(self) -> list[GroupMember]:
        return parse_lines(self.cleaned_data.get("group") or "")
