from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class IdentificationConfig(AppConfig):
    name = "athar.identification"
    label = "identification"
    verbose_name = _("Identification")

    def ready(self) -> None:
        # Here, not at the top: apps.py is imported before the app registry is ready (models, signals' senders).
        from athar.archive.signals import archive_ingested, faces_indexed
        from athar.identification import notices
        from athar.identification.erasure import on_report_erased
        from athar.identification.jobs import on_archive_ingested, on_faces_indexed
        from athar.identification.signals import family_informed, identification_status_changed, ranking_stored
        from athar.registry.signals import report_erased

        report_erased.connect(on_report_erased, dispatch_uid="identification.report_erased")
        archive_ingested.connect(on_archive_ingested, dispatch_uid="identification.archive_ingested")
        faces_indexed.connect(on_faces_indexed, dispatch_uid="identification.faces_indexed")
        # Caseworkers' notices and "inform the family" tasks (athar.identification.notices).
        ranking_stored.connect(notices.on_ranking_stored, dispatch_uid="web.notices.ranking")
        identification_status_changed.connect(notices.on_identification_status_changed,
                                              dispatch_uid="web.notices.identification")
        family_informed.connect(notices.on_family_informed, dispatch_uid="web.notices.informed")
