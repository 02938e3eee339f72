"""The API (``/api/v1/``): hall equipment (flashboards, ball readers, the door's point of sale)
and the Commission's systems reach the application with a token, never a session. Every write
goes through the same forms, services and rules as the pages; a refusal answers
``application/problem+json`` with the rule's code and citation (docs/API.md)."""

from django.apps import AppConfig


class ApiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "api"
    verbose_name = "The API"

    def ready(self) -> None:
        """The token pages' links on the organization's tabs and the Commission admin's pages."""
        import beano.links
        from api.links import LINKS

        beano.links.add(*LINKS)
