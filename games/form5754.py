"""Form 5754 for a prize at or over the W-2G threshold shared by a group: every person entitled
to a share, with their name, address, TIN and share, the shares adding up to the payout. The
TINs are sealed as the W-2G TIN is; the audit sees names and shares, never a TIN."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.core.exceptions import ValidationError

from beano.rules.claims import W2G_CITATION
from beano.rules.money import PRIZE, parse_money, usd
from beano.text import text
from games.models import Payout, PrizeShare
from games.sealed import seal

FORM = f"Form 5754 ({W2G_CITATION})"
MAX_PEOPLE = 50


@dataclass(frozen=True)
class GroupMember:
    legal_name: str
    address: str
    tin: str
    share: Decimal


def parse_lines(text: str) -> list[GroupMember]:
    """One person a line, "legal name; address; TIN; share" (the form's textarea); the share is
    read by the one money parser, so "٤٠٠" or "4e2" is refused, never taken for $400."""
    members = []
    for number, line in enumerate((x for x in text.splitlines() if x.strip()), start=1):
        parts = [p.strip() for p in line.split(";")]
        if len(parts) != 4:
            raise ValidationError(
                f"Line {number}: write “legal name; address; TIN; share”, four parts."
            )
        try:
            share = parse_money(parts[3], PRIZE)
        except ValidationError as error:
            raise ValidationError(
                [f"Line {number}, the share: {message}" for message in error.messages]
            ) from None
        members.append(GroupMember(parts[0], parts[1], parts[2], share))
    return members


def check_group(members: Sequence[GroupMember], amount: Decimal) -> list[GroupMember]:
    """Everyone's details, or a ValidationError naming Form 5754 for what is missing."""
    if len(members) < 2:
        raise ValidationError(f"{FORM}: a prize shared by a group lists at least two people.")
    if len(members) > MAX_PEOPLE:
        raise ValidationError(f"{FORM}: at most {MAX_PEOPLE} people.")
    errors = []
    for n, m in enumerate(members, start=1):
        if not m.legal_name.strip() or not m.address.strip():
            errors.append(f"{FORM}: person {n} needs a legal name and an address.")
        if not re.fullmatch(r"[0-9]{9}", re.sub(r"[\s-]", "", m.tin)):
            errors.append(f"{FORM}: person {n}'s TIN has nine digits.")
        if not m.share.is_finite() or m.share <= 0 or m.share != m.share.quantize(Decimal("0.01")):
            errors.append(f"{FORM}: person {n}'s share is an amount above zero, in cents.")
    if not errors and sum(m.share for m in members) != amount:
        total = sum(m.share for m in members)
        errors.append(f"{FORM}: the shares add up to {usd(total)}, not the {usd(amount)} paid.")
    if errors:
        raise ValidationError(errors)
    return list(members)


def save_group(payout: Payout, members: Sequence[GroupMember]) -> list[dict[str, object]]:
    """The shares saved against the payout, the TINs sealed; what the audit may see."""
    seen = []
    for position, m in enumerate(members, start=1):
        digits = re.sub(r"[\s-]", "", m.tin)
        PrizeShare.objects.create(
            payout=payout,
            position=position,
            legal_name=text(m.legal_name, "group", required=False, limit=200),
            address=text(m.address, "group", required=False, limit=300),
            tin_sealed=seal(digits),
            tin_last4=digits[-4:],
            amount=m.share,
        )
        seen.append({"legal_name": m.legal_name.strip(), "share": m.share})
    return seen
