from django.apps import AppConfig


class BeanoConfig(AppConfig):
    name = "beano"
    verbose_name = "Beano occasions"

    def ready(self) -> None:
        from beano import checks  # noqa: F401  (registers the deployment checks)
