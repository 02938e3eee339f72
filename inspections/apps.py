from django.apps import AppConfig


class InspectionsConfig(AppConfig):
    name = "inspections"
    verbose_name = "Inspections"

    def ready(self) -> None:
        """An organization's Overview page shows its trends (``organizations.extensions``)."""
        from inspections.organization_panels import PANELS
        from organizations import extensions

        for panel in PANELS:
            extensions.add_panel(panel)

        import beano.links
        from inspections.links import LINKS

        beano.links.add(*LINKS)  # its links on the pages below it
