from django.apps import AppConfig


class OpsConfig(AppConfig):
    """Operations over every app: backup, restore, serving, the demo, evaluation and exports."""

    name = "athar.ops"
    label = "ops"
    verbose_name = "athar operations"
