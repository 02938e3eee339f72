"""django.contrib.admin, installed as ``beano.accounts.admin_config.BeanoAdminConfig``.

(Its own module: next to AccountsConfig, Django would find two default app configs.)"""

from django.contrib.admin.apps import AdminConfig


class BeanoAdminConfig(AdminConfig):
    """The admin whose site also asks for a verified second factor: defence in depth behind
    SecondFactorMiddleware, which stops an unverified user first."""

    default_site = "beano.accounts.admin_site.VerifiedAdminSite"
