"""Writes to occasions' calendar. Each is one transaction with its audit event; rules are
enforced before anything is saved."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone

from beano import locking, rules
from beano.actors import Actor
from beano.rules.charges import PackageFacts, PriceItemFact, PriceListFacts
from beano.rules.hours import MOMENT, MomentFacts
from beano.rules.money import PRICE, money
from beano.rules.reporting import PaperPeriodFacts
from beano.text import one_line
from occasions import extensions, moments
from occasions.models import Occasion, PriceListItem, ResumptionNotice
from occasions.sales_selectors import forget_posted_items
from occasions.selectors import authorized_license
from organizations.audit import CHAIN_PATH, ensure_chain, record_event
from organizations.models import Organization
from organizations.selectors import authorization_facts


def enforce_at(
    action: str,
    facts: Any,
    occasion: Occasion,
    by: Actor,
    authorizations: Sequence[rules.AuthorizationFact] | None = None,
) -> rules.Decision:
    """Judge an act at an occasion: by the limits of its date, in its organization's name, with
    the organization's Director's authorizations unless the act names its own."""
    return rules.enforce(
        action,
        facts,
        on=occasion.date,
        actor=by,
        organization=occasion.organization,
        authorizations=authorization_facts(occasion.organization)
        if authorizations is None
        else authorizations,
    )


def enforce_all(
    checks: Sequence[tuple[str, Any]], occasion: Occasion, by: Actor
) -> list[rules.Decision]:
    """Judge several acts at an occasion (several people signing in, several winners and their
    split) and refuse once with every violation, so the person at the laptop sees all that is
    wrong at once; the refusal is logged as one, with each act's facts."""
    decisions: list[rules.Decision] = []
    refusals: list[rules.RuleViolation] = []
    for action, facts in checks:
        try:
            decisions.append(enforce_at(action, facts, occasion, by))
        except rules.RuleViolation as error:
            refusals.append(error)
    if not refusals:
        return decisions
    decision = rules.Decision(
        action=refusals[0].decision.action,
        violations=[v for error in refusals for v in error.violations],
    )
    first = refusals[0].refusal or {}
    raise rules.RuleViolation(
        decision,
        first
        | {
            "facts": [error.refusal["facts"] for error in refusals if error.refusal],
            "violations": [v.as_dict() for v in decision.violations],
            "citations": ", ".join(sorted({v.citation for v in decision.violations})),
        },
    )


def refuse_if_sealed(occasion: Occasion) -> None:
    """No service changes an occasion whose financial report is filed, nor its games, sales or
    payouts: a correction is an amendment of the report, with a reason (961 CMR 3.05(1)(a)).
    Every service changing an occasion's records passes here (or ``lock_occasion``): a closed
    one's kept figures are kept again with the change (``kept_again_with_the_write``)."""
    if occasion.sealed_at is not None:
        raise ValidationError(
            f"The financial report of {occasion.date:%B %-d, %Y} is filed and the occasion is "
            "sealed: nothing of it can change. A correction is an amendment of the report."
        )
    kept_again_with_the_write(occasion)


def kept_again_with_the_write(occasion: Occasion) -> None:
    """A closed occasion's records are changing after its close (a sale, a void, a winner or
    the attendance entered afterwards from the night's sheets, within the night's hours; its
    close-out; its filing): what the apps above keep at its close (``extensions.ON_CLOSE``,
    the kept figures) is kept again at the end of the write, in its transaction, from the
    records as the write leaves them."""
    if occasion.status == Occasion.Status.CLOSED:
        rules.before_commit(("kept again", occasion.pk), lambda: extensions.closed(occasion))


@functools.cache
def _lock_statement(
    related: tuple[str, ...], with_chain: bool, by_organization: bool
) -> locking.LockingStatement:
    """The statement that locks an occasion (pk, then the organization's pk when
    ``by_organization``) with ``related`` and, ``with_chain``, its organization's audit chain
    head: one for each such set, compiled once per process (every write at the door runs one)."""

    path = f"organization__{CHAIN_PATH}"

    def build(pk: int, organization_id: int | None = None) -> Any:
        occasions = Occasion.objects.select_related(*related)
        if with_chain:
            occasions = occasions.select_related(path).filter(**{f"{path}__isnull": False})
        if by_organization:
            occasions = occasions.filter(organization_id=organization_id)
        return occasions.filter(pk=pk)

    return locking.LockingStatement(Occasion, build, *related, *((path,) if with_chain else ()))


def _made_chain(occasion_id: int, organization: Any) -> bool:
    """The chain of the occasion's organization made, when it had none (True): the locking
    statement then finds the occasion. False when there is no such occasion."""
    found = Occasion.objects.filter(pk=occasion_id)
    if organization is not None:
        found = found.filter(organization=organization)
    organization_id = found.values_list("organization_id", flat=True).first()
    return organization_id is not None and ensure_chain(organization_id)


def lock_occasion(
    occasion: Occasion,
    *,
    related: Sequence[str] = ("organization",),
    statuses: Collection[str] | None = None,
    refusal: str = "This occasion is {status}: {doing} is not possible.",
    doing: str = "",
    sealed_ok: bool = False,
    organization: Any = None,
    annotations: Mapping[str, Any] | None = None,
    with_chain: bool = False,
) -> Occasion:
    """The one way a service takes hold of an occasion: its row locked (with ``related``) so
    two acts on it are judged one after the other; refused if its report is filed (unless the
    act is one that a filed report allows, ``sealed_ok``); refused unless it stands in one of
    ``statuses``, with ``refusal`` naming the status it is in. With ``organization``, the
    occasion must be that organization's (else Occasion.DoesNotExist); ``annotations`` are read
    under the lock, right after it is taken (e.g. the last receipt's number). ``with_chain``:
    the organization's audit chain head is locked in the same statement
    (``occasion.organization.audit_chain``, for ``record_event(chain=…)``)."""
    # Its organization and license are always taken with it, first (beano.locking.ORDER), so
    # a write called by another finds them held whatever its caller asked for.
    related = tuple(dict.fromkeys(("organization", "license", *related)))
    locking = _lock_statement(related, with_chain, organization is not None)
    keys = [occasion.pk]
    if organization is not None:
        keys.append(getattr(organization, "pk", organization))
    try:
        occasion = locking.get(*keys)
    except Occasion.DoesNotExist:
        if not with_chain or not _made_chain(occasion.pk, organization):
            raise
        occasion = locking.get(*keys)
    if annotations:
        # Read after the lock is held, by a statement of its own: on PostgreSQL a subquery in
        # the locking statement keeps the snapshot from before its wait (READ COMMITTED), so
        # two sales at once read the same last receipt number.
        values = Occasion.objects.filter(pk=occasion.pk).annotate(**annotations)
        for name, value in values.values(*annotations).get().items():
            setattr(occasion, name, value)
    if not sealed_ok:
        refuse_if_sealed(occasion)
    else:
        kept_again_with_the_write(occasion)
    if statuses is not None and occasion.status not in statuses:
        label = Occasion.Status(occasion.status).label.lower()
        raise ValidationError(refusal.format(status=label, doing=doing))
    return occasion


def moment_of(
    occasion: Occasion,
    at: moments.At,
    *,
    by: Actor = None,
    act: str = "",
    limits: rules.Limits | None = None,
) -> dt.datetime:
    """The one function that says what "now" is for an act at an occasion: the server's clock
    for a live act (``at`` None, or a live ``Moment``), else the time stated for it (written on
    a paper control sheet, queued at the hall laptop, or recorded afterwards as the demo does).
    Never in the future; on the occasion's day or, for a night that runs past midnight, the
    morning after (961 CMR 3.04(7)); from paper, stated, and within the part of the night the
    sheets cover. ``limits``: the figures in force on the occasion's date, when the caller has
    read them for its own judgment (a hall's write reads them once)."""
    now = timezone.now()
    entering = moments.paper_of(at)
    when = moments.stated(at)
    if when is None:
        if entering is not None:
            raise ValidationError("Give the time written on the sheet for this entry.")
        when = now
    elif timezone.is_naive(when):
        raise ValidationError("Give the time with its time zone.")
    if when > now:
        raise ValidationError("A time in the future cannot be recorded.")
    local = timezone.localtime(when)
    record = entering.record if entering is not None else None
    rules.enforce(
        MOMENT,
        [
            MomentFacts(at=local, occasion_date=occasion.date, act=act),
            PaperPeriodFacts(
                at=local,
                from_paper=record is not None,
                starts_at=timezone.localtime(record.starts_at)
                if record is not None and record.starts_at
                else None,
                ends_at=timezone.localtime(record.ends_at)
                if record is not None and record.ends_at
                else None,
            ),
        ],
        on=occasion.date,
        actor=by,
        organization=occasion.organization,
        limits=limits,
    )
    return when


def status_at(occasion: Occasion, moment: dt.datetime) -> str:
    """Where the occasion stood at ``moment``: scheduled before it opened, open between its
    opening and its close, closed after. A live act's moment is now, so this is its status; an
    act entered after the fact is judged as of the moment written on the sheet."""
    status = occasion.status
    if status in (Occasion.Status.NOT_PLAYED, Occasion.Status.SCHEDULED):
        return status
    if occasion.opened_at is None:
        return status
    if moment < occasion.opened_at:
        return Occasion.Status.SCHEDULED
    if occasion.closed_at is not None and moment > occasion.closed_at:
        return Occasion.Status.CLOSED
    if status == Occasion.Status.CLOSED and occasion.closed_at is None:
        return status
    return Occasion.Status.OPEN


def open_at(occasion: Occasion, moment: dt.datetime) -> bool:
    return status_at(occasion, moment) == Occasion.Status.OPEN


@rules.atomic()
def occasion_for_day(*, organization: Organization, day: dt.date, by: Actor) -> Occasion:
    """The occasion of an authorized day, recorded the first time anyone acts on it. The
    organization's row is locked first, so two people opening the same day at once (or a double
    click) get the one occasion, instead of the second hitting the one-per-day constraint."""
    organization = locking.lock(Organization.objects).get(pk=organization.pk)
    existing = Occasion.objects.filter(organization=organization, date=day).first()
    if existing is not None:
        return existing
    license = authorized_license(organization, day)
    if license is None:
        raise ValidationError(f"{day:%A, %B %-d, %Y} is not a day the license authorizes.")
    occasion = Occasion.objects.create(organization=organization, license=license, date=day)
    record_event(
        organization=organization,
        actor=by,
        action="occasions.occasion.scheduled",
        target=occasion,
        new={"date": day, "license": license.number},
    )
    return occasion


@rules.atomic()
def mark_not_played(*, occasion: Occasion, reason: str, by: Actor) -> Occasion:
    """Record that Beano was not played on an authorized day: its report is still owed."""
    occasion = lock_occasion(occasion, related=())
    reason = one_line(reason)
    if occasion.status != Occasion.Status.SCHEDULED:
        raise ValidationError(
            f"This occasion is {occasion.get_status_display().lower()}; only a scheduled one "
            "can be marked not played."
        )
    if not reason:
        raise ValidationError({"reason": "Say why Beano was not played."})
    occasion.status = Occasion.Status.NOT_PLAYED
    occasion.not_played_reason = reason[:300]
    occasion.save(update_fields=["status", "not_played_reason"])
    record_event(
        organization=occasion.organization,
        actor=by,
        action="occasions.occasion.not_played",
        target=occasion,
        old={"status": Occasion.Status.SCHEDULED},
        new={"status": occasion.status, "reason": occasion.not_played_reason},
    )
    return occasion


@rules.atomic()
def record_resumption_notice(
    *, organization: Organization, sent_on: dt.date, reference: str, by: Actor
) -> ResumptionNotice:
    """The written notice to the Commission before play resumes (961 CMR 3.05(1)(b))."""
    reference = reference.strip()
    if not reference:
        raise ValidationError({"reference": "Give the letter's or e-mail's reference."})
    notice = ResumptionNotice(
        organization=organization, sent_on=sent_on, reference=reference[:100], recorded_by=by
    )
    notice.full_clean()
    notice.save()
    record_event(
        organization=organization,
        actor=by,
        action="occasions.resumption_notice.recorded",
        target=notice,
        new={"sent_on": sent_on, "reference": notice.reference},
    )
    return notice


def _price_row(item: PriceListItem) -> dict[str, Any]:
    return {"category": item.category, "label": item.label, "price": str(item.price)}


@rules.atomic()
def set_price_list(
    *, occasion: Occasion, items: list[dict[str, Any]], by: Actor
) -> list[PriceListItem]:
    """Post the occasion's price list, replacing the one before; refused once the occasion has
    opened (961 CMR 3.04(4)(c)). Each item: category, label, price, package_contents."""
    occasion = lock_occasion(occasion, related=())
    items = [{**i, "price": money(i["price"], PRICE, "price")} for i in items]
    authorizations = authorization_facts(
        occasion.organization, kinds=(rules.AuthorizationKind.PACKAGES,)
    )
    facts = [
        PriceListFacts(
            occasion_open_or_closed=occasion.status != Occasion.Status.SCHEDULED,
            items=tuple(
                PriceItemFact(i["category"], i["label"].strip(), i["price"]) for i in items
            ),
        ),
        PackageFacts(
            tuple(
                i["label"].strip() for i in items if i["category"] == PriceListItem.Category.PACKAGE
            )
        ),
    ]
    decision = rules.enforce(
        "prices.set",
        facts,
        on=occasion.date,
        actor=by,
        organization=occasion.organization,
        authorizations=authorizations,
    )
    package_authorization = decision.authorization_pks[0] if decision.authorization_pks else None
    old = [_price_row(i) for i in occasion.price_items.all()]
    occasion.price_items.all().delete()
    forget_posted_items(occasion.pk)
    created = [
        PriceListItem.objects.create(
            occasion=occasion,
            category=i["category"],
            label=i["label"].strip(),
            price=i["price"],
            package_contents=i.get("package_contents", "").strip(),
            authorization_id=package_authorization
            if i["category"] == PriceListItem.Category.PACKAGE
            else None,
        )
        for i in items
    ]
    record_event(
        organization=occasion.organization,
        actor=by,
        action="occasions.price_list.set",
        target=occasion,
        old={"items": old},
        new={"items": [_price_row(i) for i in created]},
    )
    return created
