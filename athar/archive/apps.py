from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArchiveConfig(AppConfig):
    name = "athar.archive"
    label = "archive"
    verbose_name = _("Archives")
