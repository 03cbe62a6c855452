"""Invitations: how a caseworker brings a family to athar without needing an email address."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from athar.matching.digits import ARABIC_DIGITS

# No 0/O, 1/I/L: codes are read aloud over the phone and typed on small keyboards.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 10
INVITATION_DAYS = 30


def normalise_code(code: str) -> str:
    """Upper case, no spaces or dashes, Arabic digits read as digits."""
    code = code.translate(ARABIC_DIGITS)
    return "".join(ch for ch in code.upper() if ch.isalnum())


def code_hash(code: str) -> str:
    return hashlib.sha256(normalise_code(code).encode()).hexdigest()


def format_code(code: str) -> str:
    """'K7QM2XPA9D' → 'K7QM-2XPA-9D' for reading aloud."""
    return "-".join(code[i:i + 4] for i in range(0, len(code), 4))


def code_login(code: str) -> str:
    """The sign-in identifier of a family that gave no phone number: its invitation code."""
    return "code:" + normalise_code(code)


class InvitationQuerySet(models.QuerySet["Invitation"]):
    def usable(self) -> "InvitationQuerySet":
        return self.filter(used_at=None, revoked_at=None, expires_at__gt=timezone.now())


class Invitation(models.Model):
    """A one-time code a caseworker gives a family; only its hash is stored."""

    code_hash = models.CharField(max_length=64, unique=True)
    caseworker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                   related_name="invitations_sent", verbose_name=_("caseworker"))
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.OneToOneField(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="invitation")
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = InvitationQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    @classmethod
    def issue(cls, caseworker: object) -> tuple["Invitation", str]:
        """A new invitation and its plain code (shown once, never stored)."""
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        while code.isdigit():  # all digits would read as a phone number at sign-in
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        invitation = cls.objects.create(code_hash=code_hash(code), caseworker=caseworker,
                                        expires_at=timezone.now() + timedelta(days=INVITATION_DAYS))
        return invitation, code

    @classmethod
    def find_usable(cls, code: str) -> "Invitation | None":
        return cls.objects.usable().filter(code_hash=code_hash(code)).first()


class Notice(models.Model):
    """An in-app notice for a caseworker: a likely match found for one of their families' reports,
    or a decision on an identification of their families' missing person. Stored once (``key``),
    read-tracked, never holding names: the page renders the report's name for those allowed."""

    class Kind(models.TextChoices):
        CANDIDATE = "candidate", _("likely match found")
        DECISION = "decision", _("decision on an identification")
        INFORM = "inform", _("inform the family of a verified identification")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    key = models.CharField(max_length=120)
    report = models.ForeignKey("registry.Report", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    case = models.ForeignKey("archive.Case", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=20, blank=True)  # the identification's new status
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)
    # A task (kind INFORM) stays open until done: reading it does not close it.
    done_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="notice_unique_key_per_user")]
        indexes = [models.Index(fields=["user", "read_at"], name="notice_user_unread_idx")]
        verbose_name = _("notice")
        verbose_name_plural = _("notices")
