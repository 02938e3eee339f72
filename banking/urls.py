"""The drawer's page (under the occasion's close-out, where it has always been) and the gaming
bank account's pages: their paths and names are those they had under reports."""

from django.urls import path

from banking import views

ORG = "org/<int:org_id>/"
OCC = ORG + "occasions/<int:pk>/"

urlpatterns = [
    path(OCC + "closeout/drawer/", views.drawer, name="report_drawer"),
    path(ORG + "bank/", views.bank, name="bank_account"),
    path(ORG + "bank/account/", views.save_account, name="bank_save_account"),
    path(ORG + "bank/deposits/", views.record_deposit, name="bank_record_deposit"),
    path(ORG + "bank/entries/", views.record_entry, name="bank_record_entry"),
    path(ORG + "bank/reconcile/", views.reconcile, name="bank_reconcile"),
]
