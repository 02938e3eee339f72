from django.urls import path

from inspections import (
    exception_views,
    onboarding_views,
    org_views,
    report_views,
    views,
    year_views,
)

RECORD = "org/<int:org_id>/occasions/<int:pk>/record/"

urlpatterns = [
    path("inspect/", views.dashboard, name="inspector_dashboard"),
    path("inspect/compliance/<slug:section>/", views.compliance, name="inspect_compliance"),
    path("inspect/exceptions/", exception_views.exceptions_page, name="inspect_exceptions"),
    path("inspect/exceptions.csv", exception_views.exceptions_csv, name="inspect_exceptions_csv"),
    path("inspect/export/<slug:kind>.csv", views.export, name="inspect_export"),
    path(
        "commission/refused/", views.commission_refused_actions, name="commission_refused_actions"
    ),
    path("commission/reports/", report_views.commission_reports, name="commission_reports"),
    path(
        "commission/reports/pdfs.zip",
        report_views.commission_reports_zip,
        name="commission_reports_zip",
    ),
    path(RECORD, org_views.occasion_record, name="occasion_record"),
    path(
        f"{RECORD}<slug:kind>.csv", org_views.occasion_record_export, name="occasion_record_export"
    ),
    path(
        "org/<int:org_id>/history/<str:target_type>/<str:target_id>/",
        org_views.record_history,
        name="record_history",
    ),
    path("org/<int:org_id>/audit/check/", org_views.chain_check, name="chain_check"),
    # One URL per section: each is a page of its own in the organization's list of pages.
    *[
        path(
            f"org/<int:org_id>/compliance/{section}/",
            view,
            name=f"org_compliance_{section}",
        )
        for section, view in org_views.ORG_COMPLIANCE.items()
    ],
    path("org/<int:org_id>/inspections/", org_views.inspections_list, name="inspections_list"),
    path("org/<int:org_id>/year/", year_views.organization_year, name="organization_year"),
]

# The Commission admin's onboarding pages.
urlpatterns += [
    path("commission/licensing/", onboarding_views.onboarding_home, name="onboarding_home"),
    path(
        "commission/licensing/add/",
        onboarding_views.organization_add,
        name="onboarding_organization_add",
    ),
    path(
        "commission/org/<int:org_id>/license/add/",
        onboarding_views.license_add,
        name="onboarding_license_add",
    ),
    path(
        "commission/org/<int:org_id>/authorizations/add/",
        onboarding_views.authorization_add,
        name="onboarding_authorization_add",
    ),
    path(
        "commission/org/<int:org_id>/arrangements/",
        onboarding_views.arrangements_grant,
        name="onboarding_arrangements",
    ),
]
