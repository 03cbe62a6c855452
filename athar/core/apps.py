from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "athar.core"
    label = "core"
    verbose_name = "athar core"

    def ready(self) -> None:
        from athar.core import checks  # noqa: F401 - registers athar's system checks
