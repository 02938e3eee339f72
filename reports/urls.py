from django.urls import path

from reports import (
    annual_views,
    cash_views,
    closeout_views,
    document_views,
    filing_views,
    obligation_views,
    sheet_views,
    w2g_register,
)
from reports.night import day_views as night_day_views
from reports.night import game_views as night_game_views
from reports.night import late_close_views
from reports.night import views as night_views

ORG = "org/<int:org_id>/"
OCC = ORG + "occasions/<int:pk>/"

urlpatterns = [
    path(ORG + "reports/", obligation_views.reports_home, name="reports_home"),
    path(OCC + "close-late/", late_close_views.occasion_close_late, name="occasion_close_late"),
    path(OCC + "closeout/", closeout_views.closeout, name="report_closeout"),
    path(OCC + "closeout/drawer/", cash_views.drawer, name="report_drawer"),
    path(ORG + "bank/", cash_views.bank, name="bank_account"),
    path(ORG + "bank/account/", cash_views.save_account, name="bank_save_account"),
    path(ORG + "bank/deposits/", cash_views.record_deposit, name="bank_record_deposit"),
    path(ORG + "bank/entries/", cash_views.record_entry, name="bank_record_entry"),
    path(ORG + "bank/reconcile/", cash_views.reconcile, name="bank_reconcile"),
    path(OCC + "closeout/expenses/", closeout_views.add_expense, name="report_add_expense"),
    path(OCC + "closeout/stock/", closeout_views.record_stock, name="report_record_stock"),
    path(
        OCC + "closeout/expenses/<int:expense_id>/remove/",
        closeout_views.remove_expense,
        name="report_remove_expense",
    ),
    path(OCC + "paper/", night_views.paper_home, name="paper_home"),
    path(
        ORG + "occasions/day/<str:day>/paper/",
        night_day_views.paper_for_day,
        name="paper_for_day",
    ),
    path(OCC + "paper/games/", night_game_views.paper_games, name="paper_games"),
    path(OCC + "paper/games/<int:number>/", night_game_views.paper_game, name="paper_game"),
    path(OCC + "paper/<slug:section>/", night_views.paper_section, name="paper_section"),
    path(OCC + "control-sheets.pdf", sheet_views.control_sheets_pdf, name="control_sheets"),
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
