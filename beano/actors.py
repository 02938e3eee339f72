"""Who acts: the ``by`` of every service, and the ``actor`` the rules service records on a
refusal. A signed-in user, or None for the system (the demo's seed, a periodic task)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser

Actor: TypeAlias = "AbstractBaseUser | AnonymousUser | None"
