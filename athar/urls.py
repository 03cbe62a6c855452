"""URL configuration: Arabic without a prefix, English under /en/."""

from django.conf.urls.i18n import i18n_patterns
from django.urls import include, path

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
]
urlpatterns += i18n_patterns(
    path("", include("athar.web.urls")),
    prefix_default_language=False,
)
