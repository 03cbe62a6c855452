"""The JSON API (django-ninja): reports, candidates, claims and statistics, with per-user tokens.

Every endpoint answers with exactly the web's permissions (``athar.web.access``): a token acts as
its user. OpenAPI: ``/api/openapi.json``; interactive docs: ``/api/docs`` (docs/api.md).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import NinjaAPI
from ninja.security import HttpBearer

from athar.api.models import ApiToken


class TokenAuth(HttpBearer):
    """``Authorization: Bearer athar_…``: the token's user, if active and not revoked."""

    def authenticate(self, request: HttpRequest, token: str) -> Any:
        user = ApiToken.authenticate(token)
        if user is not None:
            request.user = user  # type: ignore[assignment]
        return user


api = NinjaAPI(title="athar API", version="1", urls_namespace="api", auth=TokenAuth(),
               description="Reports, candidates, claims and statistics, with exactly the web's permissions.")

from athar.api import endpoints  # noqa: E402,F401  (registers the routes)
