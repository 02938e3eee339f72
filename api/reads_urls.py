"""The API's reads operations (docs/API.md): an organization's licenses, its occasions, an
occasion and its night."""

from django.urls import URLPattern, path

from api import reads_views

urlpatterns: list[URLPattern] = [
    path(
        "organizations/<int:org_id>/licenses/",
        reads_views.LicenseList.as_view(),
        name="api_licenses",
    ),
    path(
        "organizations/<int:org_id>/occasions/",
        reads_views.OccasionList.as_view(),
        name="api_occasions",
    ),
    path(
        "organizations/<int:org_id>/occasions/<int:occasion_id>/",
        reads_views.OccasionDetail.as_view(),
        name="api_occasion",
    ),
    path(
        "organizations/<int:org_id>/occasions/<int:occasion_id>/night/",
        reads_views.Night.as_view(),
        name="api_night",
    ),
]
