from django.apps import AppConfig


class InspectionsConfig(AppConfig):
    name = "inspections"
    verbose_name = "Inspections"

    def ready(self) -> None:
        """An organization's Overview page shows its trends (``organizations.extensions``); an
        inspector lands on the inspection dashboard; a record's history is an inspector's page."""
        from inspections.organization_panels import PANELS
        from organizations import extensions

        for panel in PANELS:
            extensions.add_panel(panel)

        import beano.links
        from inspections.links import LINKS, inspector_landing, record_history
        from organizations.models import CommissionStaff

        beano.links.add(*LINKS)  # its links on the pages below it
        extensions.add_landing(CommissionStaff.Kind.INSPECTOR, inspector_landing)
        extensions.add_history_page(record_history)  # a record's history, from the worker list

        # The audit trail page's verdict is the chain check's: what the chain vouches for.
        from beano.integrity import vouched_problems

        extensions.add_vouched_check(vouched_problems)
