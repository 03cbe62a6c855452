"""Per-user API tokens: only a hash is stored; a token acts with exactly its user's permissions.

A token is a standing credential that outlives any session, so it expires (90 days unless
``ATHAR_API_TOKEN_DAYS`` says otherwise, or fewer with ``--days``) and can be revoked at once
(``athar api revoke``); ``athar api tokens`` lists a user's tokens without their values.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from athar.accounts.second_factor import is_enrolled
from athar.core.errors import UserError

PREFIX = "athar_"
# "Last used" is kept to the minute: writing it on every request would make each API read a
# database write (a synchronous commit), which a token used many times a second does not need.
LAST_USED_PRECISION = timedelta(minutes=1)


def staff_token_allowed(user: object) -> bool:
    """Where two-factor sign-in is required (production), a reviewer's, archivist's or
    administrator's token works only while that account has a confirmed authenticator (django-otp);
    the token itself is issued only against a current code (``athar api token --totp-code``)."""
    if not getattr(settings, "ATHAR_REQUIRE_TWO_FACTOR", False):
        return True
    return not getattr(user, "needs_two_factor", False) or is_enrolled(user)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class ApiToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100, verbose_name=_("name"))
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    # Null only for tokens issued before expiry existed; the migration gave them one.
    expires_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    @classmethod
    def issue(cls, user: object, name: str, days: int | None = None) -> tuple[ApiToken, str]:
        """A new token and its plain value (shown once), valid for ``days`` (default: the setting)."""
        days = settings.ATHAR_API_TOKEN_DAYS if days is None else days
        if not 1 <= days <= settings.ATHAR_API_TOKEN_MAX_DAYS:
            raise UserError(f"a token is valid for 1 to {settings.ATHAR_API_TOKEN_MAX_DAYS} days, not {days}")
        token = PREFIX + secrets.token_urlsafe(32)
        expires = timezone.now() + timedelta(days=days)
        return cls.objects.create(user=user, name=name, token_hash=token_hash(token), expires_at=expires), token

    @property
    def status(self) -> str:
        """active, expired or revoked (revoked wins: it was a deliberate act)."""
        if self.revoked_at is not None:
            return "revoked"
        if self.expires_at is None or self.expires_at <= timezone.now():
            return "expired"
        return "active"

    @classmethod
    def authenticate(cls, token: str) -> object | None:
        row = (cls.objects.select_related("user")
               .filter(token_hash=token_hash(token), revoked_at=None, user__is_active=True,
                       expires_at__gt=timezone.now()).first())
        if row is None or not staff_token_allowed(row.user):
            return None
        now = timezone.now()
        if row.last_used_at is None or now - row.last_used_at >= LAST_USED_PRECISION:
            cls.objects.filter(pk=row.pk).update(last_used_at=now)
        return row.user
