"""The JSON API (django-ninja): reports, candidates, claims and statistics, with per-user tokens.

Every endpoint answers with exactly the web's permissions (``athar.identification.policy``): a token acts as
its user. OpenAPI: ``/api/openapi.json``; interactive docs: ``/api/docs`` (docs/api.md).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.utils.translation import gettext as _
from ninja import NinjaAPI, Swagger
from ninja.openapi.docs import ABS_TPL_PATH
from ninja.security import HttpBearer

from athar.api.models import ApiToken, token_hash
from athar.core.ratelimit import account_wait, slow_down_message
from athar.core.security import too_many_requests


class RateLimited(Exception):
    """A token over its bucket's account rate (answered 429 by ``_rate_limited``)."""

    def __init__(self, wait: int) -> None:
        super().__init__(wait)
        self.wait = wait


class TokenAuth(HttpBearer):
    """``Authorization: Bearer athar_…``: the token's user, if active and not revoked.

    Each call counts against the token's account rate, keyed on the token's id: however the header
    is spelled (``Bearer``, ``bearer``), one token is one bucket."""

    def authenticate(self, request: HttpRequest, token: str) -> Any:
        user = ApiToken.authenticate(token)
        if user is None:
            return None
        token_id = ApiToken.objects.filter(token_hash=token_hash(token)).values_list("pk", flat=True).first()
        wait = account_wait(request, f"token:{token_id}")
        if wait:
            raise RateLimited(wait)
        request.user = user  # type: ignore[assignment]
        return user


# Answered by the web server in front of athar (gunicorn; a reverse proxy has its own limit), before
# any endpoint runs, to a request line longer than it accepts: every operation can receive it.
URI_TOO_LONG = {"description": "URI Too Long: the request line (method, path and query) is longer than the web "
                               "server accepts (gunicorn: 4094 bytes); answered before athar, as a page",
                "content": {"text/html": {"schema": {"type": "string"}}}}


class AtharAPI(NinjaAPI):
    """django-ninja's API, whose schema also states what the web server answers before athar does."""

    def get_openapi_schema(self, *args: Any, **kwargs: Any) -> Any:
        schema = super().get_openapi_schema(*args, **kwargs)
        for operations in schema.get("paths", {}).values():
            for operation in operations.values():
                operation.setdefault("responses", {}).setdefault(414, URI_TOO_LONG)
        return schema


class LocalSwagger(Swagger):
    """Swagger UI from django-ninja's own files, never a CDN (strict CSP). django-ninja renders its
    local page only when listed in INSTALLED_APPS; athar finds its files without listing it, so that
    Django does not import it at every command's start-up (settings.NINJA_FILES)."""

    template_cdn = str(ABS_TPL_PATH / "swagger.html")


api = AtharAPI(title="athar API", version="1", urls_namespace="api", auth=TokenAuth(), docs=LocalSwagger(),
               description="Reports, candidates, claims and statistics, with exactly the web's permissions.")



@api.exception_handler(RateLimited)
def _rate_limited(request: HttpRequest, exc: RateLimited) -> HttpResponse:
    return too_many_requests(request, slow_down_message(exc.wait), exc.wait)


@api.exception_handler(MultiPartParserError)
def _unreadable_upload(request: HttpRequest, exc: MultiPartParserError) -> HttpResponse:
    """A multipart body Django cannot parse (no or a bad boundary): 400 in the API's own form, not
    the web's error page."""
    return JsonResponse({"detail": _("The upload could not be read: send the photos as multipart/form-data.")},
                        status=400)


from athar.api import endpoints, ingests, lifecycle  # noqa: E402,F401  (register the routes)
