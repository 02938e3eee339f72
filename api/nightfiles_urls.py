"""The API's night-file operations (docs/API.md)."""

from django.urls import path

from api import nightfile_views

urlpatterns = [
    path(
        "organizations/<int:org_id>/occasions/<int:occasion_id>/night-file/",
        nightfile_views.NightFileExport.as_view(),
        name="api_night_file",
    ),
    path(
        "organizations/<int:org_id>/night-files/",
        nightfile_views.NightFileImport.as_view(),
        name="api_night_files",
    ),
]
