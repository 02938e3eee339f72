"""The demo's API tokens (beano.demo.api_tokens): published, each of its scope and organization,
made by a head (the practice hall's new head) or the Commission admin, a floor token acting as a
worker signed in on the practice night, and made once however often ``seed_demo`` runs."""

from __future__ import annotations

import re
from pathlib import Path

from django.core.management import call_command
from django.utils import timezone

from api import tokens
from api.models import ApiToken
from beano.accounts.policy import second_factor_required
from beano.demo import api_tokens as demo
from beano.demo.practice_hall import HEAD, NAME
from occasions.models import Occasion
from organizations.models import OrganizationRole, Role, WorkerListEntry

DOC = Path(__file__).resolve().parents[2] / "docs" / "API.md"


def test_each_demo_token_is_recognised_with_its_scope_maker_and_worker(seeded_demo, db):
    for spec in demo.TOKENS:
        token = tokens.recognise(spec.plain)
        assert token is not None, spec.name
        assert (token.name, token.scope, token.created_by.username) == (
            spec.name,
            spec.scope,
            spec.made_by,
        )
        assert (token.organization.name if token.organization else "") == spec.organization
        assert (token.acts_as.username if token.acts_as else "") == spec.acts_as
        assert token.actor.username == (spec.acts_as or spec.made_by)
    assert len({spec.plain for spec in demo.TOKENS}) == len(demo.TOKENS) == 7


def test_the_floor_tokens_workers_are_signed_in_on_the_practice_night(seeded_demo, db):
    """Rule W-1B: only a worker of the night acts on its floor; the door's and the ball reader's
    tokens act as practice-door and practice-caller, both signed in tonight."""
    night = Occasion.objects.get(organization__name=NAME, date=timezone.localdate())
    present = night.presences.present()
    for spec in demo.TOKENS:
        if spec.scope == ApiToken.Scope.FLOOR:
            role = OrganizationRole.objects.get(
                user__username=spec.acts_as, organization=night.organization
            )
            assert present.filter(entry__person=role.person).exists(), spec.acts_as


def test_the_practice_hall_has_a_head_on_no_list_who_gives_a_second_factor(seeded_demo, db):
    username, name, _born = HEAD
    role = OrganizationRole.objects.get(user__username=username, role=Role.HEAD)
    assert role.organization.name == NAME and role.person.legal_name == name
    assert not WorkerListEntry.objects.filter(person=role.person).exists()
    assert second_factor_required(role.user)


def test_seeding_again_makes_no_new_token_and_prints_them(seeded_demo, db, capsys):
    before = list(ApiToken.objects.order_by("pk").values_list("pk", "public_id", "secret_hash"))
    call_command("seed_demo", "--no-pdfs", force=True)
    out = capsys.readouterr().out
    after = list(ApiToken.objects.order_by("pk").values_list("pk", "public_id", "secret_hash"))
    assert after == before
    assert "API tokens (demo only, published" in out
    assert out.index("practice-books") < out.index("API tokens (demo only")
    for spec in demo.TOKENS:
        assert spec.plain in out and demo.describe(spec) in out


def test_a_revoked_demo_token_stays_revoked_when_seeded_again(seeded_demo, db):
    token = tokens.recognise(demo.PRACTICE_FLASHBOARD)
    tokens.revoke(token, by=token.created_by)
    call_command("seed_demo", "--no-pdfs", force=True)
    assert tokens.recognise(demo.PRACTICE_FLASHBOARD) is None


def test_the_api_doc_publishes_every_demo_token():
    text = DOC.read_text()
    published = set(re.findall(r"beano_de\d{10}_[A-Za-z0-9_-]{43}", text))
    assert published == {spec.plain for spec in demo.TOKENS}
