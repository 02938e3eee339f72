from django.urls import path

from occasions import extras_views, floor_views, heartbeat_views, laptop_views, sales_views, views
from occasions.extras_forms import EXTRAS_FORMS

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
    path("org/<int:org_id>/occasions/<int:pk>/sales/", sales_views.door_sales, name="door_sales"),
    path(
        "org/<int:org_id>/occasions/<int:pk>/heartbeat/",
        heartbeat_views.night_heartbeat,
        name="night_heartbeat",
    ),
    path(
        "org/<int:org_id>/occasions/<int:pk>/sales/counts/",
        sales_views.sale_counts,
        name="sale_counts",
    ),
    path(
        "org/<int:org_id>/occasions/<int:pk>/sales/receipts/",
        sales_views.sale_receipts,
        name="sale_receipts",
    ),
    path(
        "org/<int:org_id>/occasions/<int:pk>/sales/record/",
        sales_views.sale_record,
        name="sale_record",
    ),
    path(
        "org/<int:org_id>/occasions/<int:pk>/sales/void/",
        sales_views.sale_void,
        name="sale_void",
    ),
    path(
        "org/<int:org_id>/occasions/<int:pk>/sales/attendance/",
        sales_views.attendance_announce,
        name="attendance_announce",
    ),
    path(
        "org/<int:org_id>/occasions/<int:pk>/sales/start-play/",
        sales_views.start_play,
        name="occasion_start_play",
    ),
    path(
        "org/<int:org_id>/occasions/<int:pk>/sales/second-half/",
        sales_views.start_second_half,
        name="occasion_start_second_half",
    ),
]

urlpatterns += [
    path(
        "org/<int:org_id>/occasions/<int:pk>/extras/",
        extras_views.extras_page,
        name="occasion_extras",
    ),
    *[
        path(
            f"org/<int:org_id>/occasions/<int:pk>/extras/{kind}/",
            extras_views.record_extra,
            {"kind": kind},
            name=extras_views.url_name(kind),
        )
        for kind in EXTRAS_FORMS
    ],
    path(
        "org/<int:org_id>/raffle-permits/",
        extras_views.raffle_permits,
        name="raffle_permits",
    ),
    path(
        "org/<int:org_id>/raffle-permits/<int:pk>/document/",
        extras_views.raffle_permit_document,
        name="raffle_permit_document",
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
    path(
        "org/<int:org_id>/occasions/<int:pk>/laptop/",
        laptop_views.hand_laptop,
        name="hand_laptop",
    ),
]
