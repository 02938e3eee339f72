"""The second factor of those who file: heads of organization and bookkeepers must enrol at
their next login (the printed recovery codes shown once), the other roles are offered it; a
recovery code signs in once in place of the app's code."""

from __future__ import annotations

import re
from urllib.parse import urlparse

import pytest
from django.urls import reverse
from django_otp.oath import totp
from django_otp.plugins.otp_static.models import StaticToken

from beano.accounts.policy import second_factor_required
from beano.accounts.views import PENDING_KEY
from organizations.models import AuditEvent
from tests.conftest import PASSWORD, login, totp_device


def _path(response) -> str:
    assert response.status_code == 302, response.status_code
    return urlparse(response["Location"]).path


def _sign_in(client, user):
    return client.post(reverse("login"), {"username": user.username, "password": PASSWORD})


@pytest.mark.parametrize("role", ["head", "bookkeeper"])
def test_those_who_file_enrol_at_their_next_login(client, tenant, role):
    user = getattr(tenant, role)
    assert second_factor_required(user)
    _sign_in(client, user)
    home = reverse("organization_home", args=[tenant.organization.pk])
    assert _path(client.get(home)) == reverse("otp_setup")
    client.get(reverse("otp_setup"))
    key = bytes.fromhex(client.session[PENDING_KEY])  # shown on the page, no row written yet
    response = client.post(reverse("otp_setup"), {"code": str(totp(key)).zfill(6)})
    assert _path(response) == reverse("otp_recovery")
    page = client.get(reverse("otp_recovery")).content.decode()
    codes = re.findall(r"</span> ([a-z2-7]{4}-[a-z2-7]{4})</li>", page)
    assert len(codes) == 10 and "shown only now" in page
    assert StaticToken.objects.filter(device__user=user).count() == 10
    # Shown once: the page does not show them again.
    assert _path(client.get(reverse("otp_recovery"))) == reverse("account")
    assert client.get(home).status_code == 200
    assert AuditEvent.objects.filter(
        organization=None, action="accounts.recovery_codes.made", actor=user
    ).exists()
    # They cannot turn it off.
    refused = client.post(reverse("otp_disable"), {"code": "123456"})
    assert refused.status_code == 403


@pytest.mark.parametrize("role", ["member_in_charge", "worker"])
def test_the_other_roles_are_offered_it(client, tenant, role):
    user = getattr(tenant, role)
    assert not second_factor_required(user)
    _sign_in(client, user)
    assert client.get(reverse("dashboard")).status_code == 200
    assert "Optional." in client.get(reverse("account")).content.decode()


def test_a_head_who_holds_another_role_too_still_must(tenant, other_tenant):
    from organizations import services

    services.assign_role(
        organization=other_tenant.organization, by=None, user=tenant.head, role="worker"
    )
    assert second_factor_required(tenant.head)


def test_a_recovery_code_signs_in_once(client, tenant):
    user = tenant.bookkeeper
    totp_device(user)
    login(client, user)
    client.post(reverse("otp_recovery"))  # new codes from the account page
    page = client.get(reverse("otp_recovery")).content.decode()
    code = re.findall(r"</span> ([a-z2-7]{4}-[a-z2-7]{4})</li>", page)[0]
    client.logout()

    _sign_in(client, user)
    assert _path(client.get(reverse("dashboard"))) == reverse("otp_verify")
    response = client.post(reverse("otp_verify"), {"code": code.upper()})
    assert _path(response) == reverse("dashboard")
    assert "9 left" in client.get(reverse("dashboard")).content.decode()
    client.logout()

    _sign_in(client, user)
    again = client.post(reverse("otp_verify"), {"code": code})
    assert again.status_code == 200 and "used already" in again.content.decode()
    assert _path(client.get(reverse("dashboard"))) == reverse("otp_verify")


def test_new_codes_replace_the_old_ones(client, tenant):
    user = tenant.head
    login(client, user)
    client.post(reverse("otp_recovery"))
    first = set(StaticToken.objects.filter(device__user=user).values_list("token", flat=True))
    client.get(reverse("otp_recovery"))
    client.post(reverse("otp_recovery"))
    second = set(StaticToken.objects.filter(device__user=user).values_list("token", flat=True))
    assert len(first) == len(second) == 10 and not first & second
