from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class IdentificationConfig(AppConfig):
    name = "athar.identification"
    label = "identification"
    verbose_name = _("Identification")
