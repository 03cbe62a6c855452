"""URL configuration: Arabic without a prefix, English under /en/."""

from django.conf.urls.i18n import i18n_patterns
from django.urls import include, path

from athar.archive import media_views

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    # Photos only through signed, permission-checked links, never a public path (athar/archive/media_views.py).
    path("media/d/<str:token>", media_views.derivative, name="media_derivative"),
    path("media/o/<str:token>", media_views.original, name="media_original"),
]
urlpatterns += i18n_patterns(
    path("", include("athar.web.urls")),
    path("", include("athar.accounts.two_factor_urls")),  # the TOTP step (security work)
    prefix_default_language=False,
)
