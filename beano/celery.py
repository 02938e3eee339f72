"""The Celery application; its settings are the CELERY_* names in beano/settings.py."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "beano.settings")

app = Celery("beano")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
