"""The Commission admins' group, made by a migration (accounts 0003) with its permissions."""

from __future__ import annotations

from django.contrib.auth.models import Group

COMMISSION_ADMINS = "Commission admins"


def commission_admins() -> Group:
    return Group.objects.get(name=COMMISSION_ADMINS)
