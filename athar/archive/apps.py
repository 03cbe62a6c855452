from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArchiveConfig(AppConfig):
    name = "athar.archive"
    label = "archive"
    verbose_name = _("Archives")

    def ready(self) -> None:
        from athar.archive.verify import register_check

        register_check("faces", _check_face_index)


def _check_face_index() -> list[str]:
    from athar.archive.face_indexing import (
        check_index,  # imports the face models only when verifying
    )

    return check_index()
