from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.management import call_command

from organizations.audit import verify_chain
from organizations.models import Organization, Person

#: Every table of the project's apps: whatever a later issue adds to the demo is covered.
APPS = ("rules", "organizations", "occasions", "games", "reports")


def _models() -> list:
    labels = {c.label for c in apps.get_app_configs()}
    return [m for label in APPS if label in labels for m in apps.get_app_config(label).get_models()]


def _dump() -> str:
    users = get_user_model().objects.order_by("pk")
    rows = [serializers.serialize("json", m.objects.order_by("pk")) for m in _models()]
    rows.append(serializers.serialize("json", users, fields=["username", "is_staff", "groups"]))
    return "\n".join(rows)


def test_seed_demo_twice_gives_the_same_data(db, capsys):
    call_command("seed_demo", force=True)
    first = _dump()
    out = capsys.readouterr().out
    call_command("seed_demo", force=True)
    assert _dump() == first
    assert "Beano-Demo-2026" in out and "post171-mic" in out and "inspector" in out


def test_seed_demo_gives_every_role_a_login_and_a_working_password(db, client):
    call_command("seed_demo", force=True)
    for username in (
        "post171-head",
        "post171-mic",
        "post171-books",
        "post171-worker",
        "stanne-mic",
        "inspector",
        "inspector-south",
        "commission-admin",
    ):
        assert client.login(username=username, password="Beano-Demo-2026"), username
    assert Organization.objects.count() == 2
    assert all(verify_chain(org).ok for org in Organization.objects.all())
    shared = Person.objects.get(legal_name="Mary Gallagher")
    assert shared.memberships.count() == 2
    assert shared.worker_list_entries.filter(removed_on__isnull=True).count() == 2


def test_seed_demo_gives_each_organization_a_complete_worker_list(db):
    from django.utils import timezone

    from organizations.worker_selectors import worker_list_review

    call_command("seed_demo", force=True)
    today = timezone.localdate()
    for org in Organization.objects.all():
        review = worker_list_review(org, today.year, today=today)
        assert review.warnings == [], org
        assert review.ineligible_count == 0, org
        roles = {role for r in review.active for role in r.entry.roles}
        assert {"member_in_charge", "gross_receipts", "caller", "bookkeeper"} <= roles
