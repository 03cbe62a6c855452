from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AuditConfig(AppConfig):
    name = "athar.audit"
    label = "audit"
    verbose_name = _("Audit log")
