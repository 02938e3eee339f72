"""The middlewares that guard a logged-in session.

``IdleTimeoutMiddleware``: a hall laptop is shared, and a member in charge walks away from it.
A session ends after ``settings.IDLE_TIMEOUT_MINUTES`` without a real request from its user.

What counts as activity: every request *except* those that declare themselves polls with the
``X-Beano-Poll`` header. Pages that refresh a part of themselves on a timer (htmx
``hx-trigger="every …"``, the flashboard's poll) send it with ``hx-headers='{"X-Beano-Poll":
"1"}'``, so a page left open on a laptop (the door counts, a report's progress) or a flashboard
open in another tab of the member in charge's browser never keeps the session alive on its own.
``tests/test_idle_timeout.py`` checks that every polling element in the templates carries it.
HX-Trigger is no help here: it names the element that triggered, whether a click or a timer.

The clock is the wall clock (``time.time``), not ``django.utils.timezone.now``: idleness is real
time passing, and tests that move the application's clock to an occasion's night must not
sign anybody out. The last activity is written at most once a minute, so a busy page does not
write its session on every request; the timeout is exact to that minute.

An expired session is logged out and the request goes on as an anonymous one: a page that needs
a login sends the browser to the login page, which says why ("signed out after N minutes
without activity"); a public page (the flashboard) keeps working. An htmx request that would be
redirected gets ``HX-Redirect`` instead, so the whole page goes to the login page rather than a
fragment of it.

Two things warn and extend, never more (``static/js/idle.js``): every signed-in page warns two
minutes before the idle sign-out with a button to stay (``stay_signed_in``, a POST that is an
ordinary request, hence activity); and during an open night, the caller's console and the door
page of a user who runs the night (the head or a member in charge) send a heartbeat while the
page is on screen, which ``note_heartbeat`` counts as activity. The heartbeat is a poll for this
middleware; its view decides. It ends with the night (an occasion closed keeps nobody), and
``SessionLifetimeMiddleware`` still ends every session at its absolute lifetime: no page keeps
a session alive for ever.

``SessionLifetimeMiddleware``: whatever its activity, a session ends
``settings.SESSION_ABSOLUTE_HOURS`` after its user logged in (the wall clock again, started by
``start_session_clock`` on every login). The idle timeout ends a session left alone; this ends
one kept busy for ever: a door page used every few minutes night after night, or a stolen
session cookie kept warm. A session that has a user but no start (one made before this
existed) starts its clock at its next request. It signs out as the idle timeout does, saying why.

``SecondFactorMiddleware``: after the password, a user who must use a second factor (the
Commission's staff, anyone with the admin) or who chose to (enrolled a device) can reach only
the pages of ``OPEN_BEFORE_SECOND_FACTOR`` until the session is verified: the verify page asks
for a code, or the set-up page enrols a first device. Everything else, the admin included,
redirects there.

``NoStoreMiddleware``: whatever is answered to a signed-in session is marked ``Cache-Control:
no-store``, unless the view chose its own caching (the public flashboard's poll, ``no-cache``
with an ETag, so that it costs a 304; the downloads, ``private, no-store``). After a member in
charge signs out of a shared laptop, the browser's cache and its Back button keep nothing of
the night's winners or takings for the next person. Static files never reach it: WhiteNoise
answers them earlier in the chain, with their own caching.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import django_otp
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import SESSION_KEY, logout
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import resolve_url
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django_otp.middleware import OTPMiddleware as DjangoOTPMiddleware

from beano.accounts.policy import UNKNOWN, has_confirmed_device, is_verified, second_factor_required

#: The header a polling request sends; its value is not read.
POLL_HEADER = "X-Beano-Poll"
LAST_ACTIVITY_KEY = "beano_last_activity"
SIGNED_IN_AT_KEY = "beano_signed_in_at"
#: Seconds between two writes of the last activity (see the module's docstring).
ACTIVITY_WRITE_EVERY = 60
#: URL names reachable before the second factor: signing in and out, the password reset and the
#: invitation's link (pages for someone not signed in), and the public flashboard (open to
#: anyone, logged in or not).
OPEN_BEFORE_SECOND_FACTOR = frozenset(
    {
        "login",
        "logout",
        "otp_verify",
        "otp_setup",
        "flashboard",
        "flashboard_board",
        "password_reset",
        "password_reset_done",
        "password_reset_confirm",
        "password_reset_complete",
        "invitation_accept",
    }
)
#: The set-up page is open before the second factor only to a user with no device yet.
SETUP_URL_NAME = "otp_setup"


def is_poll(request: HttpRequest) -> bool:
    return POLL_HEADER in request.headers


def is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def htmx_redirect(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """A redirect answered to an htmx request becomes a full-page navigation."""
    if is_htmx(request) and isinstance(response, HttpResponseRedirect):
        location = response["Location"]
        response = HttpResponse(status=204)
        response["HX-Redirect"] = location
    return response


def _count(number: int, unit: str) -> str:
    return f"{number} {unit}{'s' if number != 1 else ''}"


def _sign_out(request: HttpRequest, why: str) -> None:
    """End the session; the login page the user lands on says ``why``."""
    logout(request)
    messages.info(request, f"{why} Log in again to go on.")


class _SessionClock:
    """A middleware that may sign a session out before the view runs (``_check`` says so);
    an htmx request so signed out sends its whole page to the login page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        signed_out = self._check(request)
        response = self.get_response(request)
        if signed_out:
            response = htmx_redirect(request, response)
        return response

    def _check(self, request: HttpRequest) -> bool:
        raise NotImplementedError


def start_session_clock(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """``user_logged_in``: the absolute lifetime counts from this login."""
    if request is not None and hasattr(request, "session"):
        request.session[SIGNED_IN_AT_KEY] = int(time.time())


class SessionLifetimeMiddleware(_SessionClock):
    def _check(self, request: HttpRequest) -> bool:
        """Sign out a session older than the lifetime (True), whatever its activity."""
        session = request.session
        if SESSION_KEY not in session:
            return False
        now = time.time()
        started = session.get(SIGNED_IN_AT_KEY)
        if not isinstance(started, int | float):
            session[SIGNED_IN_AT_KEY] = int(now)
            return False
        hours = settings.SESSION_ABSOLUTE_HOURS
        if now - started > hours * 3600:
            _sign_out(
                request,
                f"You were signed out {_count(hours, 'hour')} after logging in: a session lasts "
                "no longer, however busy.",
            )
            return True
        return False


class IdleTimeoutMiddleware(_SessionClock):
    def _check(self, request: HttpRequest) -> bool:
        """Sign out an idle session (True) or note this request's activity."""
        session = request.session
        if SESSION_KEY not in session:  # no user: nothing to time (and no query for the user)
            return False
        now = time.time()
        timeout = settings.IDLE_TIMEOUT_MINUTES * 60
        last = session.get(LAST_ACTIVITY_KEY)
        if isinstance(last, int | float) and now - last > timeout:
            minutes = settings.IDLE_TIMEOUT_MINUTES
            _sign_out(
                request, f"You were signed out after {_count(minutes, 'minute')} without activity."
            )
            return True
        if not isinstance(last, int | float) or (
            not is_poll(request) and now - last >= ACTIVITY_WRITE_EVERY
        ):
            session[LAST_ACTIVITY_KEY] = int(now)
        return False


def idle_seconds_left(session: Any, now: float | None = None) -> int:
    """Seconds before this session is signed out for idleness (the timeout itself when nothing
    is noted yet), as the warning counts them."""
    timeout = settings.IDLE_TIMEOUT_MINUTES * 60
    last = session.get(LAST_ACTIVITY_KEY)
    if not isinstance(last, int | float):
        return timeout
    return max(0, int(timeout - ((time.time() if now is None else now) - last)))


def note_heartbeat(request: HttpRequest, *, night_open: bool, runs_the_night: bool) -> bool:
    """A console's or door page's heartbeat counts as activity (True) only during an open night
    and only for a user who runs it; anyone else's is ignored, as any poll is."""
    if not (night_open and runs_the_night) or SESSION_KEY not in request.session:
        return False
    request.session[LAST_ACTIVITY_KEY] = int(time.time())
    return True


#: The API's paths (``api``): answered by token, never by the session.
API_PREFIX = "/api/"


class SecondFactorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: Any
    ) -> HttpResponse | None:
        if request.path_info.startswith(API_PREFIX):
            return None  # the API knows no session: a token is its caller
        match = request.resolver_match
        url_name = match.url_name if match else None
        if url_name in OPEN_BEFORE_SECOND_FACTOR and url_name != SETUP_URL_NAME:
            return None
        if SESSION_KEY not in request.session:
            return None
        user = request.user
        if not user.is_authenticated or is_verified(user):
            return None
        has_device = has_confirmed_device(user)
        if not has_device and not second_factor_required(user):
            return None  # offered, not taken: nothing to verify
        if url_name == SETUP_URL_NAME and not has_device:
            return None  # a first device is enrolled before anything else
        target = "otp_verify" if has_device else SETUP_URL_NAME
        next_url = request.get_full_path() if request.method in ("GET", "HEAD") else ""
        if url_name == SETUP_URL_NAME:
            next_url = request.GET.get("next", "")  # where the set-up page was to go on to
        if next_url == "/":
            next_url = ""
        url = reverse(target)
        if next_url:
            url += "?" + urlencode({"next": next_url})
        return htmx_redirect(request, HttpResponseRedirect(resolve_url(url)))


class NoStoreMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        # The session as the view left it: a login just made counts, a logout does not.
        if "Cache-Control" not in response and SESSION_KEY in request.session:
            response["Cache-Control"] = "no-store"
        return response


class OTPMiddleware(DjangoOTPMiddleware):
    """django-otp's middleware (``request.user.otp_device``: the device that verified this
    session, or None), without a query of its own when the session names the user's confirmed
    authenticator, whose id was read with the user (``CeilingModelBackend.get_user``): the
    same check django-otp makes (the device is the user's and confirmed), on the same request.
    Any other case (another kind of device, a device no longer confirmed or not the user's, a
    user loaded otherwise) goes to django-otp's own check, which also forgets a device that no
    longer verifies the session."""

    def _verify_user_sync(self, request: HttpRequest, user: Any) -> Any:
        persistent_id = request.session.get(django_otp.DEVICE_ID_SESSION_KEY)
        if persistent_id and user.is_authenticated:
            confirmed = getattr(user, "confirmed_totp_id", UNKNOWN)
            if confirmed is not UNKNOWN and confirmed is not None:
                from django_otp.plugins.otp_totp.models import TOTPDevice

                label = f"{TOTPDevice.model_label()}/{confirmed}"
                if self._normalize_persistent_id(persistent_id) == label:
                    self._init_user_fields(user)
                    user.otp_device = SimpleLazyObject(
                        lambda: TOTPDevice.objects.get(pk=confirmed, user_id=user.pk)
                    )
                    return user
        return super()._verify_user_sync(request, user)
