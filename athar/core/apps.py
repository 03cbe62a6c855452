from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "athar.core"
    label = "core"
    verbose_name = "athar core"
