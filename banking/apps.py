from django.apps import AppConfig


class BankingConfig(AppConfig):
    name = "banking"
    label = "banking"
    verbose_name = "Cash drawer and gaming bank account"

    def ready(self) -> None:
        """The report's figures print the drawer and the deposit, the filing compares the
        drawer with the cash counted, and an amendment keeps the drawer as filed
        (``reports.extensions``); the organization's tabs show the gaming account and the
        close-out links the drawer (``beano.links``)."""
        import beano.links
        from banking import amendment, figures
        from banking.links import LINKS
        from reports import extensions as report_parts

        report_parts.set_cash(
            report_parts.DrawerAndDeposit(
                drawer_figure=figures.drawer,
                deposit_figure=figures.deposit,
                drawer_total=figures.drawer_total,
                drawer_state=amendment.drawer_state,
                restore_drawer=amendment.restore_drawer,
            )
        )
        beano.links.add(*LINKS)
