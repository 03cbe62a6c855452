"""Forms of the number pages: an archivist's decision on one suggestion, the bulk confirmation,
and a caseworker's search by a number a family quotes."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from athar.archive.models import NumberReading
from athar.web.forms import NUMBER_ATTRS, western_digits

DECISIONS = [("confirm", _("Confirm")), ("correct", _("Correct")), ("reject", _("Reject"))]


class WrittenNumberField(forms.CharField):
    """A number written in the photo, typed in Western or Arabic-Indic digits, kept in Western."""

    default_error_messages = {"invalid": _("Write a number with digits only, for example 1971 or ١٩٧١.")}

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("widget", forms.TextInput(attrs=dict(NUMBER_ATTRS)))
        kwargs.setdefault("max_length", 32)
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> str:
        text = western_digits(super().to_python(value) or "")
        if text and (not text.isdigit() or not text.isascii() or len(text) > 16):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return text


class NumberDecisionForm(forms.Form):
    """Confirm, correct (the number as the photo shows it, and why) or reject one suggestion."""

    decision = forms.ChoiceField(label=_("Decision"), choices=DECISIONS)
    kind = forms.ChoiceField(label=_("What the number is"), required=False,
                             choices=[("", _("as read"))] + list(NumberReading.Kind.choices))
    number = WrittenNumberField(label=_("The number the photo shows"), required=False)
    reason = forms.CharField(label=_("Reason"), required=False, max_length=500,
                             widget=forms.TextInput(attrs={"autocomplete": "off"}))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("decision") == "correct":
            if not data.get("number"):
                self.add_error("number", _("Write the number the photo shows."))
            if not str(data.get("reason") or "").strip():
                self.add_error("reason", _("A correction needs a reason: what the photo shows that the reader missed."))
        return data


class BulkConfirmForm(forms.Form):
    """The easy suggestions the archivist ticked."""

    readings = forms.TypedMultipleChoiceField(label=_("Suggestions to confirm"), coerce=int, choices=[],
                                              widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args: Any, choices: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["readings"]
        assert isinstance(field, forms.TypedMultipleChoiceField)  # declared above
        field.choices = choices


class NumberSearchForm(forms.Form):
    number = WrittenNumberField(label=_("The number the family quotes"), required=True)
