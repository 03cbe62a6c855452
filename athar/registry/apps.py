from pathlib import Path

from django.apps import AppConfig
from django.conf import settings
from django.core import checks
from django.utils.translation import gettext_lazy as _


class RegistryConfig(AppConfig):
    name = "athar.registry"
    label = "registry"
    verbose_name = _("Registry of the missing")

    def ready(self) -> None:
        # Here, not at the top: apps.py is imported before the app registry is ready (models, signals' senders).
        from athar.archive.verify import register_store_check
        from athar.core.crypto import check_master_key, load_master_key
        from athar.registry.photos import verify_uploads

        register_store_check(verify_uploads)  # athar verify checks the family uploads store too

        checks.register(check_master_key, checks.Tags.security)
        if settings.ATHAR_ENV == "production":
            # Refuse to start (web server or command) without the key for contact details.
            load_master_key(settings.ATHAR_ENV, Path(settings.ATHAR_HOME))
