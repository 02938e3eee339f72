from django.urls import path

from reports import (
    annual_views,
    closeout_views,
    document_views,
    filing_views,
    obligation_views,
    w2g_register,
)

ORG = "org/<int:org_id>/"
OCC = ORG + "occasions/<int:pk>/"

urlpatterns = [
    path(ORG + "reports/", obligation_views.reports_home, name="reports_home"),
    path(OCC + "closeout/", closeout_views.closeout, name="report_closeout"),
    path(OCC + "closeout/expenses/", closeout_views.add_expense, name="report_add_expense"),
    path(OCC + "closeout/stock/", closeout_views.record_stock, name="report_record_stock"),
    path(
        OCC + "closeout/expenses/<int:expense_id>/remove/",
        closeout_views.remove_expense,
        name="report_remove_expense",
    ),
    path(OCC + "report/", filing_views.report_versions, name="report_versions"),
    path(OCC + "report/file/", filing_views.file_report, name="report_file"),
    path(OCC + "report/amend/", filing_views.open_amendment, name="report_open_amendment"),
    path(
        OCC + "report/amend/withdraw/",
        filing_views.withdraw_amendment,
        name="report_withdraw_amendment",
    ),
    path(
        ORG + "reports/<int:report_id>/status/", document_views.report_status, name="report_status"
    ),
    path(ORG + "reports/<int:report_id>/pdf/", document_views.report_pdf, name="report_pdf"),
    path(
        ORG + "reports/<int:report_id>/rerender/", document_views.rerender, name="report_rerender"
    ),
    path(ORG + "annual/<int:year>/", annual_views.annual_report, name="annual_report"),
    path(ORG + "w2g/<int:year>/", w2g_register.w2g_register, name="w2g_register"),
    path(ORG + "w2g/<int:year>.csv", w2g_register.w2g_register_csv, name="w2g_register_csv"),
    path(
        ORG + "annual/<int:year>/disbursements/",
        annual_views.add_disbursement,
        name="annual_add_disbursement",
    ),
    path(
        ORG + "disbursements/<int:disbursement_id>/void/",
        annual_views.void_disbursement,
        name="annual_void_disbursement",
    ),
    path(ORG + "annual/<int:year>/file/", annual_views.file_annual, name="annual_file"),
    path(
        ORG + "annual-reports/<int:report_id>/status/",
        document_views.annual_status,
        name="annual_status",
    ),
    path(ORG + "annual-reports/<int:report_id>/pdf/", document_views.annual_pdf, name="annual_pdf"),
]
