from django.apps import AppConfig


class NightfileConfig(AppConfig):
    name = "nightfile"
    verbose_name = "Night file and control sheets"

    def ready(self) -> None:
        """The pages below link the paper path, the control sheets and the close after the fact
        (``beano.links``, the floor bar's "paper"), and the reports owed offer a past day with
        nothing recorded its way in (``reports.extensions.DAY_WAY_IN``)."""
        import beano.links
        from nightfile.links import FLOOR_PAGES, INCLUDES, LINKS
        from nightfile.way_in import way_in
        from occasions import extensions as occasion_pages
        from reports import extensions as report_pages

        beano.links.add(*LINKS)
        beano.links.add_include(*INCLUDES)
        occasion_pages.add_floor_pages(FLOOR_PAGES)
        report_pages.add_day_way_in(way_in)
