"""URLs of the two-factor step (namespace ``two_factor``), included in athar/urls.py."""

from django.urls import path

from athar.accounts import two_factor_views

app_name = "two_factor"
urlpatterns = [
    path("two-factor/", two_factor_views.verify, name="verify"),
    path("two-factor/enrol/", two_factor_views.enrol, name="enrol"),
]
