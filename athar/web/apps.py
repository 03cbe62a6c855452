from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WebConfig(AppConfig):
    name = "athar.web"
    label = "web"
    verbose_name = _("Web")

    def ready(self) -> None:
        from athar.identification.signals import family_informed, identification_status_changed, ranking_stored
        from athar.web import notices

        ranking_stored.connect(notices.on_ranking_stored, dispatch_uid="web.notices.ranking")
        identification_status_changed.connect(notices.on_identification_status_changed,
                                              dispatch_uid="web.notices.identification")
        family_informed.connect(notices.on_family_informed, dispatch_uid="web.notices.informed")
