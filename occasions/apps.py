from django.apps import AppConfig


class OccasionsConfig(AppConfig):
    name = "occasions"
    verbose_name = "Occasions"
