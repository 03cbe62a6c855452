from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArchiveConfig(AppConfig):
    name = "athar.archive"
    label = "archive"
    verbose_name = _("Archives")

    def ready(self) -> None:
        # Here, not at the top: apps.py is imported before the app registry is ready (models, signals' senders).
        from athar.archive.verify import register_check

        register_check("faces", _check_face_index)


def _check_face_index() -> list[str]:
    # Here, not at the top: apps.py is imported before the models it would pull in are ready.
    from athar.archive.face_indexing import check_index

    return check_index()
