from django.apps import AppConfig


class ReportsConfig(AppConfig):
    name = "reports"
    verbose_name = "Reports"

    def ready(self) -> None:
        """The occasion page shows the occasion's report (``occasions.extensions``) and the
        organization's pages the reports it owes (``organizations.extensions``). A license's
        change brings its organization's report obligations up to date (``license_hooks``); the
        close keeps the occasion's figures (``reports.kept``), whose door counts and extras'
        totals the occasion's pages read, and is told of the paper at the door not counted
        back."""
        from occasions import extensions as occasion_pages
        from organizations import extensions as organization_pages
        from reports import license_hooks
        from reports.kept import keep_for_listed, keep_occasion, kept_page
        from reports.night_left import night_left
        from reports.occasion_sections import SECTIONS
        from reports.organization_panels import PANELS

        occasion_pages.add_close_hook(keep_occasion)
        occasion_pages.add_night_left(night_left)
        occasion_pages.add_kept_page(kept_page)
        organization_pages.add_listed_hook(keep_for_listed)
        for section in SECTIONS:
            occasion_pages.add_section(section)
        for panel in PANELS:
            organization_pages.add_panel(panel)
        license_hooks.connect()

        import beano.links
        from reports.links import FLOOR_PAGES, LINKS

        beano.links.add(*LINKS)  # its links on the pages below it
        occasion_pages.add_floor_pages(FLOOR_PAGES)  # and on the floor bar of the night

        from equipment import extensions as card_stock
        from reports.closeout_services import locked_for_closeout
        from reports.selectors import door_counts

        card_stock.add_door_counts(door_counts)  # the paper by serial set against the door
        card_stock.add_closeout_lock(locked_for_closeout)  # and explained under its lock
