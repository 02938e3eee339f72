from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "beano.accounts"
    label = "accounts"
    verbose_name = "Accounts and sign-in security"

    def ready(self) -> None:
        # Commission staff, authenticators and deactivations, recorded on the Commission's chain.
        from beano.accounts import signals  # noqa: F401
