"""Two-factor authentication (django-otp, TOTP): required of the Commission's staff before any
page but signing in and out, the admin included; offered to everyone else from the account
page. ``force_login`` alone stands for a password accepted and nothing more."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import django_otp
import pytest
from django.test import RequestFactory
from django.urls import reverse
from django_otp.oath import totp
from django_otp.plugins.otp_totp.models import TOTPDevice

from beano.accounts.admin_site import VerifiedAdminSite
from beano.accounts.views import PENDING_KEY
from tests.conftest import PASSWORD, login, totp_code, totp_device


def _redirect(response) -> tuple[str, dict[str, list[str]]]:
    assert response.status_code == 302, response.status_code
    parsed = urlparse(response["Location"])
    return parsed.path, parse_qs(parsed.query)


def _through_the_recovery_codes(client, response) -> str:
    """A device just enrolled shows its printed recovery codes first: where the page goes on."""
    assert _redirect(response)[0] == reverse("otp_recovery")
    page = client.get(reverse("otp_recovery")).content.decode()
    assert len(re.findall(r"</span> ([a-z2-7]{4}-[a-z2-7]{4})</li>", page)) == 10
    return re.search(r'href="([^"]+)">I have kept them', page).group(1)


def _code_of_pending(client) -> str:
    """The code of the authenticator being set up, from the key the setup page showed (kept in
    the session until confirmed)."""
    return str(totp(bytes.fromhex(client.session[PENDING_KEY]))).zfill(6)


def _other_code(device) -> str:
    return str((int(totp_code(device)) + 1) % 1_000_000).zfill(6)


def _after_the_back_off(user) -> None:
    """A wrong code makes the next try wait a second (django-otp's throttling); a person
    takes longer than that to type again, a test does not."""
    TOTPDevice.objects.filter(user=user).update(
        throttling_failure_count=0, throttling_failure_timestamp=None
    )


# Required of the Commission's staff


@pytest.mark.parametrize("who", ["inspector", "statewide_inspector", "commission_admin"])
def test_after_the_password_alone_commission_staff_reach_nothing(request, client, tenant, who):
    user = request.getfixturevalue(who)
    totp_device(user)
    client.force_login(user)
    org = tenant.organization.pk
    for url in (
        reverse("dashboard"),
        reverse("organization_home", args=[org]),
        reverse("member_list", args=[org]),
        reverse("audit_log", args=[org]),
        reverse("commission_refused_actions"),
        reverse("rules_catalog"),
        reverse("account"),
        reverse("admin:index"),
    ):
        path, query = _redirect(client.get(url))
        assert path == reverse("otp_verify"), url
        assert query.get("next", [""])[0] in ("", url)


def test_a_commission_user_without_a_device_is_sent_to_set_one_up(client, tenant, inspector):
    client.force_login(inspector)
    url = reverse("organization_home", args=[tenant.organization.pk])
    path, query = _redirect(client.get(url))
    assert path == reverse("otp_setup") and query["next"] == [url]


def test_a_verified_inspector_reaches_the_pages(client, tenant, inspector):
    login(client, inspector)
    assert client.get(reverse("dashboard"), follow=True).status_code == 200  # the inspection's
    home = client.get(reverse("organization_home", args=[tenant.organization.pk]))
    assert home.status_code == 200 and tenant.organization.name in home.content.decode()


def test_the_real_login_form_then_the_code_lets_an_inspector_in(client, tenant, inspector):
    device = totp_device(inspector)
    target = reverse("organization_home", args=[tenant.organization.pk])
    response = client.post(
        reverse("login") + f"?next={target}",
        {"username": inspector.username, "password": PASSWORD, "next": target},
        REMOTE_ADDR="10.1.1.1",
    )
    assert _redirect(response)[0] == target
    path, query = _redirect(client.get(target))
    assert path == reverse("otp_verify") and query["next"] == [target]
    page = client.get(reverse("otp_verify"), {"next": target})
    assert page.status_code == 200
    html = page.content.decode()
    assert "Your two-factor code" in html and "one-time-code" in html
    assert "Organizations" not in html, "no navigation until the second factor"
    wrong = client.post(reverse("otp_verify"), {"code": _other_code(device), "next": target})
    assert wrong.status_code == 200 and "not the right one" in wrong.content.decode()
    assert _redirect(client.get(target))[0] == reverse("otp_verify")
    _after_the_back_off(inspector)
    right = client.post(reverse("otp_verify"), {"code": totp_code(device), "next": target})
    assert _redirect(right)[0] == target
    assert client.get(target).status_code == 200


def test_the_verify_step_gives_a_new_session_key(client, inspector):
    device = totp_device(inspector)
    client.force_login(inspector)
    before = client.cookies["sessionid"].value
    client.post(reverse("otp_verify"), {"code": totp_code(device)})
    assert client.cookies["sessionid"].value != before
    assert client.session[django_otp.DEVICE_ID_SESSION_KEY] == device.persistent_id


def test_a_code_works_once(client, inspector):
    device = totp_device(inspector)
    code = totp_code(device)
    client.force_login(inspector)
    assert client.post(reverse("otp_verify"), {"code": code}).status_code == 302
    client.logout()
    client.force_login(inspector)
    again = client.post(reverse("otp_verify"), {"code": code})
    assert again.status_code == 200 and "not the right one" in again.content.decode()


def test_wrong_codes_slow_the_next_tries(client, inspector):
    device = totp_device(inspector)
    client.force_login(inspector)
    for _ in range(3):
        client.post(reverse("otp_verify"), {"code": _other_code(device)})
    page = client.post(reverse("otp_verify"), {"code": totp_code(device)}).content.decode()
    assert "Too many wrong codes" in page
    assert _redirect(client.get(reverse("dashboard")))[0] == reverse("otp_verify")


def test_the_next_address_stays_on_this_site(client, inspector):
    device = totp_device(inspector)
    client.force_login(inspector)
    response = client.post(
        reverse("otp_verify"), {"code": totp_code(device), "next": "https://evil.example/"}
    )
    assert _redirect(response)[0] == reverse("dashboard")


def test_an_htmx_request_is_sent_to_the_verify_page_as_a_whole(client, tenant, inspector):
    totp_device(inspector)
    client.force_login(inspector)
    response = client.get(reverse("dashboard"), HTTP_HX_REQUEST="true")
    assert response.status_code == 204
    assert urlparse(response["HX-Redirect"]).path == reverse("otp_verify")


def test_enrolling_a_first_device_verifies_the_session(client, tenant, inspector):
    client.force_login(inspector)
    target = reverse("organization_home", args=[tenant.organization.pk])
    page = client.get(reverse("otp_setup"), {"next": target})
    html = page.content.decode()
    assert page.status_code == 200 and "no-cache" in page["Cache-Control"]
    assert "<svg" in html and 'aria-label="QR code to scan"' in html
    # The page writes no row: the key waits in the session until a code confirms it.
    assert not TOTPDevice.objects.filter(user=inspector).exists()
    key = re.search(r'id="totp-key">([A-Z2-7 ]+)<', html).group(1)
    reload = client.get(reverse("otp_setup")).content.decode()
    assert re.search(r'id="totp-key">([A-Z2-7 ]+)<', reload).group(1) == key, "a reload keeps it"
    wrong = client.post(reverse("otp_setup"), {"code": "000000", "next": target})
    assert wrong.status_code == 200
    pending = TOTPDevice.objects.get(user=inspector)
    assert not pending.confirmed and key.replace(" ", "") in pending.config_url
    _after_the_back_off(inspector)
    response = client.post(reverse("otp_setup"), {"code": _code_of_pending(client), "next": target})
    assert _through_the_recovery_codes(client, response) == target
    assert TOTPDevice.objects.get(user=inspector).confirmed
    assert client.get(target).status_code == 200


def test_a_password_alone_cannot_replace_an_existing_device(client, inspector):
    """Whoever knows an inspector's password must not enrol their own phone instead."""
    device = totp_device(inspector)
    client.force_login(inspector)
    assert _redirect(client.get(reverse("otp_setup")))[0] == reverse("otp_verify")
    assert _redirect(client.post(reverse("otp_setup"), {"code": "123456"}))[0] == reverse(
        "otp_verify"
    )
    assert list(TOTPDevice.objects.filter(user=inspector)) == [device]


def test_a_verified_user_replaces_their_device(client, inspector):
    old = totp_device(inspector)
    login(client, inspector)
    assert "Replace your authenticator app" in client.get(reverse("otp_setup")).content.decode()
    response = client.post(reverse("otp_setup"), {"code": _code_of_pending(client)})
    assert _through_the_recovery_codes(client, response) == reverse("account")
    (new,) = TOTPDevice.objects.filter(user=inspector)
    assert new.pk != old.pk and new.confirmed


def test_commission_staff_cannot_turn_it_off(client, inspector):
    device = totp_device(inspector)
    login(client, inspector)
    page = client.get(reverse("account")).content.decode()
    assert "Required for the Commission's staff" in page and "Turn off" not in page
    response = client.post(reverse("otp_disable"), {"code": totp_code(device)})
    assert response.status_code == 403
    assert TOTPDevice.objects.filter(user=inspector).exists()


def test_the_admin_itself_asks_for_the_second_factor(commission_admin):
    """Defence in depth: without the middleware, the admin site still refuses a session that
    only gave the password."""
    request = RequestFactory().get("/admin/")
    request.user = commission_admin
    commission_admin.is_verified = lambda: False
    assert not VerifiedAdminSite().has_permission(request)
    commission_admin.is_verified = lambda: True
    assert VerifiedAdminSite().has_permission(request)


def test_the_admin_sends_an_unverified_admin_to_the_verify_page(client, commission_admin):
    totp_device(commission_admin)
    client.force_login(commission_admin)
    url = reverse("admin:organizations_license_changelist")
    path, query = _redirect(client.get(url))
    assert path == reverse("otp_verify") and query["next"] == [url]
    login(client, commission_admin)
    assert client.get(url).status_code == 200


def test_a_commission_admin_resets_a_lost_device_without_seeing_its_key(
    client, inspector, commission_admin
):
    device = totp_device(inspector)
    login(client, commission_admin)
    change = client.get(reverse("admin:otp_totp_totpdevice_change", args=[device.pk]))
    assert change.status_code == 200
    assert device.key not in change.content.decode()
    assert client.post(reverse("admin:otp_totp_totpdevice_add"), {}).status_code == 403
    response = client.post(
        reverse("admin:otp_totp_totpdevice_delete", args=[device.pk]), {"post": "yes"}
    )
    assert response.status_code == 302
    assert not TOTPDevice.objects.filter(pk=device.pk).exists()
    # The inspector's next login enrols a new app before anything else.
    client.logout()
    client.force_login(inspector)
    assert _redirect(client.get(reverse("dashboard")))[0] == reverse("otp_setup")


# Offered to everyone else


def test_an_organization_user_needs_no_second_factor_until_they_enrol(client, tenant):
    client.force_login(tenant.member_in_charge)
    assert client.get(reverse("dashboard")).status_code == 200
    page = client.get(reverse("account")).content.decode()
    assert "Optional." in page and "Set up two-factor authentication" in page


def test_an_organization_user_turns_it_on_and_then_each_login_asks_for_it(client, tenant):
    user = tenant.member_in_charge
    client.force_login(user)
    client.get(reverse("otp_setup"))
    response = client.post(reverse("otp_setup"), {"code": _code_of_pending(client)})
    assert _through_the_recovery_codes(client, response) == reverse("account")
    page = client.get(reverse("account")).content.decode()
    assert 'align-middle">On</span>' in page and "Turn off" in page
    assert "Recovery codes left: 10" in page
    client.logout()
    client.force_login(user)
    path, _ = _redirect(client.get(reverse("organization_home", args=[tenant.organization.pk])))
    assert path == reverse("otp_verify")


def test_turning_it_off_takes_a_current_code(client, tenant):
    user = tenant.member_in_charge
    device = totp_device(user)
    login(client, user)
    refused = client.post(reverse("otp_disable"), {"code": _other_code(device)})
    assert refused.status_code == 400 and "not the right one" in refused.content.decode()
    assert TOTPDevice.objects.filter(user=user).exists()
    _after_the_back_off(user)
    response = client.post(reverse("otp_disable"), {"code": totp_code(device)})
    assert _redirect(response)[0] == reverse("account")
    assert not TOTPDevice.objects.filter(user=user).exists()
    assert "is off" in client.get(reverse("account")).content.decode()
    client.logout()
    client.force_login(user)
    assert client.get(reverse("dashboard")).status_code == 200


def test_the_pages_need_a_login(client):
    for name in ("account", "otp_verify", "otp_setup"):
        path, _ = _redirect(client.get(reverse(name)))
        assert path == reverse("login")
