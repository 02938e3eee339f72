from django.urls import path

from beano.accounts import views

urlpatterns = [
    path("", views.account, name="account"),
    path("verify/", views.verify, name="otp_verify"),
    path("two-factor/", views.setup, name="otp_setup"),
    path("two-factor/recovery-codes/", views.recovery_codes, name="otp_recovery"),
    path("two-factor/off/", views.disable, name="otp_disable"),
    path("pin/", views.pin, name="account_pin"),
    path("reminders/", views.reminders, name="account_reminders"),
    path("stay-signed-in/", views.stay_signed_in, name="stay_signed_in"),
]
