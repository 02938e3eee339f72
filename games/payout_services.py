"""Payouts to winners: once per winner, verified by a second user (961 CMR 3.04(6)(e)), the
winner's share (6)(f), and at or above the W-2G threshold in force the winner's Form W-2G details
(26 CFR 7.6041-1), the TIN and ID numbers sealed. The audit never sees a TIN or an ID number."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError

from beano import locking, rules
from beano.actors import Actor
from beano.rules.claims import RECORD_PAYOUT, W2G_CITATION, PayoutFacts, needs_w2g
from beano.rules.money import PRIZE, money, usd
from beano.text import text
from games import claims_selectors as selectors
from games.claim_locking import locked_game
from games.form5754 import FORM, GroupMember, check_group, save_group
from games.models import Payout, Winner
from games.sealed import seal
from occasions import floor_selectors as floor
from occasions import moments, on_floor
from occasions.floor_selectors import hours_facts
from occasions.models import WorkerPresence
from occasions.second_person import VERIFY_THE_PAYOUT, facts_of, second_person
from occasions.services import enforce_at, moment_of
from organizations.audit import acting_user, record_event
from organizations.models import OrganizationRole


@dataclass(frozen=True)
class W2GDetails:
    """What Form W-2G needs of a winner (26 CFR 7.6041-1): legal name, address, TIN or backup
    withholding when none is furnished, and the two IDs they showed."""

    legal_name: str
    address: str
    tin: str = ""
    backup_withholding: bool = False
    id1_kind: str = ""
    id1_number: str = ""
    id2_kind: str = ""
    id2_number: str = ""


def _tin_digits(tin: str) -> str:
    return re.sub(r"[\s-]", "", tin or "")


def check_w2g(details: W2GDetails | None, threshold: Decimal, share: Decimal) -> W2GDetails:
    """Every W-2G detail a single win of ``share`` (at or above ``threshold``) needs, or a
    ValidationError naming 26 CFR 7.6041-1 for each one missing."""
    lead = (
        f"{W2G_CITATION}: a single win of {usd(share)} ({usd(threshold)} or more) needs Form W-2G"
    )
    if details is None:
        raise ValidationError(f"{lead}: give the winner's details.")
    errors: dict[str, str] = {}
    if not details.legal_name.strip():
        errors["w2g_legal_name"] = f"{lead}: the winner's legal name."
    if not details.address.strip():
        errors["w2g_address"] = f"{lead}: the winner's address."
    digits = _tin_digits(details.tin)
    if digits and not re.fullmatch(r"[0-9]{9}", digits):
        errors["tin"] = f"{W2G_CITATION}: a TIN has nine digits."
    elif digits and details.backup_withholding:
        errors["backup_withholding"] = f"{W2G_CITATION}: backup withholding is for no TIN."
    elif not digits and not details.backup_withholding:
        errors["tin"] = f"{lead}: the winner's TIN, or backup withholding without one."
    for n in (1, 2):
        kind = getattr(details, f"id{n}_kind").strip()
        number = getattr(details, f"id{n}_number").strip()
        if not kind or not number:
            errors[f"id{n}_kind"] = f"{lead}: two IDs seen, with their kind and number (ID {n})."
    if (
        not errors
        and details.id1_kind.strip().casefold() == details.id2_kind.strip().casefold()
        and details.id1_number.strip() == details.id2_number.strip()
    ):
        errors["id2_kind"] = f"{W2G_CITATION}: the two IDs must be different."
    if errors:
        raise ValidationError(errors)
    return details


@dataclass(frozen=True)
class PayoutSigners:
    """Who acts on a payout: live, the user paying and the user verifying; from paper, the
    workers of the night whose signatures are on the sheet."""

    by: Actor
    verified_by: Any
    paid_by_worker: WorkerPresence | None = None
    verified_by_worker: WorkerPresence | None = None
    verifier_secret: str = ""


def _payout_facts(
    occasion: Any,
    winner: Winner,
    amount: Decimal,
    signers: PayoutSigners,
    moment: dt.datetime,
    at: moments.At,
) -> tuple[list[Any], WorkerPresence | None, WorkerPresence | None]:
    """What the rules judge of the two people: from paper both on the floor then; live, two
    users of the organization; the verifier, either way, not a compensated bookkeeper
    (3.04(1)(g))."""
    if moments.paper_of(at) is not None:
        given = signers.paid_by_worker
        payer = floor.worker_of_the_night(occasion, given) if given else None
        checked = signers.verified_by_worker
        checker = floor.worker_of_the_night(occasion, checked) if checked else None
        if payer is None:
            raise ValidationError({"paid_by_worker": "Name the worker who paid, as signed."})
        facts = PayoutFacts(
            paid_by_id=payer.entry.person_id,
            verified_by_id=checker.entry.person_id if checker else None,
            amount=amount,
            share=winner.share,
            both_on_floor=floor.on_floor_at(payer, moment)
            and (checker is None or floor.on_floor_at(checker, moment)),
        )
        return [facts, facts_of(checker, VERIFY_THE_PAYOUT)], payer, checker
    verified_by = signers.verified_by
    if (
        verified_by is not None
        and not OrganizationRole.objects.filter(
            user=verified_by, organization=occasion.organization
        ).exists()
    ):
        raise ValidationError({"verified_by": "The verifier must be a user of this organization."})
    second = second_person(occasion, verified_by, signers.verifier_secret, moment)
    facts = PayoutFacts(
        paid_by_id=getattr(acting_user(signers.by), "pk", None),
        verified_by_id=getattr(verified_by, "pk", None),
        amount=amount,
        share=winner.share,
        both_on_floor=verified_by is None or second.on_floor,
        verifier_confirmed=second.confirmed,
        verifier_paused_until=second.paused_until,
    )
    return [facts, second.facts(VERIFY_THE_PAYOUT)], None, None


def _take_w2g(payout: Payout, details: W2GDetails) -> None:
    """The W-2G details on the payout, the TIN and ID numbers sealed."""
    digits = _tin_digits(details.tin)
    payout.w2g_legal_name = text(details.legal_name, "w2g_legal_name", required=False)
    payout.w2g_address = text(details.address, "w2g_address", required=False, limit=300)
    payout.tin_sealed = seal(digits)
    payout.tin_last4 = digits[-4:]
    payout.backup_withholding = details.backup_withholding
    payout.id1_kind = text(details.id1_kind, "id1_kind", required=False, limit=60)
    payout.id1_number_sealed = seal(details.id1_number.strip())
    payout.id2_kind = text(details.id2_kind, "id2_kind", required=False, limit=60)
    payout.id2_number_sealed = seal(details.id2_number.strip())


@rules.atomic()
def record_payout(
    *,
    winner: Winner,
    by: Actor,
    verified_by: Any,
    w2g: W2GDetails | None = None,
    amount: Decimal | None = None,
    at: moments.At = None,
    paid_by_worker: WorkerPresence | None = None,
    verified_by_worker: WorkerPresence | None = None,
    verifier_secret: str = "",
    group: Sequence[GroupMember] = (),
) -> Payout:
    """Pay a winner their share, once: a second submission returns the payout already made and
    records nothing. Verified by another user of the organization (3.04(6)(e)); at or above the
    W-2G threshold in force the winner's W-2G details are collected, the TIN sealed. Entered
    from paper, the one who paid and the verifier are the workers of the night whose signatures
    are on the sheet (attested on paper): both on the floor then, two people, and the verifier
    not a compensated bookkeeper (3.04(1)(g)). A prize at or over the threshold shared by a
    group lists everyone's Form 5754 details (``group``), each TIN sealed."""
    existing = Payout.objects.filter(winner_id=winner.pk).first()
    if existing is not None:
        return existing
    moment = moment_of(winner.claim.game.occasion, at, by=by, act="recording a payout")
    game = locked_game(winner.claim.game, moment)  # the game first, as every claims write locks it
    winner = locking.lock(Winner.objects.select_related("claim"), "claim").get(pk=winner.pk)
    existing = Payout.objects.filter(winner=winner).first()
    if existing is not None:  # paid while this submission waited for the lock
        return existing
    occasion = game.occasion
    amount = winner.share if amount is None else money(amount, PRIZE, "amount")
    signers = PayoutSigners(by, verified_by, paid_by_worker, verified_by_worker, verifier_secret)
    facts, payer, checker = _payout_facts(occasion, winner, amount, signers, moment, at)
    # Who pays is judged first: (6)(e) then judges the two people together.
    on_floor.require(occasion, by, moment, doing="paying a winner", worker=payer)
    if payer is not None:
        verified_by = None
    enforce_at(RECORD_PAYOUT, [*facts, hours_facts(occasion, moment)], occasion, by)
    threshold = selectors.w2g_threshold(occasion)
    required = needs_w2g(winner.share, threshold)
    payout = Payout(
        winner=winner,
        amount=amount,
        paid_by=acting_user(by),
        verified_by=verified_by,
        paid_by_worker=payer,
        verified_by_worker=checker,
        paid_at=moment,
        w2g_required=required,
    )
    if required:
        assert threshold is not None
        _take_w2g(payout, check_w2g(w2g, threshold, winner.share))
        group = check_group(group, amount) if group else []
    elif group:
        raise ValidationError({"group": f"{FORM}: only a prize at or over the W-2G threshold."})
    payout.save()
    shared = save_group(payout, group) if group else []
    record_event(
        organization=occasion.organization,
        actor=by,
        action="games.payout.recorded",
        target=payout,
        new={
            "winner": winner.pk,
            "player_name": winner.player_name,
            "amount": amount,
            "verified_by": getattr(verified_by, "pk", None),
            "paid_by_worker": payer.entry.person.legal_name if payer else None,
            "verified_by_worker": checker.entry.person.legal_name if checker else None,
            "attested_on_paper": payer is not None,
            "w2g_required": required,
            "w2g_legal_name": payout.w2g_legal_name,
            "backup_withholding": payout.backup_withholding,
            "ids_seen": [k for k in (payout.id1_kind, payout.id2_kind) if k],
            "form5754": shared,
        },
    )
    return payout
