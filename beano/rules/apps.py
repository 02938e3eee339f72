from django.apps import AppConfig


class RulesConfig(AppConfig):
    name = "beano.rules"
    label = "rules"
    verbose_name = "Rules service"

    def ready(self) -> None:
        # Importing the rule modules fills the registry.
        from beano.rules import registry

        registry.load_all()
        # The figures in force are kept in the cache (limits.py); any change of a row, through
        # the admin, a migration (its historical model too) or the shell, drops them.
        from django.db.models.signals import post_delete, post_migrate, post_save

        from beano.rules.limits import forget_limits

        def law_limit_changed(sender: type, **kwargs: object) -> None:
            if sender._meta.label_lower == "rules.lawlimit":
                forget_limits()

        post_save.connect(law_limit_changed, dispatch_uid="rules.law_limit_saved", weak=False)
        post_delete.connect(law_limit_changed, dispatch_uid="rules.law_limit_deleted", weak=False)
        post_migrate.connect(forget_limits, dispatch_uid="rules.law_limits_migrated", weak=False)
