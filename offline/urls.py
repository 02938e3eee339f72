"""The offline floor's addresses."""

from __future__ import annotations

from django.urls import URLPattern, path

from offline import views

urlpatterns: list[URLPattern] = [
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
