from django.urls import path

from occasions import floor_views, views

urlpatterns = [
    path("org/<int:org_id>/occasions/", views.calendar, name="occasion_calendar"),
    path(
        "org/<int:org_id>/occasions/day/<str:day>/",
        views.occasion_for_day,
        name="occasion_for_day",
    ),
    path("org/<int:org_id>/occasions/<int:pk>/", views.occasion_detail, name="occasion_detail"),
    path(
        "org/<int:org_id>/occasions/<int:pk>/not-played/",
        views.occasion_not_played,
        name="occasion_not_played",
    ),
    path(
        "org/<int:org_id>/occasions/resumption-notice/",
        views.resumption_notice,
        name="resumption_notice",
    ),
    path("org/<int:org_id>/occasions/<int:pk>/prices/", views.price_list, name="price_list"),
    path(
        "org/<int:org_id>/occasions/<int:pk>/prices/print/",
        views.price_list_print,
        name="price_list_print",
    ),
    path(
        "org/<int:org_id>/occasions/<int:pk>/opening/",
        floor_views.opening_checklist,
        name="opening_checklist",
    ),
    path(
        "org/<int:org_id>/occasions/<int:pk>/opening/check/",
        floor_views.opening_check,
        name="opening_check",
    ),
    path(
        "org/<int:org_id>/occasions/<int:pk>/open/",
        floor_views.occasion_open,
        name="occasion_open",
    ),
    path(
        "org/<int:org_id>/occasions/<int:pk>/workers/",
        floor_views.workers_present,
        name="workers_present",
    ),
    path(
        "org/<int:org_id>/occasions/<int:pk>/workers/<int:presence_pk>/sign-out/",
        floor_views.worker_sign_out,
        name="worker_sign_out",
    ),
    path(
        "org/<int:org_id>/occasions/<int:pk>/workers/hand-over/",
        floor_views.worker_hand_over,
        name="worker_hand_over",
    ),
    path(
        "org/<int:org_id>/occasions/<int:pk>/close/",
        floor_views.occasion_close,
        name="occasion_close",
    ),
]
