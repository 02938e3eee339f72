from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "beano.accounts"
    label = "accounts"
    verbose_name = "Accounts and sign-in security"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from beano.accounts.middleware import start_session_clock

        user_logged_in.connect(start_session_clock, dispatch_uid="beano_session_clock")

        # Commission staff, authenticators and deactivations, recorded on the Commission's chain.
        from beano.accounts import signals  # noqa: F401
