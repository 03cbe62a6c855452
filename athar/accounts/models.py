"""People who use athar, each with one role. Families sign in with a phone number or an
invitation code; an email address is optional."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, BaseUserManager, PermissionsMixin
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from athar.accounts.phones import normalise_phone, try_normalise_phone


class Role(models.TextChoices):
    FAMILY = "family", _("family")
    CASEWORKER = "caseworker", _("caseworker")
    REVIEWER = "reviewer", _("reviewer")
    ARCHIVIST = "archivist", _("archivist")
    ADMIN = "admin", _("administrator")


# Roles that must use two-factor sign-in in production.
TWO_FACTOR_ROLES = {Role.REVIEWER, Role.ARCHIVIST, Role.ADMIN}


def login_for(email: str | None = None, phone: str | None = None) -> str:
    """The sign-in identifier: a lower-cased email or a normalised phone number."""
    if email:
        email = email.strip().lower()
        if "@" not in email:
            raise ValueError(f"not an email address: {email!r}")
        return email
    if phone:
        return normalise_phone(phone)
    raise ValueError("an email address or a phone number is required")


class UserManager(BaseUserManager["User"]):
    def create_user(self, login: str, password: str | None = None, **extra: Any) -> "User":
        user = self.model(login=login, **extra)
        if password:
            user.set_password(password)
        else:
            user.set_unusable_password()
        user.save(using=self._db)
        return user

    def create_superuser(self, login: str, password: str | None = None, **extra: Any) -> "User":
        extra.update(is_staff=True, is_superuser=True, role=Role.ADMIN)
        return self.create_user(login, password, **extra)

    def by_login(self, login: str) -> "User | None":
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
    REQUIRED_FIELDS: list[str] = []

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")

    def __str__(self) -> str:
        return f"user {self.pk} ({self.role})"

    @property
    def needs_two_factor(self) -> bool:
        return self.role in TWO_FACTOR_ROLES or self.is_superuser


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
