"""People who use athar, each with one role. Families sign in with a phone number or an
invitation code; an email address is optional."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import Any, ClassVar

from django.conf import settings
from django.contrib.auth.models import (
    AbstractBaseUser,
    BaseUserManager,
    PermissionsMixin,
)
from django.core.exceptions import PermissionDenied
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from athar.accounts.phones import normalise_phone, try_normalise_phone
from athar.core.errors import UserError
from athar.matching.digits import ARABIC_DIGITS


class Role(models.TextChoices):
    FAMILY = "family", _("family")
    CASEWORKER = "caseworker", _("caseworker")
    REVIEWER = "reviewer", _("reviewer")
    ARCHIVIST = "archivist", _("archivist")
    ADMIN = "admin", _("administrator")


# Who may do what, by role: the one table every rule reads (``athar.identification.policy`` for
# seeing, ``claims``/``conflicts`` for deciding, the registry's linkage review). Object-level rules
# (whose report, which family) come on top, in the policy.
STAFF_ROLES = frozenset({Role.REVIEWER, Role.ARCHIVIST, Role.ADMIN})
TWO_FACTOR_ROLES = STAFF_ROLES  # must use two-factor sign-in in production
CLAIM_ROLES = frozenset({Role.FAMILY, Role.CASEWORKER})  # say "this is him / her" (never staff)
REVIEW_ROLES = frozenset({Role.REVIEWER, Role.ADMIN})  # review identifications, conflicts, linkage
FORENSIC_ROLES = frozenset({Role.REVIEWER, Role.CASEWORKER, Role.ADMIN})
INFORM_ROLES = frozenset({Role.CASEWORKER, Role.ADMIN})  # record that a family was told
PUBLISH_ROLES = frozenset({Role.CASEWORKER, Role.REVIEWER, Role.ADMIN})
ARCHIVE_ROLES = frozenset({Role.ARCHIVIST, Role.ADMIN})
FILE_ROLES = frozenset({Role.FAMILY, Role.CASEWORKER, Role.ADMIN})  # file and edit reports
CASEWORK_ROLES = frozenset({Role.CASEWORKER, Role.ADMIN})  # take on and look after families
ADMIN_ROLES = frozenset({Role.ADMIN})  # manage accounts, read the audit log


def login_for(email: str | None = None, phone: str | None = None) -> str:
    """The sign-in identifier: a lower-cased email or a normalised phone number."""
    if email:
        email = email.strip().lower()
        if "@" not in email:
            raise UserError(f"not an email address: {email!r}")
        return email
    if phone:
        return normalise_phone(phone)
    raise UserError("an email address or a phone number is required")


def normalise_login(raw: str) -> str:
    """A typed sign-in string as stored: an e-mail lower-cased, anything else read as a phone number."""
    text = (raw or "").strip()
    return login_for(email=text) if "@" in text else login_for(phone=text)


class UserManager(BaseUserManager["User"]):
    def create_user(self, login: str, password: str | None = None, **extra: Any) -> User:
        user = self.model(login=login, **extra)
        if password:
            user.set_password(password)
        else:
            user.set_unusable_password()
        user.save(using=self._db)
        return user

    def create_superuser(self, login: str, password: str | None = None, **extra: Any) -> User:
        extra.update(is_staff=True, is_superuser=True, role=Role.ADMIN)
        return self.create_user(login, password, **extra)

    def by_login(self, login: str) -> User | None:
        """The account a command-line ``--login`` names: an email (lower-cased), a phone number in
        any spelling (E.164), else the text verbatim."""
        text = login.strip()
        candidates = [text.lower()] if "@" in text else [p for p in (try_normalise_phone(text),) if p]
        for candidate in [*candidates, text]:
            user = self.filter(login=candidate).first()
            if user is not None:
                return user
        return None


class User(AbstractBaseUser, PermissionsMixin):
    """An account. ``login`` is an email or phone; ``role`` decides what it may see and do."""

    login = models.CharField(max_length=254, unique=True, verbose_name=_("email or phone"))
    email = models.EmailField(blank=True, verbose_name=_("email"))
    phone = models.CharField(max_length=32, blank=True, verbose_name=_("phone"))
    display_name = models.CharField(max_length=150, blank=True, verbose_name=_("name"))
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.FAMILY, verbose_name=_("role"))
    preferred_language = models.CharField(max_length=8, default="ar")
    caseworker = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="families", verbose_name=_("caseworker"))
    is_active = models.BooleanField(default=True)
    is_staff = models.BooleanField(default=False)
    date_joined = models.DateTimeField(default=timezone.now)

    objects = UserManager()
    USERNAME_FIELD = "login"
    REQUIRED_FIELDS: ClassVar[list[str]] = []

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")

    def __str__(self) -> str:
        return f"user {self.pk} ({self.role})"

    @property
    def needs_two_factor(self) -> bool:
        return self.role in TWO_FACTOR_ROLES or self.is_superuser


def signed_in(user: object) -> User:
    """``request.user`` as the account it is, in a view only a signed-in account reaches
    (``login_required`` or a check before); anyone else is refused."""
    if not isinstance(user, User) or not user.is_authenticated:
        raise PermissionDenied
    return user


class AgreementCode(models.Model):
    """The short code a self-registered family reads to the caseworker it agrees to be looked
    after by (athar.accounts.caseworkers.take_on). Only a hash is kept; a new code replaces it."""

    family = models.OneToOneField(User, on_delete=models.CASCADE, related_name="agreement_code")
    code_hash = models.CharField(max_length=64)
    expires_at = models.DateTimeField()
    failures = models.PositiveSmallIntegerField(default=0)

    class Meta:
        verbose_name = _("agreement code")


class Assignment(models.Model):
    """Who put a family in which caseworker's care, and why: the history behind ``User.caseworker``.
    The reason is kept here, never in the audit chain (free text)."""

    class How(models.TextChoices):
        TAKEN_ON = "taken_on", _("taken on with the family's code")
        REASSIGNED = "reassigned", _("reassigned by an administrator")

    family = models.ForeignKey(User, on_delete=models.CASCADE, related_name="assignments")
    caseworker = models.ForeignKey(User, null=True, on_delete=models.SET_NULL, related_name="+")
    previous = models.ForeignKey(User, null=True, on_delete=models.SET_NULL, related_name="+")
    by = models.ForeignKey(User, null=True, on_delete=models.SET_NULL, related_name="+")
    how = models.CharField(max_length=16, choices=How.choices)
    reason = models.TextField(blank=True)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("caseworker assignment")


# ---- invitations: how a caseworker brings a family to athar without needing an email address ----

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
    def usable(self) -> InvitationQuerySet:
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
    # Who it was made for, in the caseworker's words, so the list says which family holds which code
    # (kept here only, never in the audit chain).
    label = models.CharField(max_length=120, blank=True, verbose_name=_("made for"))

    objects = InvitationQuerySet.as_manager()

    class Meta:
        db_table = "web_invitation"  # created when invitations lived in the web app; the rows stay put
        ordering = ["-created_at"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    @classmethod
    def issue(cls, caseworker: User, label: str = "") -> tuple[Invitation, str]:
        """A new invitation and its plain code (shown once, never stored)."""
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        while code.isdigit():  # all digits would read as a phone number at sign-in
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        invitation = cls.objects.create(code_hash=code_hash(code), caseworker=caseworker, label=label.strip()[:120],
                                        expires_at=timezone.now() + timedelta(days=INVITATION_DAYS))
        return invitation, code

    @classmethod
    def find_usable(cls, code: str) -> Invitation | None:
        return cls.objects.usable().filter(code_hash=code_hash(code)).first()


# ---- account recovery without email or SMS: a code from the family's caseworker ----------------

RESET_CODE_HOURS = 72


class ResetCodeQuerySet(models.QuerySet["ResetCode"]):
    def usable(self) -> ResetCodeQuerySet:
        return self.filter(used_at=None, revoked_at=None, expires_at__gt=timezone.now())


class ResetCode(models.Model):
    """A one-time code a caseworker gives one of their families to choose a new password; only its
    hash is stored; it expires, is used once, and a new one revokes the one before."""

    code_hash = models.CharField(max_length=64, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reset_codes")
    issued_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reset_codes_issued")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = ResetCodeQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]


class RecoveryCodeQuerySet(models.QuerySet["RecoveryCode"]):
    def usable(self) -> RecoveryCodeQuerySet:
        return self.filter(used_at=None, revoked_at=None)


class RecoveryCode(models.Model):
    """One of the codes a family that registered itself writes down (shown once): with its phone
    number, a code sets a new password without a caseworker, once. Only a keyed hash is stored;
    new codes revoke the unused ones before them."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="recovery_codes")
    code_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = RecoveryCodeQuerySet.as_manager()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "code_hash"], name="recovery_code_once_per_user")]
