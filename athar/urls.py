"""URL configuration: Arabic without a prefix, English under /en/; the JSON API under /api/."""

from django.conf.urls.i18n import i18n_patterns
from django.urls import include, path
from django.views.generic import RedirectView

from athar.api.api import api
from athar.web import media as media_views

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/docs/", RedirectView.as_view(url="/api/docs", permanent=True)),  # the viewer is at /api/docs
    path("api/", api.urls),
    # Photos only through signed, permission-checked links, never a public path (security work:
    # athar/web/media.py; templates call media_views.derivative_url(user, derivative)).
    path("media/d/<str:token>", media_views.derivative, name="media_derivative"),
    path("media/o/<str:token>", media_views.original, name="media_original"),
    path("media/n/<str:token>", media_views.number, name="media_number"),
]
urlpatterns += i18n_patterns(
    path("accounts/", include("athar.accounts.urls")),
    path("accounts/", include("athar.accounts.two_factor_urls")),  # the TOTP step (security work)
    path("", include("athar.web.urls")),
    prefix_default_language=False,
)

# Error pages in the visitor's language with the quick exit (athar/web/views/errors.py).
handler400 = "athar.web.views.errors.bad_request"
handler403 = "athar.web.views.errors.permission_denied"
handler404 = "athar.web.views.errors.page_not_found"
handler500 = "athar.web.views.errors.server_error"
