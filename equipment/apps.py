from django.apps import AppConfig


class EquipmentConfig(AppConfig):
    name = "equipment"
    verbose_name = "Equipment and card stock"

    def ready(self) -> None:
        """The card inventory's tab among the organization's, and its way to the paper by
        serial (``beano.links``)."""
        import beano.links
        from equipment.links import LINKS

        beano.links.add(*LINKS)
