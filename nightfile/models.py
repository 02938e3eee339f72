"""A night file uploaded on the web (``nightfile.upload``): kept between its dry run and the
one confirmation that records it, so that what is recorded is exactly the file that was judged
(its bytes and their SHA-256), and recorded once."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from occasions.models import Occasion
from organizations.models import Organization


class NightUpload(models.Model):
    class State(models.TextChoices):
        DRY_RUN = "dry_run", "Judged in a dry run, not recorded"
        RECORDED = "recorded", "Recorded"

    organization = models.ForeignKey(
        Organization, on_delete=models.PROTECT, related_name="night_uploads"
    )
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    file_name = models.CharField(max_length=200)
    sha256 = models.CharField(max_length=64)
    #: The file's bytes as UTF-8 text (a file that is not UTF-8 is never kept): encoded again
    #: they are the bytes uploaded, byte for byte.
    content = models.TextField()
    #: The night's figures the dry run found (dollar strings, ``writer.summary_figures``).
    figures = models.JSONField(default=dict)
    state = models.CharField(max_length=10, choices=State.choices, default=State.DRY_RUN)
    occasion = models.ForeignKey(
        Occasion, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField()
    recorded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(state="dry_run", occasion__isnull=True, recorded_at__isnull=True)
                | Q(state="recorded", occasion__isnull=False, recorded_at__isnull=False),
                name="night_upload_recorded_with_its_occasion",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.file_name} ({self.get_state_display().lower()})"
