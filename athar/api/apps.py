from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "athar.api"
    label = "api"
    verbose_name = "API"
