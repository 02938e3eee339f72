"""The floor when the hall's Wi-Fi drops: what the hall laptop keeps to go on working offline
(its service worker, the night's pack), and the acts it queued, received in order and judged
by the same rules as of the moment each was done."""

from django.apps import AppConfig


class OfflineConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "offline"
    verbose_name = "The offline floor"

    def ready(self) -> None:
        """The floor's pages (occasions, games: below this app) load the service worker's
        registration from their place "floor_scripts", never naming this app."""
        import beano.links
        from offline.links import INCLUDES

        beano.links.add_include(*INCLUDES)
