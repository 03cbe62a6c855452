from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class IdentificationConfig(AppConfig):
    name = "athar.identification"
    label = "identification"
    verbose_name = _("Identification")

    def ready(self) -> None:
        from athar.identification.erasure import on_report_erased
        from athar.registry.signals import report_erased

        report_erased.connect(on_report_erased, dispatch_uid="identification.report_erased")
