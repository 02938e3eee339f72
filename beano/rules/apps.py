from django.apps import AppConfig


class RulesConfig(AppConfig):
    name = "beano.rules"
    label = "rules"
    verbose_name = "Rules service"

    def ready(self) -> None:
        # Importing the rule modules fills the registry.
        from beano.rules import registry

        registry.load_all()
