import os

from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "athar.core"
    label = "core"
    verbose_name = "athar core"

    def ready(self) -> None:
        # Here, not at the top: apps.py is imported before the app registry is ready (models, signals' senders).
        from athar.core import checks  # noqa: F401 - registers athar's system checks

        # Every file and folder athar creates (database, media, exports, backups) is its own
        # account's only: 0600 / 0700, whatever the umask of the shell or service manager.
        os.umask(0o077)
