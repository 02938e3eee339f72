"""The second factor read with the session's user (``CeilingModelBackend.get_user`` reads the
user's confirmed authenticator in the same query, ``beano.accounts.middleware.OTPMiddleware``
checks the session against it): the same answers as django-otp's own check, without its query.
A device deleted, unconfirmed or another user's never verifies a session."""

from __future__ import annotations

import django_otp
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django_otp.plugins.otp_totp.models import TOTPDevice

from tests.conftest import login, make_user, totp_device


def _in_session(client, device) -> None:
    session = client.session
    session[django_otp.DEVICE_ID_SESSION_KEY] = device.persistent_id
    session.save()


def test_a_verified_session_reaches_its_pages_with_no_query_of_the_device(client, inspector):
    login(client, inspector)
    assert client.get(reverse("rules_catalog")).status_code == 200
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("rules_catalog")).status_code == 200
    alone = [q["sql"] for q in queries if q["sql"].lstrip().startswith('SELECT "otp_totp')]
    assert alone == []


@pytest.mark.parametrize("change", ["deleted", "unconfirmed"])
def test_a_device_no_longer_confirmed_no_longer_verifies(client, inspector, change):
    login(client, inspector)
    device = TOTPDevice.objects.get(user=inspector)
    if change == "deleted":
        device.delete()
    else:
        TOTPDevice.objects.filter(pk=device.pk).update(confirmed=False)
    response = client.get(reverse("rules_catalog"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("otp_setup"))  # no device left to verify
    assert django_otp.DEVICE_ID_SESSION_KEY not in client.session


def test_another_users_device_never_verifies_a_session(client, inspector):
    stranger = make_user("stranger-with-an-app")
    theirs = totp_device(stranger)
    totp_device(inspector)
    client.force_login(inspector)
    _in_session(client, theirs)
    response = client.get(reverse("rules_catalog"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("otp_verify"))
    assert django_otp.DEVICE_ID_SESSION_KEY not in client.session


def test_an_older_device_of_the_user_goes_to_django_otps_own_check(client, inspector):
    """The session names a device that is not the user's latest confirmed one: django-otp's
    own check answers (here: still the user's and confirmed, so verified)."""
    older = totp_device(inspector)
    TOTPDevice.objects.create(user=inspector, name="Second", confirmed=True)
    client.force_login(inspector)
    _in_session(client, older)
    assert client.get(reverse("rules_catalog")).status_code == 200


def test_the_user_is_verified_and_knows_their_device(rf, inspector):
    from django.contrib.sessions.backends.cached_db import SessionStore

    from beano.accounts.backends import CeilingModelBackend
    from beano.accounts.middleware import OTPMiddleware

    device = totp_device(inspector)
    user = CeilingModelBackend().get_user(inspector.pk)
    assert user.confirmed_totp_id == device.pk
    request = rf.get("/")
    request.session = SessionStore()
    request.session[django_otp.DEVICE_ID_SESSION_KEY] = device.persistent_id
    verified = OTPMiddleware(lambda r: None)._verify_user_sync(request, user)
    assert verified.is_verified()
    assert verified.otp_device.pk == device.pk
