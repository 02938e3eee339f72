"""The organization's people: invitations (mail, link, expiry, reuse), roles changed,
logins deactivated and signed out at once, every change audited; isolation (another
organization 404, an inspector reads and never writes) and the Commission's invitation of a
head."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core import mail
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from organizations import people, services
from organizations.models import AuditEvent, Invitation, OrganizationRole, Role
from tests.conftest import login

NEW_PASSWORD = "Fairhaven-blower-1954"


def _link(message) -> str:
    return re.search(r"https?://\S+/invitation/\S+/", message.body).group(0)


def _path(message) -> str:
    return re.sub(r"^https?://[^/]+", "", _link(message))


def _invite(tenant, member, django_capture_on_commit_callbacks, **extra):
    values = {
        "organization": tenant.organization,
        "email": "Joseph.Rebello@Example.org",
        "roles": [Role.WORKER, Role.MEMBER_IN_CHARGE],
        "person": member.person,
        "by": tenant.head,
    } | extra
    with django_capture_on_commit_callbacks(execute=True):
        return people.invite(**values)


@pytest.fixture
def invited(tenant, member, django_capture_on_commit_callbacks):
    return _invite(tenant, member, django_capture_on_commit_callbacks)


def _actions(organization) -> list[str]:
    return list(
        AuditEvent.objects.filter(organization=organization)
        .order_by("sequence")
        .values_list("action", flat=True)
    )


# Invitations


def test_an_invitation_gives_a_login_with_its_roles_and_mails_the_link(tenant, invited):
    user = invited.user
    assert user.email == user.username == "joseph.rebello@example.org"
    assert not user.has_usable_password()
    assert set(
        OrganizationRole.objects.filter(user=user).values_list("role", "person__legal_name")
    ) == {("worker", "Joseph Rebello"), ("member_in_charge", "Joseph Rebello")}
    assert invited.expires_at - invited.created_at == dt.timedelta(days=3)
    [message] = mail.outbox
    assert message.to == ["joseph.rebello@example.org"]
    assert tenant.organization.name in message.subject
    assert "Member in charge" in message.body and "Worker" in message.body
    html, kind = message.alternatives[0]
    assert kind == "text/html" and _link(message) in html
    assert "organizations.invitation.sent" in _actions(tenant.organization)


def test_the_link_sets_the_password_once_and_signs_in(client, tenant, invited):
    path = _path(mail.outbox[0])
    page = client.get(path)
    assert page.status_code == 200 and b"joseph.rebello@example.org" in page.content
    response = client.post(path, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("dashboard")
    assert client.get(reverse("dashboard")).status_code == 200  # signed in, no second factor
    user = get_user_model().objects.get(pk=invited.user_id)
    assert user.check_password(NEW_PASSWORD)
    assert _actions(tenant.organization)[-1] == "organizations.invitation.accepted"

    again = Client().get(path)
    assert again.status_code == 410
    assert b"already used" in again.content
    reposted = Client().post(path, {"password1": "Another-pass-99x", "password2": "x"})
    assert reposted.status_code == 410
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)


def test_an_expired_link_is_refused_and_saves_nothing(client, invited):
    Invitation.objects.filter(pk=invited.pk).update(
        expires_at=timezone.now() - dt.timedelta(minutes=1)
    )
    path = _path(mail.outbox[0])
    response = client.post(path, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert response.status_code == 410
    assert b"This invitation expired on" in response.content
    assert not get_user_model().objects.get(pk=invited.user_id).has_usable_password()


def test_a_tampered_link_is_refused(client, invited):
    path = _path(mail.outbox[0])
    response = client.get(path[:-3] + "xx/")
    assert response.status_code == 410 and b"not a valid invitation" in response.content


def test_a_weak_or_mismatched_password_is_refused_with_a_message(client, invited):
    path = _path(mail.outbox[0])
    response = client.post(path, {"password1": "short", "password2": "short"})
    assert response.status_code == 200 and b"too short" in response.content
    response = client.post(path, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD + "x"})
    assert b"The two passwords differ." in response.content
    assert Invitation.objects.get(pk=invited.pk).accepted_at is None


def test_sending_again_withdraws_the_old_link(
    client, tenant, invited, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        fresh = people.send_again(invitation=invited, by=tenant.head)
    old_path, new_path = _path(mail.outbox[0]), _path(mail.outbox[1])
    assert client.get(old_path).status_code == 410
    assert b"withdrawn" in client.get(old_path).content
    assert client.get(new_path).status_code == 200
    assert fresh.roles == ["member_in_charge", "worker"]


def test_a_person_not_on_the_member_list_and_the_head_role_are_refused(tenant, other_tenant):
    stranger = services.add_member(
        organization=other_tenant.organization,
        by=None,
        legal_name="Ann Lopes",
        date_of_birth=dt.date(1970, 1, 2),
        kind="member",
        since=dt.date(2020, 1, 1),
    )
    with pytest.raises(ValidationError, match="not on this organization's member list"):
        people.invite(
            organization=tenant.organization,
            email="ann@example.org",
            roles=[Role.WORKER],
            person=stranger.person,
            by=tenant.head,
        )
    with pytest.raises(ValidationError, match="invited by the Commission"):
        people.invite(
            organization=tenant.organization,
            email="x@example.org",
            roles=[Role.HEAD],
            by=tenant.head,
        )
    assert not Invitation.objects.exists()


def test_a_login_is_shared_between_organizations_only_by_the_same_person(
    tenant, other_tenant, invited, django_capture_on_commit_callbacks
):
    user = invited.user
    user.set_password(NEW_PASSWORD)
    user.save()
    other_member = services.add_member(
        organization=other_tenant.organization,
        by=None,
        legal_name="Someone Else",
        date_of_birth=dt.date(1980, 3, 4),
        kind="member",
        since=dt.date(2020, 1, 1),
    )
    with pytest.raises(ValidationError, match="shared only by the same person"):
        people.invite(
            organization=other_tenant.organization,
            email="joseph.rebello@example.org",
            roles=[Role.WORKER],
            person=other_member.person,
            by=other_tenant.head,
        )
    same = services.add_member(
        organization=other_tenant.organization,
        by=None,
        legal_name="Joseph Rebello",
        date_of_birth=dt.date(1955, 6, 30),
        kind="member",
        since=dt.date(2020, 1, 1),
    )
    assert same.person == invited.person
    shared = _invite(
        other_tenant,
        same,
        django_capture_on_commit_callbacks,
        organization=other_tenant.organization,
        roles=[Role.WORKER],
        by=other_tenant.head,
    )
    assert shared.user == user and shared.accepted_at is not None
    assert "already have a login" in mail.outbox[-1].body
    assert "/accounts/login/" in mail.outbox[-1].body
    assert OrganizationRole.objects.filter(user=user).count() == 3


# Roles and deactivation


def test_the_head_changes_roles_and_it_is_audited(client, tenant, invited):
    login(client, tenant.head)
    url = reverse("people_roles", args=[tenant.organization.pk, invited.user_id])
    assert client.get(url).status_code == 200
    response = client.post(url, {"roles": ["bookkeeper"]})
    assert response.status_code == 302
    assert list(
        OrganizationRole.objects.filter(user=invited.user).values_list("role", flat=True)
    ) == ["bookkeeper"]
    event = AuditEvent.objects.filter(
        organization=tenant.organization, action="organizations.roles.changed"
    ).get()
    assert event.old_values == {"roles": ["member_in_charge", "worker"]}
    assert event.new_values == {"roles": ["bookkeeper"]}
    assert event.actor == tenant.head
    # No roles at all: refused with a message, nothing changed.
    response = client.post(url, {"roles": []})
    assert response.status_code == 200 and b"This field is required" in response.content
    assert OrganizationRole.objects.filter(user=invited.user).count() == 1


def test_the_head_cannot_change_their_own_roles_nor_another_heads(client, tenant):
    with pytest.raises(ValidationError, match="your own login"):
        people.change_roles(
            organization=tenant.organization, user=tenant.head, roles=["worker"], by=tenant.head
        )
    with pytest.raises(ValidationError, match="Only the Commission"):
        people.deactivate(
            organization=tenant.organization, user=tenant.head, by=tenant.member_in_charge
        )


def test_a_deactivated_user_is_signed_out_at_once(client, tenant):
    worker = Client()
    login(worker, tenant.worker)
    home = reverse("organization_home", args=[tenant.organization.pk])
    assert worker.get(home).status_code == 200
    login(client, tenant.head)
    response = client.post(
        reverse("people_deactivate", args=[tenant.organization.pk, tenant.worker.pk])
    )
    assert response.status_code == 302
    # Their very next request is anonymous: sent to the login page.
    next_request = worker.get(home)
    assert next_request.status_code == 302 and "/accounts/login/" in next_request["Location"]
    tenant.worker.refresh_from_db()
    assert not tenant.worker.is_active
    assert not OrganizationRole.objects.filter(user=tenant.worker).exists()
    assert not any(
        s.get_decoded().get("_auth_user_id") == str(tenant.worker.pk) for s in Session.objects.all()
    )
    event = AuditEvent.objects.get(action="organizations.login.deactivated")
    assert event.organization == tenant.organization
    assert event.old_values["roles"] == ["worker"] and event.new_values["sessions_ended"] == 1
    # The head's own session goes on.
    assert client.get(home).status_code == 200


# The pages: who may see and write


def test_the_people_page_lists_logins_and_pending_invitations(client, tenant, invited):
    login(client, tenant.head)
    page = client.get(reverse("people_list", args=[tenant.organization.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "joseph.rebello@example.org" in text and "Pending" in text
    assert tenant.bookkeeper.username in text


def test_the_people_page_keeps_its_queries_as_people_grow(
    client, tenant, member, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    login(client, tenant.head)
    url = reverse("people_list", args=[tenant.organization.pk])
    client.get(url)

    def count() -> int:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        return len(queries)

    before = count()
    for n in range(6):
        with django_capture_on_commit_callbacks(execute=True):
            people.invite(
                organization=tenant.organization,
                email=f"helper{n}@example.org",
                roles=[Role.WORKER],
                person=member.person if n == 0 else None,
                by=tenant.head,
            )
    assert count() == before


def test_inviting_through_the_page(client, tenant, member, django_capture_on_commit_callbacks):
    login(client, tenant.head)
    url = reverse("people_invite", args=[tenant.organization.pk])
    assert client.get(url).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            url,
            {"person": member.person.pk, "email": "joe@example.org", "roles": ["worker"]},
        )
    assert response.status_code == 302
    [message] = mail.outbox
    assert _link(message).startswith("http://testserver/invitation/")
    bad = client.post(url, {"person": member.person.pk, "email": "not-an-address", "roles": []})
    assert bad.status_code == 200 and Invitation.objects.count() == 1


def test_another_organization_gets_404(client, tenant, other_tenant, invited):
    login(client, other_tenant.head)
    org = tenant.organization.pk
    for url in (
        reverse("people_list", args=[org]),
        reverse("people_invite", args=[org]),
        reverse("people_roles", args=[org, invited.user_id]),
        reverse("people_deactivate", args=[org, invited.user_id]),
        reverse("people_send_again", args=[org, invited.user_id]),
    ):
        assert client.get(url).status_code in (404, 405) and client.post(url).status_code == 404
    # Their own organization's pages, with this organization's login: 404 too.
    own = other_tenant.organization.pk
    assert client.post(reverse("people_deactivate", args=[own, invited.user_id])).status_code == 404
    assert client.get(reverse("people_roles", args=[own, invited.user_id])).status_code == 404


def test_an_inspector_reads_and_never_writes(client, tenant, inspector, invited):
    login(client, inspector)
    org = tenant.organization.pk
    assert client.get(reverse("people_list", args=[org])).status_code == 200
    for url in ("people_invite", "people_deactivate"):
        args = [org] if url == "people_invite" else [org, invited.user_id]
        assert client.get(reverse(url, args=args)).status_code == 403
    for url in (
        reverse("people_invite", args=[org]),
        reverse("people_roles", args=[org, invited.user_id]),
        reverse("people_deactivate", args=[org, invited.user_id]),
        reverse("people_send_again", args=[org, invited.user_id]),
    ):
        assert client.post(url, {"roles": ["worker"], "email": "a@example.org"}).status_code == 403
    assert OrganizationRole.objects.filter(user=invited.user).count() == 2
    assert get_user_model().objects.get(pk=invited.user_id).is_active


def test_other_roles_do_not_manage_people(client, tenant):
    login(client, tenant.member_in_charge)
    assert client.get(reverse("people_list", args=[tenant.organization.pk])).status_code == 403
    response = client.post(
        reverse("people_deactivate", args=[tenant.organization.pk, tenant.worker.pk])
    )
    assert response.status_code == 403
    assert OrganizationRole.objects.filter(user=tenant.worker).exists()


# The Commission invites a head


def test_a_commission_admin_invites_a_head_audited_on_both_chains(
    client, tenant, commission_admin, django_capture_on_commit_callbacks
):
    login(client, commission_admin)
    url = reverse("invite_head")
    assert client.get(url).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            url, {"organization": tenant.organization.pk, "email": "new.head@example.org"}
        )
    assert response.status_code == 302
    invitation = Invitation.objects.get()
    assert invitation.roles == ["head"] and invitation.invited_by == commission_admin
    assert OrganizationRole.objects.filter(user=invitation.user, role="head").exists()
    assert AuditEvent.objects.filter(
        organization=None, action="organizations.invitation.sent", actor=commission_admin
    ).exists()
    assert "organizations.invitation.sent" in _actions(tenant.organization)
    assert mail.outbox[0].to == ["new.head@example.org"]


@pytest.mark.parametrize("who", ["inspector", "head"])
def test_only_a_commission_admin_invites_a_head(client, tenant, inspector, who):
    login(client, inspector if who == "inspector" else tenant.head)
    url = reverse("invite_head")
    assert client.get(url).status_code == 403
    response = client.post(url, {"organization": tenant.organization.pk, "email": "h@example.org"})
    assert response.status_code == 403
    assert not Invitation.objects.exists()
