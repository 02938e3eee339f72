"""The application's URLs plus ``/bench/constant/``: a view that does nothing but answer, so the
load test can measure what the server and Django cost before any of the application's work.
Only bench/settings.py names this module; the application never serves it."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from beano.urls import urlpatterns as application


def constant(request: HttpRequest) -> HttpResponse:
    return HttpResponse(b"beano\n", content_type="text/plain")


urlpatterns = [path("bench/constant/", constant, name="bench_constant"), *application]
