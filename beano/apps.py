from django.apps import AppConfig


class BeanoConfig(AppConfig):
    name = "beano"
    verbose_name = "Beano occasions"
