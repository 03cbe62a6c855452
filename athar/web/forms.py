"""Forms of the web pages: the report in short steps, consent, claims, decisions, case edits."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from athar.archive.models import Case
from athar.core.dates import ARABIC_DIGITS

# Numbers as people type them: a text input (a browser's number input silently drops ١٩٧١) that
# opens the phone's digit keyboard and accepts Western, Arabic-Indic and Persian digits.
DIGITS_PATTERN = "[0-9\u0660-\u0669\u06F0-\u06F9]*"
NUMBER_ATTRS = {"inputmode": "numeric", "pattern": DIGITS_PATTERN, "autocomplete": "off", "dir": "ltr"}


def western_digits(text: str) -> str:
    """١٩٧١ and ۱۹۷۱ as 1971 (athar.core.dates.ARABIC_DIGITS, the one digit table)."""
    return text.strip().translate(ARABIC_DIGITS)


class NumberField(forms.IntegerField):
    """A whole number typed with any of the three digit sets; a clear error for anything else."""

    default_error_messages = {
        "invalid": _("Write a number with digits only, for example 1971 or ١٩٧١."),
        "min_value": _("The number must be at least %(limit_value)s."),
        "max_value": _("The number must be at most %(limit_value)s."),
    }

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("widget", forms.TextInput(attrs=dict(NUMBER_ATTRS)))
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> int | None:
        if isinstance(value, str):
            value = western_digits(value)
            if value and not value.isascii():
                raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)


class DigitsTextField(forms.CharField):
    """A number that may hold other signs (a detainee number such as ٢١٥/١٢٣٤): kept as typed, its
    digits written the one way so that staff find it and the ranking compares it."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off", "dir": "ltr"}))
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> str:
        return western_digits(super().to_python(value) or "")


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleImageField(forms.FileField):
    def clean(self, data: Any, initial: Any = None) -> list[Any]:
        single = super().clean
        if isinstance(data, (list, tuple)):
            return [single(d, initial) for d in data if d]
        return [single(data, initial)] if data else []


class ConsentForm(forms.Form):
    face_processing = forms.BooleanField(
        required=False, label=_("I agree that athar finds the face in the photos I give and compares it with the faces in the archives."),
        help_text=_("Without this, athar compares only names, dates, places and marks. You can withdraw it at any time."))
    publication = forms.BooleanField(
        required=False, label=_("If he or she is identified, the name may be published on the list of identified people (never a photo)."))


class PersonForm(forms.Form):
    full_name_ar = forms.CharField(label=_("Full name in Arabic letters"), max_length=300, required=False,
                                   widget=forms.TextInput(attrs={"dir": "rtl", "lang": "ar", "autocomplete": "off"}))
    full_name_latin = forms.CharField(label=_("Full name in Latin letters"), max_length=300, required=False,
                                      widget=forms.TextInput(attrs={"dir": "ltr", "lang": "en", "autocomplete": "off"}))
    father_name = forms.CharField(label=_("Father's name"), max_length=120, required=False)
    mother_name = forms.CharField(label=_("Mother's name and family"), max_length=200, required=False)
    sex = forms.ChoiceField(label=_("Sex"), choices=[("M", _("male")), ("F", _("female")), ("U", _("I do not know"))],
                            widget=forms.RadioSelect,  # nothing chosen for the family: "I do not know" is an answer
                            error_messages={"required": _("Choose one answer; \"I do not know\" is fine.")})

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("full_name_ar") and not data.get("full_name_latin"):
            raise forms.ValidationError(_("Write the name in Arabic or in Latin letters."))
        return data


class BirthForm(forms.Form):
    birth_year = NumberField(label=_("Year of birth"), min_value=1900, max_value=2030, required=False,
                             help_text=_("An approximate year is fine."))
    birth_year_approximate = forms.BooleanField(label=_("The year is approximate"), required=False)
    governorate = forms.ChoiceField(label=_("Home governorate"), required=False)
    city = forms.CharField(label=_("Hometown, town or village"), max_length=120, required=False,
                           widget=forms.TextInput(attrs={"list": "places"}))

    def __init__(self, *args: Any, governorates: list[tuple[str, str]] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["governorate"]).choices = [("", "—")] + (governorates or [])


PRECISION_CHOICES = [("day", _("exact day")), ("month", _("month only")), ("year", _("year only")),
                     ("unknown", _("not known"))]


class ArrestForm(forms.Form):
    arrest_year = NumberField(label=_("Year of arrest"), min_value=1970, max_value=2030, required=False)
    arrest_month = NumberField(label=_("Month (1–12), if known"), min_value=1, max_value=12, required=False)
    arrest_day = NumberField(label=_("Day, if known"), min_value=1, max_value=31, required=False)
    arrest_place = forms.CharField(label=_("Place of arrest"), max_length=200, required=False,
                                   widget=forms.TextInput(attrs={"list": "places"}))
    arresting_agency = forms.CharField(label=_("Agency or branch that arrested him or her, if known"), max_length=200,
                                       required=False, help_text=_("For example: Branch 215, Palestine Branch, Air Force Intelligence."),
                                       widget=forms.TextInput(attrs={"list": "agencies"}))
    detainee_number = DigitsTextField(label=_("His or her detainee number, if you know it"), max_length=40,
                                      required=False, help_text=_("The number a released detainee or a document gave you. Leave it empty if you do not know it."))

    def clean(self) -> dict[str, Any]:
        import datetime as dt

        data = super().clean() or {}
        year, month, day = data.get("arrest_year"), data.get("arrest_month"), data.get("arrest_day")
        if (month or day) and not year:
            raise forms.ValidationError(_("Give the year of arrest too."))
        if day and not month:
            raise forms.ValidationError(_("Give the month too, or leave the day empty."))
        data["arrest_date"] = None  # a year taken out takes the date out of the draft too
        if year:
            try:
                data["arrest_date"] = dt.date(year, month or 1, day or 1)
            except ValueError:
                raise forms.ValidationError(_("This date does not exist.")) from None
            data["arrest_date_precision"] = "day" if day else "month" if month else "year"
        return data


class MarksForm(forms.Form):
    distinguishing_marks = forms.CharField(
        label=_("Distinguishing marks"), required=False, widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("Tattoos and what they show, scars, burns, missing or gold teeth, old fractures — and where on the body, with the side if you know it."))
    reporter_relation = forms.CharField(label=_("Your relation to him or her"), max_length=120, required=False)


class DetailsForm(forms.Form):
    """What forensic teams use and families often know (all optional)."""

    height_cm = NumberField(label=_("Height in centimetres, if you know it"), min_value=50, max_value=250,
                            required=False, help_text=_("An approximate height is fine, for example 175."))
    build = forms.ChoiceField(label=_("Build"), required=False, widget=forms.RadioSelect,
                              choices=[("slim", _("slim")), ("medium", _("medium")), ("heavy", _("heavy")),
                                       ("", _("I do not know"))])
    clothing = forms.CharField(label=_("Clothing at the arrest"), required=False, widget=forms.Textarea(attrs={"rows": 2}),
                               help_text=_("What he or she wore that day, with colours, if you know."))
    belongings = forms.CharField(label=_("Belongings at the arrest"), required=False, widget=forms.Textarea(attrs={"rows": 2}),
                                 help_text=_("A watch, a ring, a chain, glasses, papers…"))
    dental = forms.CharField(label=_("Teeth"), required=False, widget=forms.Textarea(attrs={"rows": 2}),
                             help_text=_("Missing, broken or gold teeth, a crown, a bridge — and where in the mouth."))
    medical = forms.CharField(label=_("Medical details"), required=False, widget=forms.Textarea(attrs={"rows": 2}),
                              help_text=_("Old fractures, operations, a metal plate or pin, an illness — with the side of the body if you know."))


class CheckForm(forms.Form):
    """The summary step: nothing to fill in, a button to go on."""


class PhotosForm(forms.Form):
    photos = MultipleImageField(
        label=_("Photos of him or her alive"), required=False,
        help_text=_("The most recent photos, with the face visible. Two or more help a lot. Photos straight from the phone (also HEIC) are fine."),
        widget=MultipleFileInput(attrs={"accept": "image/*,.heic,.heif"}))


class FamilyField(forms.ModelChoiceField):
    """A family account, shown by its name or else its login."""

    def label_from_instance(self, obj: Any) -> str:
        return str(obj.display_name or obj.login)


class FamilyChoiceForm(forms.Form):
    family = FamilyField(label=_("Family this report is for"), queryset=None, required=False,
                         empty_label=_("No account yet (I keep the report)"))

    def __init__(self, *args: Any, families: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(FamilyField, self.fields["family"]).queryset = families


class ClaimForm(forms.Form):
    verdict = forms.ChoiceField(choices=[("yes", _("This is him / her")), ("no", _("This is not him / her")),
                                         ("unsure", _("I am not sure"))], widget=forms.RadioSelect, label=_("Your answer"))


class DecisionForm(forms.Form):
    decision = forms.ChoiceField(label=_("Decision"), widget=forms.RadioSelect, choices=[
        ("approve", _("Approve: the case is this person")), ("reject", _("Reject: not shown to be this person"))])
    reason = forms.CharField(label=_("Reason (required)"), widget=forms.Textarea(attrs={"rows": 3}), max_length=4000)


class CaseForm(forms.ModelForm):
    class Meta:
        model = Case
        fields = ["detainee_number", "hospital_number", "photographed", "photographed_precision", "sex",
                  "age_min", "age_max", "marks", "notes"]
        field_classes = {"age_min": NumberField, "age_max": NumberField, "detainee_number": DigitsTextField,
                         "hospital_number": DigitsTextField}
        labels = {"photographed_precision": _("How precise the day photographed is")}  # the model has no label
        widgets = {"photographed": forms.DateInput(attrs={"type": "date"}), "marks": forms.Textarea(attrs={"rows": 3}),
                   "notes": forms.Textarea(attrs={"rows": 3})}

    def clean(self) -> dict[str, Any]:
        """An age range in order: "from" never above "to" (60 to 20 is refused, not swapped)."""
        data = super().clean() or {}
        low, high = data.get("age_min"), data.get("age_max")
        if low is not None and high is not None and low > high:
            self.add_error("age_max", _("The estimated age “to” (%(high)s) is below “from” (%(low)s): give the "
                                        "lower age first.") % {"low": low, "high": high})
        return data


class ImportForm(forms.Form):
    file = forms.FileField(label=_("List of reports (CSV or Excel)"), widget=forms.ClearableFileInput(attrs={"accept": ".csv,.xlsx"}))
    source = forms.CharField(label=_("Source name"), max_length=200, required=False,
                             help_text=_("Who compiled the list, for example the name of your organisation."))


class RecordedConsentForm(forms.Form):
    """A caseworker records the family's answer on publication, given on paper, by phone or in person."""

    publication = forms.TypedChoiceField(
        label=_("The family's answer on publication"), widget=forms.RadioSelect, coerce=lambda v: v == "yes",
        choices=[("yes", _("agrees that the name may be published once the family is told")),
                 ("no", _("does not agree, or withdraws its agreement"))])
    method = forms.ChoiceField(label=_("How the family said so"), widget=forms.RadioSelect,
                               choices=[("paper", _("on paper")), ("phone", _("by phone")),
                                        ("in_person", _("in person"))])
    given_on = forms.DateField(label=_("Day the family said so"), required=False,
                               widget=forms.DateInput(attrs={"type": "date"}))
    words = forms.CharField(label=_("The family's own words (optional, kept encrypted)"), required=False,
                            max_length=4000, widget=forms.Textarea(attrs={"rows": 3}))


class InformedForm(forms.Form):
    """The caseworker records that a family was told, in person or by phone (never what was said)."""

    informed_on = forms.DateField(label=_("Day the family was told"), widget=forms.DateInput(attrs={"type": "date"}))
    method = forms.ChoiceField(label=_("How"), widget=forms.RadioSelect,
                               choices=[("in_person", _("in person")), ("phone", _("by phone"))])
