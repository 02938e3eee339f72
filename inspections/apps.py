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

        # The audit trail page's verdict is the chain check's: what the chain vouches for.
        from beano.integrity import vouched_problems

        extensions.add_vouched_check(vouched_problems)
