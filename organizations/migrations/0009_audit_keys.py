"""Audit events keyed with the installation's audit key (HMAC-SHA256), the key named on each
event, and the head of each chain sealed under the key.

Events already written keep their plain SHA-256 hash and are named ``sha256-legacy``. A legacy
event verifies only ahead of the first keyed event of its chain, and every chain's head is sealed
here under the key: rewriting a legacy event changes every hash after it up to the head, whose
seal cannot be made again without the key."""

import hmac
from hashlib import sha256

from django.conf import settings
from django.db import migrations, models


def seal_existing_chains(apps, schema_editor):
    from organizations.models.audit import seal_message

    AuditChain = apps.get_model("organizations", "AuditChain")
    key_id = settings.AUDIT_KEY_ID
    key = settings.AUDIT_KEYS[key_id]
    for chain in AuditChain.objects.filter(length__gt=0):
        message = seal_message(chain.key, chain.length, chain.head_hash)
        chain.seal_key_id = key_id
        chain.seal = hmac.new(key, message, sha256).hexdigest()
        chain.save(update_fields=["seal", "seal_key_id"])


class Migration(migrations.Migration):
    dependencies = [
        ("organizations", "0008_provenance_practice"),
    ]

    operations = [
        migrations.AddField(
            model_name="auditevent",
            name="key_id",
            field=models.CharField(
                default="sha256-legacy",
                help_text="The audit key the hash is keyed with (its id), or sha256-legacy for an event written before the audit key existed.",
                max_length=40,
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="auditchain",
            name="seal",
            field=models.CharField(
                blank=True,
                help_text="HMAC of the chain's key, length and head under the audit key: the head cannot be moved back without it.",
                max_length=64,
            ),
        ),
        migrations.AddField(
            model_name="auditchain",
            name="seal_key_id",
            field=models.CharField(blank=True, max_length=40),
        ),
        migrations.RunPython(seal_existing_chains, migrations.RunPython.noop),
    ]
