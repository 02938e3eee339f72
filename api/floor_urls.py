"""The API's floor operations (docs/API.md): a door sale, a ball call."""

from django.urls import URLPattern, path

from api import floor_views

urlpatterns: list[URLPattern] = [
    path(
        "organizations/<int:org_id>/occasions/<int:occasion_id>/sales/",
        floor_views.Sales.as_view(),
        name="api_sales",
    ),
    path(
        "organizations/<int:org_id>/occasions/<int:occasion_id>/games/<int:game_id>/balls/",
        floor_views.Balls.as_view(),
        name="api_balls",
    ),
]
