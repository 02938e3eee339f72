"""The demo's API tokens, with PUBLISHED plain values (docs/API.md, ``seed_demo``'s output), so
that a new user can play a flashboard, a ball reader, a door's point of sale, a bookkeeper's
system and the Commission's feed against ``make run`` from the documentation alone, whatever
the hour (the practice night is always open). Like the demo's password, they are for the demo
only: ``seed_demo`` refuses to run with DEBUG off.

Each is made through ``api.tokens.issue`` as a user would make it on the tokens page: by a head
of the organization (the practice hall's ``practice-head``, Post 171's ``post171-head``) or the
Commission admin, a floor or night-file token acting as a worker who agrees with their own PIN
(or, if someone trying the demo changed it, the demo's password). Idempotent: a token whose
public id exists already is left as it is (revoked by someone trying the demo, it stays so)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model

from api import tokens
from api.models import ApiToken
from beano.accounts.pins import confirms
from beano.demo import DEMO_PASSWORD
from beano.demo.practice_hall import LOGINS as PRACTICE_LOGINS
from beano.demo.practice_hall import NAME as PRACTICE_HALL
from organizations.models import Organization

POST_171 = "American Legion Post 171"
#: The practice hall's PINs (``practice_hall.LOGINS``), by login.
PINS = {username: pin for username, _name, _role, pin, _part in PRACTICE_LOGINS}


@dataclass(frozen=True)
class DemoToken:
    plain: str
    name: str
    scope: str
    organization: str  # the organization's name; empty for the Commission's
    made_by: str
    acts_as: str = ""  # the worker whose acts they are (floor, night files)


PRACTICE_DOOR = "beano_de0000000001_practice-door-point-of-sale-demo-only-00000"
PRACTICE_READER = "beano_de0000000002_practice-ball-reader-demo-only-000000000000"
PRACTICE_FLASHBOARD = "beano_de0000000003_practice-flashboard-demo-only-0000000000000"
PRACTICE_BOOKS = "beano_de0000000004_practice-bookkeeping-demo-only-000000000000"
POST171_READER = "beano_de0000000005_post171-reader-demo-only-000000000000000000"
POST171_NIGHT_FILES = "beano_de0000000006_post171-night-files-demo-only-0000000000000"
COMMISSION_FEED = "beano_de0000000007_commission-feed-demo-only-00000000000000000"

Scope = ApiToken.Scope
TOKENS = (
    DemoToken(
        PRACTICE_DOOR,
        "Practice door point of sale",
        Scope.FLOOR,
        PRACTICE_HALL,
        "practice-head",
        "practice-door",
    ),
    DemoToken(
        PRACTICE_READER,
        "Practice ball reader",
        Scope.FLOOR,
        PRACTICE_HALL,
        "practice-head",
        "practice-caller",
    ),
    DemoToken(
        PRACTICE_FLASHBOARD, "Practice flashboard", Scope.READ, PRACTICE_HALL, "practice-head"
    ),
    DemoToken(
        PRACTICE_BOOKS,
        "Practice bookkeeping",
        Scope.NIGHT_FILES,
        PRACTICE_HALL,
        "practice-head",
        "practice-books",
    ),
    DemoToken(POST171_READER, "Post 171 reader", Scope.READ, POST_171, "post171-head"),
    DemoToken(
        POST171_NIGHT_FILES,
        "Post 171 night files",
        Scope.NIGHT_FILES,
        POST_171,
        "post171-head",
        "post171-books",
    ),
    DemoToken(COMMISSION_FEED, "Commission feed", Scope.COMMISSION_READ, "", "commission-admin"),
)


def describe(token: DemoToken) -> str:
    """How ``seed_demo`` prints it: its name, scope, organization and worker."""
    where = token.organization or "the Commission"
    acting = f", acting as {token.acts_as}" if token.acts_as else ""
    return f"{token.name} ({Scope(token.scope).value}, {where}{acting})"


def _agreement(worker: Any) -> str:
    """The worker's own secret, typed to agree: their demo PIN, else the demo's password."""
    pin = PINS.get(worker.get_username(), "")
    return pin if pin and confirms(worker, pin) else DEMO_PASSWORD


def seed_api_tokens() -> list[tuple[str, str]]:
    """Each token of ``TOKENS`` made once; returns (plain token, what it is) for each."""
    users = {u.get_username(): u for u in get_user_model().objects.all()}
    existing = set(ApiToken.objects.values_list("public_id", flat=True))
    for spec in TOKENS:
        public_id = spec.plain.split("_")[1]
        if public_id in existing:
            continue
        worker = users[spec.acts_as] if spec.acts_as else None
        tokens.issue(
            name=spec.name,
            scope=spec.scope,
            by=users[spec.made_by],
            organization=(
                Organization.objects.get(name=spec.organization) if spec.organization else None
            ),
            acts_as=worker,
            acts_as_secret=_agreement(worker) if worker is not None else "",
            plain=spec.plain,
        )
    return [(spec.plain, describe(spec)) for spec in TOKENS]
