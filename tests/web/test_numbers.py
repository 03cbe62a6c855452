"""Numbers as people type them: Arabic-Indic and Persian digits in every number field."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from athar.registry.models import Report
from athar.web.forms import ArrestForm, BirthForm, CaseForm, NumberField


def test_number_field_reads_every_digit_set():
    field = NumberField(min_value=1900, max_value=2030, required=False)
    assert field.clean("١٩٧١") == 1971
    assert field.clean("۱۹۷۱") == 1971
    assert field.clean(" 1971 ") == 1971
    assert field.clean("") is None


@pytest.mark.parametrize("typed", ["سبعين", "1971a", "١٩٧١.٥", "abc"])
def test_a_word_is_refused_with_a_clear_arabic_error(typed):
    form = BirthForm({"birth_year": typed})
    assert not form.is_valid()
    assert form.errors["birth_year"] == ["اكتبوا رقماً بالأرقام فقط، مثلاً 1971 أو ١٩٧١."]


def test_number_inputs_are_text_with_a_numeric_keyboard():
    for form in (BirthForm(), ArrestForm()):
        html = str(form)
        assert 'type="number"' not in html
        for name in [n for n, f in form.fields.items() if isinstance(f, NumberField)]:
            tag = re.search(rf'<input[^>]*name="{name}"[^>]*>', html).group(0)
            assert 'type="text"' in tag and 'inputmode="numeric"' in tag and "pattern=" in tag


@pytest.mark.django_db
def test_case_edit_reads_arabic_digits_in_ages():
    form = CaseForm({"sex": "M", "age_min": "٢٠", "age_max": "۳۰", "photographed_precision": "unknown",
                     "detainee_number": "٢١٥/١٢٣"})
    form.is_valid()
    assert form.cleaned_data["age_min"] == 20 and form.cleaned_data["age_max"] == 30
    assert form.cleaned_data["detainee_number"] == "215/123"
    assert 'type="number"' not in str(form["age_min"])


@pytest.mark.django_db
def test_family_types_the_birth_year_in_arabic_digits(client_for, world):
    client = client_for(world.family)
    client.get(reverse("web:report_new"))
    step = lambda name, data: client.post(reverse("web:report_step", kwargs={"step": name}), data)  # noqa: E731
    step("consent", {"face_processing": "on"})
    step("person", {"full_name_ar": "سامر حداد", "sex": "M"})
    page = step("birth", {"birth_year": "سنة", "governorate": ""})
    assert page.status_code == 200 and "اكتبوا رقماً" in page.content.decode()  # refused, not skipped
    assert step("birth", {"birth_year": "١٩٧١", "governorate": ""}).status_code == 302
    assert step("arrest", {"arrest_year": "۲۰۱۲", "arrest_month": "٣", "detainee_number": "١٢٣٤"}).status_code == 302
    client.post(reverse("web:report_step", kwargs={"step": "marks"}), {})
    client.post(reverse("web:report_step", kwargs={"step": "photos"}), {})
    report = Report.objects.get(full_name_ar="سامر حداد")
    assert report.birth_year == 1971 and report.arrest_date.isoformat() == "2012-03-01"
    assert report.detainee_number == "1234"
