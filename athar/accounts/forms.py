"""Sign-in and invitation forms: a login is an email, a phone number or an invitation code."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.contrib.auth.password_validation import validate_password
from django.utils.translation import gettext_lazy as _

from athar.accounts.models import code_login, normalise_phone

PHONE_CHARACTERS = re.compile(r"[\d٠-٩+()\-. ]+")


def login_from_identifier(identifier: str) -> str:
    """What a person types (email, phone in any digits, or invitation code) → ``User.login``."""
    value = identifier.strip()
    if "@" in value:
        return value.lower()
    if PHONE_CHARACTERS.fullmatch(value):  # a code has letters: "2K34-5678-B9" is no phone number
        try:
            return normalise_phone(value)
        except ValueError:
            pass
    return code_login(value)


def new_account_phone(value: str) -> str:
    """A phone number for a new account, normalised to E.164. Whether it already has an account is
    never said here (athar.accounts.enrolment answers the same either way)."""
    try:
        return normalise_phone(value.strip())
    except ValueError:
        raise forms.ValidationError(_("This does not look like a phone number.")) from None


class NewPasswordMixin:
    cleaned_data: dict[str, Any]

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        validate_password(password)
        return password


class SignInForm(forms.Form):
    identifier = forms.CharField(label=_("Phone number, email or invitation code"), max_length=254,
                                 widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}))
    password = forms.CharField(label=_("Password"), strip=False,
                               widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))


class RedeemForm(NewPasswordMixin, forms.Form):
    """A family's first visit: the caseworker's code, an optional phone number and a password."""

    code = forms.CharField(label=_("Invitation code"), max_length=32,
                           help_text=_("The code your caseworker gave you, for example K7QM-2XPA-9D."),
                           widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "autocapitalize": "characters"}))
    phone = forms.CharField(label=_("Phone number (optional)"), max_length=32, required=False,
                            help_text=_("To sign in with your phone number next time. Without it, you sign in with the code."),
                            widget=forms.TextInput(attrs={"autocomplete": "tel", "inputmode": "tel", "dir": "ltr"}))
    password = forms.CharField(label=_("Choose a password"), strip=False,
                               help_text=_("At least 10 characters. Write it somewhere safe."),
                               widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))

    def clean_phone(self) -> str:
        phone = self.cleaned_data.get("phone", "").strip()
        return new_account_phone(phone) if phone else ""

    def code_unusable(self) -> None:
        self.add_error("code", _("This code is not valid or was already used. Ask your caseworker for a new one."))


class RegisterForm(NewPasswordMixin, forms.Form):
    """A family that has no caseworker yet: a phone number and a password; an email is optional."""

    phone = forms.CharField(label=_("Phone number"), max_length=32,
                            help_text=_("You will sign in with it. Include the country code, for example +963 944 123 456."),
                            widget=forms.TextInput(attrs={"autocomplete": "tel", "inputmode": "tel", "dir": "ltr"}))
    email = forms.EmailField(label=_("Email (optional)"), required=False,
                             widget=forms.EmailInput(attrs={"autocomplete": "email"}))
    password = forms.CharField(label=_("Choose a password"), strip=False,
                               help_text=_("At least 10 characters. Write it somewhere safe."),
                               widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))

    def clean_phone(self) -> str:
        return new_account_phone(self.cleaned_data["phone"])

    def clean_email(self) -> str:
        return self.cleaned_data.get("email", "").strip().lower()


class ResetPasswordForm(NewPasswordMixin, forms.Form):
    """A family that forgot its password: the code from its caseworker and a new password."""

    code = forms.CharField(label=_("Code from your caseworker"), max_length=32,
                           help_text=_("Your caseworker gives you this code in person or on the phone. It works once."),
                           widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "autocapitalize": "characters",
                                                         "dir": "ltr"}))
    password = forms.CharField(label=_("Choose a new password"), strip=False,
                               help_text=_("At least 10 characters. Write it somewhere safe."),
                               widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))


class RecoverForm(NewPasswordMixin, forms.Form):
    """A family that forgot its password and wrote down its recovery codes: the account's phone
    number, one code and a new password."""

    phone = forms.CharField(label=_("Your phone number"), max_length=32,
                            widget=forms.TextInput(attrs={"autocomplete": "tel", "inputmode": "tel", "dir": "ltr"}))
    code = forms.CharField(label=_("One of your recovery codes"), max_length=32,
                           help_text=_("The codes you wrote down when you created the account. Each works once."),
                           widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "numeric",
                                                         "dir": "ltr"}))
    password = forms.CharField(label=_("Choose a new password"), strip=False,
                               help_text=_("At least 10 characters. Write it somewhere safe."),
                               widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))

    def clean_phone(self) -> str:
        return new_account_phone(self.cleaned_data["phone"])
