from django.apps import AppConfig


class OccasionsConfig(AppConfig):
    name = "occasions"
    verbose_name = "Occasions"

    def ready(self) -> None:
        """The landing page shows the occasion open today (``organizations.extensions``)."""
        from occasions.organization_panels import PANELS
        from organizations import extensions

        for panel in PANELS:
            extensions.add_panel(panel)

        from occasions.laptop import at_the_laptop

        extensions.add_laptop_hook(at_the_laptop)  # who is at the hall laptop (org_view)

        import beano.links
        from occasions.links import LINKS

        beano.links.add(*LINKS)  # its links on the pages below it
