from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "athar.accounts"
    label = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        # Here, not at the top: apps.py is imported before the app registry is ready (models, signals' senders).
        from athar.accounts import signals  # noqa: F401 - audit sign-ins (athar/accounts/signals.py)
        from athar.accounts.models import normalise_login
        from athar.core.security import use_login_normaliser

        use_login_normaliser(normalise_login)
