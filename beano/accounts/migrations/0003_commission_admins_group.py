"""The Commission admins' group and its permissions: licensing data, never the audit trail's
content. Every installation has it (not only the demo's), so the Commission's first admin is
given it in the Django admin rather than picking permissions one by one."""

from typing import Any

from django.db import migrations

GROUP = "Commission admins"

#: The audit trail, the refused actions and the record views are written by the services only.
NEVER = [
    "add_auditevent",
    "change_auditevent",
    "delete_auditevent",
    "add_auditchain",
    "add_refusedaction",
    "change_refusedaction",
    "delete_refusedaction",
    "change_auditchain",
    "delete_auditchain",
    "add_recordview",
    "change_recordview",
    "delete_recordview",
]


def _make_permissions(apps: Any) -> None:
    """The permissions are made after ``migrate`` (post_migrate); the group needs them now."""
    from django.contrib.auth.management import create_permissions
    from django.contrib.contenttypes.management import create_contenttypes

    for label in ("organizations", "occasions", "games", "otp_totp"):
        config = apps.get_app_config(label)
        models_module = getattr(config, "models_module", None)
        config.models_module = models_module or True  # a migration's app states have none
        try:
            create_contenttypes(config, verbosity=0, apps=apps)
            create_permissions(config, verbosity=0, apps=apps)
        finally:
            config.models_module = models_module


def load(apps: Any, schema_editor: Any) -> None:
    """Also called by the tests after a transactional test's flush empties the tables."""
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    _make_permissions(apps)
    group, _ = Group.objects.get_or_create(name=GROUP)
    group.permissions.add(
        *Permission.objects.filter(content_type__app_label="organizations").exclude(
            codename__in=NEVER
        ),
        # Commission data kept with the occasions: police rates (3.04(3)(e)), charity serials
        # (8)(f).
        *Permission.objects.filter(
            content_type__app_label="occasions",
            content_type__model__in=["prevailingpolicerate", "charityticketserialassignment"],
        ).exclude(codename__startswith="delete_"),
        *Permission.objects.filter(
            content_type__app_label="occasions",
            content_type__model__in=["rafflepermit", "policedetail"],
            codename__startswith="view_",
        ),
        # The arrangements each authorization of permissible winning arrangements names (6)(c).
        *Permission.objects.filter(
            content_type__app_label="games", content_type__model="arrangementauthorization"
        ),
        # Resetting a user's lost authenticator (the next login enrols a new one); never adding
        # or changing one, and the keys stay hidden (settings.OTP_ADMIN_HIDE_SENSITIVE_DATA).
        *Permission.objects.filter(
            content_type__app_label="otp_totp",
            codename__in=["view_totpdevice", "delete_totpdevice"],
        ),
    )


def unload(apps: Any, schema_editor: Any) -> None:
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_password_failures"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("organizations", "0009_audit_keys"),
        ("occasions", "0008_floor_submissions"),
        ("games", "0007_paper_attestations"),
        ("otp_totp", "0003_add_timestamps"),
    ]

    operations = [migrations.RunPython(load, unload)]
