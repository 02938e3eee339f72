from django.apps import AppConfig


class OfflineConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "offline"
    verbose_name = "The offline floor"
