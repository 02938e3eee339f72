"""The offline floor's addresses."""

from __future__ import annotations

from django.urls import URLPattern, path

from offline import sw_views, views

urlpatterns: list[URLPattern] = [
    # The service worker covers the whole site only from its root.
    path("sw.js", sw_views.service_worker, name="service_worker"),
    path("offline/", sw_views.offline_page, name="offline_page"),
    path(
        "org/<int:org_id>/occasions/<int:pk>/offline/acts/",
        views.offline_acts,
        name="offline_acts",
    ),
    path(
        "org/<int:org_id>/occasions/<int:pk>/offline/pack/",
        views.offline_pack,
        name="offline_pack",
    ),
]
