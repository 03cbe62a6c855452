"""Counts in Arabic take the form of their number (six forms: none, one, two, a few, many, other),
never one form for every count ("استُورد 3 بلاغ"); and families and staff are addressed in one form,
the respectful plural (the catalogue's own rule), with buttons named by the action itself."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation
from django.utils.translation import ngettext

from tests.web.test_arabic_everywhere import CATALOGUE, po_strings

# A count followed by a plural noun, in a message without plural forms, is a count said in one form.
COUNT_NOUN = re.compile(r"%\((?!role\b|name\b|kind\b)\w+\)s (?:\w+ ){0,2}(?:reports|rows|cases|values|hours|months|years|photos|families|"
                        r"events|files|faces|days|minutes|people|codes|accounts|pairs|conflicts|claims|versions)\b")
# The singular "you" of Arabic (pronoun suffixes and verbs of a single addressee) that the
# catalogue had mixed with the plural; each was once in a message a family or staff member reads.
SINGULAR_YOU = ["يمكنك", "لديك", "حسابك", "لحسابك", "هاتفك", "بلاغاتك", "أعطاك", "جلستك", "بياناتك", "قرارك",
                "مراجعتك", "حكمك", "منك", "قائمتك", "سببك", "أنك", "باسمك", "ستدخل", "اكتبه", "أنشئ", "فاستعمله",
                "أردت", "ضع", "اعكس", "قرّرتَ", "اطلب", "أعد", "احفظ", "أضف", "امحُ", "افتح", "سجّل", "ابدأ", "قدّمتَ"]
SINGULAR = re.compile(r"(?<![\u0600-\u06FF])و?(?:" + "|".join(SINGULAR_YOU) + r")(?![\u0600-\u06FF])")


def entries() -> list[dict[str, object]]:
    """Each message of the catalogue: its id, plural id (or ''), and translations."""
    out = []
    for block in CATALOGUE.read_text(encoding="utf-8").split("\n\n"):
        ids = po_strings(block, r"^msgid")
        if ids and ids[0]:
            out.append({"id": ids[0], "plural": (po_strings(block, r"^msgid_plural") or [""])[0],
                        "strs": po_strings(block, r"^msgstr(?:\[\d\])?")})
    return out


# In Arabic a number followed by its noun takes the noun's form; a number said as a label
# ("الأصول (12)", "وعددها 12", "عدد الأحداث: 12") needs none.
NUMBER_THEN_WORD = re.compile(r"%\(\w+\)s [\u0600-\u06FF]")


def test_every_count_said_in_words_has_plural_forms() -> None:
    """A count with its noun is a plural message, or its Arabic says the number as a label."""
    one_form = [e["id"] for e in entries() if not e["plural"] and COUNT_NOUN.search(str(e["id"]))
                and any(NUMBER_THEN_WORD.search(s) for s in e["strs"])]
    assert one_form == []


def test_the_checker_finds_a_count_in_one_form() -> None:
    assert COUNT_NOUN.search("%(n)s reports imported") and COUNT_NOUN.search("for %(hours)s hours; an earlier")
    assert not COUNT_NOUN.search("Branch %(number)s — %(name)s")
    assert NUMBER_THEN_WORD.search("استُورد %(n)s بلاغ") and not NUMBER_THEN_WORD.search("تُعرض الأزواج، وعددها %(n)s.")


@pytest.mark.parametrize(("n", "expected"), [(1, "استُورد بلاغ واحد"), (2, "استُورد بلاغان"),
                                             (3, "استُوردت 3 بلاغات"), (11, "استُورد 11 بلاغاً"),
                                             (100, "استُورد 100 بلاغ")])
def test_imported_reports_are_counted_in_the_form_of_their_number(n: int, expected: str) -> None:
    with translation.override("ar"):
        assert ngettext("%(n)s report imported", "%(n)s reports imported", n) % {"n": n} == expected


@pytest.mark.django_db
def test_the_import_page_counts_three_reports_in_arabic(client_for, world) -> None:
    rows = "report_id,full_name_ar,birth_year\nP1,سامر علي,1980\nP2,خالد سعيد,1975\nP3,رامي حسن,1990\n"
    page = client_for(world.caseworker).post(reverse("web:import"), {
        "file": SimpleUploadedFile("list.csv", rows.encode(), "text/csv"), "source": "ngo"}).content.decode()
    assert "استُوردت 3 بلاغات" in page and "استُورد 3 بلاغ<" not in page


def test_one_form_of_address_across_the_catalogue() -> None:
    singular = {str(e["id"])[:80]: SINGULAR.findall(s) for e in entries() for s in e["strs"] if SINGULAR.search(s)}
    assert singular == {}


def test_the_address_checker_finds_the_singular() -> None:
    assert SINGULAR.findall("ليس لديك رمز دعوة؟ أنشئ حساباً") == ["لديك", "أنشئ"]
    assert not SINGULAR.search("ليس لديكم رمز دعوة؟ أنشئوا حساباً برقم هاتفكم. سجّلوا الدخول")
