from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "beano.accounts"
    label = "accounts"
    verbose_name = "Accounts and sign-in security"
