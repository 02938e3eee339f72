"""The API's commission operations (docs/API.md): the Commission's reads across organizations."""

from django.urls import URLPattern, path

from api import commission_views as views

urlpatterns: list[URLPattern] = [
    path("commission/reports/", views.CommissionReports.as_view(), name="api_commission_reports"),
    path(
        "commission/reports/<int:report_id>/",
        views.CommissionReport.as_view(),
        name="api_commission_report",
    ),
    path(
        "commission/reports-owed/",
        views.CommissionReportsOwed.as_view(),
        name="api_commission_reports_owed",
    ),
    path(
        "commission/refused-actions/",
        views.CommissionRefusedActions.as_view(),
        name="api_commission_refused_actions",
    ),
    path(
        "commission/audit-chains/",
        views.CommissionAuditChains.as_view(),
        name="api_commission_audit_chains",
    ),
]
