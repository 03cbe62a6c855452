from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RegistryConfig(AppConfig):
    name = "athar.registry"
    label = "registry"
    verbose_name = _("Registry of the missing")
