from django.apps import AppConfig


class OrganizationsConfig(AppConfig):
    name = "organizations"
    verbose_name = "Licensed organizations"

    def ready(self) -> None:
        """The organization's own tabs, between which the apps above put theirs."""
        import beano.links
        from organizations.links import LINKS

        beano.links.add(*LINKS)
