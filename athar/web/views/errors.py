"""Error pages (400, 403, 404, 500, a refused form) in the visitor's language, with the quick exit.

The 500 page is rendered without the request's context processors: it must show even when the
database is down (no session, no user, no messages are looked up). Under /api/ (and to clients
asking for JSON) the same errors answer ``{"detail": …}`` as the API's own refusals do: a path the
API's routes do not match (an id with a slash in it) is a JSON 404 there, not a page.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseServerError, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.views.decorators.csrf import requires_csrf_token

from athar.core.security import wants_json

CANDIDATE_PAGES = {"candidate", "photo_reveal", "claim"}


def _json(status: int, detail: str) -> HttpResponse:
    """The API's form of an error (django-ninja's ``{"detail": …}``, with its English phrases)."""
    return JsonResponse({"detail": detail}, status=status)


@requires_csrf_token
def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if wants_json(request):
        return _json(400, "Bad Request")
    return render(request, "400.html", status=400)


@requires_csrf_token
def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if wants_json(request):
        return _json(403, "Forbidden")
    return render(request, "403.html", status=403)


@requires_csrf_token
def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """A candidate link that leads nowhere is most often from an earlier comparison: say so."""
    if wants_json(request):
        return _json(404, "Not Found")
    match = getattr(request, "resolver_match", None)
    stale = bool(match and match.url_name in CANDIDATE_PAGES)
    return render(request, "404.html", {"stale_candidate": stale}, status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    if wants_json(request):
        return _json(500, "Internal Server Error")
    template = loader.get_template("500.html")
    context: dict[str, Any] = {"request": request}  # a plain context: no context processor runs
    return HttpResponseServerError(template.render(context))


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent from a page left open too long (or after signing out elsewhere)."""
    return render(request, "403_csrf.html", status=403)
