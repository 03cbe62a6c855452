"""The API speaks the language its caller asks for.

The site's pages take their language from the URL (Arabic without a prefix, English under /en/),
so Django's ``LocaleMiddleware`` gives every unprefixed path — /api/ included — Arabic. An API
client has no URL prefix to choose with: labels (``status_label``, reasons, verdicts) follow
``?lang=ar|en``, else Django's choice from the language cookie and the ``Accept-Language`` header,
Arabic when none names a language athar has.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

API_PREFIX = "/api/"


def api_language(request: HttpRequest) -> str:
    """The language an API request asked for, among athar's languages (Django reads the header)."""
    asked = request.GET.get("lang", "")
    if asked in {code for code, _ in settings.LANGUAGES}:
        return asked
    return translation.get_language_from_request(request, check_path=False)


class ApiLanguageMiddleware:
    """After ``LocaleMiddleware``: for /api/ requests, activate the language the caller asked for."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(API_PREFIX):
            return self.get_response(request)
        language = api_language(request)
        translation.activate(language)
        request.LANGUAGE_CODE = language  # as LocaleMiddleware does
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", language)
        return response
