"""Forms of the staff pages: accounts, the audit log's filter, a report's candidate filters."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from athar.accounts.models import Role
from athar.archive.models import Facility, Sex
from athar.audit.log import EventFilter
from athar.core.labels import facility_label

DATE = forms.DateInput(attrs={"type": "date"})


class AccountForm(forms.Form):
    """An administrator creates an account: a role, an email or a phone, a first password."""

    role = forms.ChoiceField(label=_("Role"), choices=Role.choices)
    email = forms.EmailField(label=_("Email"), required=False)
    phone = forms.CharField(label=_("Phone"), required=False, max_length=32,
                            widget=forms.TextInput(attrs={"inputmode": "tel", "dir": "ltr", "autocomplete": "off"}))
    name = forms.CharField(label=_("Name"), required=False, max_length=150)
    password = forms.CharField(label=_("First password"), widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
                               help_text=_("Give it to the person in person. Reviewers, archivists and administrators "
                                           "also receive a two-step sign-in key, shown once on the next page."))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if bool(data.get("email")) == bool(data.get("phone")):
            raise forms.ValidationError(_("Give an email address or a phone number (one of them)."))
        return data


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason (required)"), widget=forms.Textarea(attrs={"rows": 2}), max_length=2000)


ACTOR = re.compile(r"^(user:\d+|\d+|system|anonymous)$")


class AuditFilterForm(forms.Form):
    """The audit log's filter: who, what, on which object, between which days."""

    actor = forms.CharField(label=_("Actor"), required=False, max_length=64,
                            help_text=_("An account number (for example 12), “system” or “anonymous”."),
                            widget=forms.TextInput(attrs={"dir": "ltr"}))
    action = forms.CharField(label=_("Action"), required=False, max_length=64,
                             help_text=_("For example user.created; end with a dot for a family of actions (user.)."),
                             widget=forms.TextInput(attrs={"dir": "ltr", "list": "audit-actions"}))
    object_type = forms.CharField(label=_("Object type"), required=False, max_length=64,
                                  widget=forms.TextInput(attrs={"dir": "ltr"}))
    object_id = forms.CharField(label=_("Object id"), required=False, max_length=128,
                                widget=forms.TextInput(attrs={"dir": "ltr"}))
    since = forms.DateField(label=_("From"), required=False, widget=DATE)
    until = forms.DateField(label=_("To"), required=False, widget=DATE)

    def clean_actor(self) -> str:
        text = self.cleaned_data["actor"].strip().lower()
        if text and not ACTOR.match(text):
            raise forms.ValidationError(_("An account number, “system” or “anonymous”."))
        return f"user:{text}" if text.isdigit() else text

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("since") and data.get("until") and data["since"] > data["until"]:
            raise forms.ValidationError(_("The first day comes after the last one."))
        return data

    def event_filter(self) -> EventFilter:
        data = self.cleaned_data
        return EventFilter(actor=data["actor"], action=data["action"].strip(), object_type=data["object_type"].strip(),
                           object_id=data["object_id"].strip(), since=data["since"], until=data["until"])


class FacilityChoiceField(forms.ModelChoiceField):
    """A facility named as the rows name it: in the page's language when known (``facility_label``)."""

    def label_from_instance(self, obj: Any) -> str:
        return facility_label(obj)


class CandidateFilterForm(forms.Form):
    """Narrow a report's ranked cases: facility, the day photographed, sex."""

    facility = FacilityChoiceField(label=_("Facility"), queryset=Facility.objects.order_by("number", "code"),
                                   required=False, to_field_name="code")
    since = forms.DateField(label=_("Photographed from"), required=False, widget=DATE)
    until = forms.DateField(label=_("Photographed until"), required=False, widget=DATE)
    sex = forms.ChoiceField(label=_("Sex"), required=False, choices=[("", "—"), *Sex.choices])



class IngestForm(forms.Form):
    """An archivist's request to ingest a folder already on the server (checked by the domain)."""

    folder = forms.CharField(label=_("Folder on the server"), max_length=1024,
                             help_text=_("Its full path, or its path inside the folder the operator set aside "
                                         "for archives."),
                             widget=forms.TextInput(attrs={"dir": "ltr", "autocomplete": "off", "spellcheck": "false"}))
    archive = forms.CharField(label=_("Archive name"), max_length=200,
                              help_text=_("An existing archive's name adds the files to it."))
    faces = forms.BooleanField(label=_("Also find the faces in the new photos (slower)"), required=False,
                               initial=True)
