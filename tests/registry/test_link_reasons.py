"""A linkage pair's reasons, written in English by the model, read in the reviewer's language."""

from __future__ import annotations

from django.utils import translation

from athar.matching.linkage.clustering import AMBIGUOUS_REASON
from athar.matching.linkage.link import (
    BORN_THERE_NOTE,
    COMPARISON_NAMES,
    FATHER_AS_FAMILY_LEVEL,
    GUARDS,
    KUNYA_LEVEL,
    KUNYA_NOTE,
    MARRIED_NAME_LEVEL,
    MONTHS_APART,
    ONLY_CANDIDATES_NOTE,
    OTHER_TOWN_LEVEL,
    PLACE_NOTE,
    SIBLING_NOTE,
    SLIP_LEVEL,
    TOWNSFOLK_NOTE,
)
from athar.matching.linkage.readings import READING_NOTE, TWO_READINGS_NOTE
from athar.matching.linkage.settings import comparisons
from athar.registry.link_reasons import KNOWN, readable

WHY = ("first name: same name (+7.2); father's name: slipped copy (cut short or mistyped): not counted (+0.0); "
       "birth year: one year apart (-0.4); fathers' names differ (namesakes?); "
       "kept apart: sexes differ (reports 12 and 40); city: some newer label (+1.0)")


def test_each_part_is_translated_with_its_weight_kept_as_written():
    with translation.override("ar"):
        reasons = readable({"why": WHY})
    assert [r.text for r in reasons] == [
        "الاسم الأول: الاسم نفسه", "اسم الأب: نسخة فيها خطأ (مبتورة أو خطأ في الكتابة): لم تُحتسب",
        "سنة الولادة: بفارق سنة واحدة", "اسما الأبوين مختلفان (تشابه أسماء؟)", "أُبقيا منفصلين: الجنسان مختلفان",
        "المدينة: some newer label"]
    assert [r.weight for r in reasons] == ["+7.2", "+0.0", "-0.4", "", "", "+1.0"]
    assert [r.known for r in reasons] == [True, True, True, True, True, False]  # nothing dropped


def test_english_reads_as_the_model_wrote_it():
    with translation.override("en"):
        assert [r.text for r in readable({"why": "first name: same name (+7.2)"})] == ["first name: same name"]
    assert readable({}) == [] and readable(None) == [] and readable({"why": " ; "}) == []


def test_the_vocabulary_covers_every_comparison_and_level_of_the_model():
    """A new comparison or level label in the model must be added to the vocabulary (and the catalogue)."""
    levels = [level for comp in comparisons() for level in comp.get_comparison("duckdb").as_dict()["comparison_levels"]]
    labels = {level["label_for_charts"] for level in levels if not level.get("is_null_level")}
    words = set(COMPARISON_NAMES.values()) | labels | {SLIP_LEVEL} | set(GUARDS.values())
    words |= set(PLACE_NOTE.split(": "))  # "places: counted once (…)" reads as a comparison and its level
    words |= set(READING_NOTE.rsplit(" (", 1)[0].split(": ")) | {ONLY_CANDIDATES_NOTE}  # (twelfth session)
    words |= set(TWO_READINGS_NOTE.rsplit(" (", 1)[0].split(": ")) | {MONTHS_APART}  # (thirteenth session)
    words |= {SIBLING_NOTE, TOWNSFOLK_NOTE, KUNYA_NOTE, KUNYA_LEVEL}  # (eighteenth and nineteenth sessions)
    words |= set(BORN_THERE_NOTE.split(": "))
    words |= {AMBIGUOUS_REASON}  # (twenty-first session) a reason a pair is kept apart
    words |= {FATHER_AS_FAMILY_LEVEL}  # (twenty-second session)
    words |= {OTHER_TOWN_LEVEL, MARRIED_NAME_LEVEL}  # (twenty-third session)
    assert words - KNOWN == set()


def test_a_family_name_that_is_the_others_father_reads_in_arabic():
    with translation.override("ar"):
        (reason,) = readable({"why": f"family name: {FATHER_AS_FAMILY_LEVEL} (+0.0)"})
    assert reason.known and "اسم الأب" in reason.text and "father" not in reason.text


def test_a_nisba_of_the_other_town_and_a_womans_two_family_names_read_in_arabic():
    with translation.override("ar"):
        town, married = readable({"why": f"family name: {OTHER_TOWN_LEVEL} (+0.0); family name: {MARRIED_NAME_LEVEL} (+0.0)"})
    assert town.known and married.known
    assert "نسبة" in town.text and "nisba" not in town.text
    assert "زوجها" in married.text and "husband" not in married.text


def test_a_bare_name_set_aside_between_two_namesakes_reads_in_arabic():
    with translation.override("ar"):
        reasons = readable({"why": f"first name: same name (+7.2); kept apart: {AMBIGUOUS_REASON}"})
    assert [r.known for r in reasons] == [True, True]
    assert "أيّهما المقصود" in reasons[1].text and "kept apart" not in reasons[1].text


def test_a_birth_place_and_a_kunya_read_in_arabic():
    with translation.override("ar"):
        born, kunya, note = readable({"why": f"{BORN_THERE_NOTE} (+4.0); first name: {KUNYA_LEVEL} (+0.0); {KUNYA_NOTE}"})
    assert (born.text, born.weight, born.known) == ("الأماكن: مكان ولادة أحد التقريرين هو بلدة الآخر", "+4.0", True)
    assert kunya.known and note.known and "كنية" in kunya.text and "للمراجعة" in note.text


def test_two_second_readings_and_months_apart_read_in_arabic():
    with translation.override("ar"):
        readings, months = readable({"why": f"{TWO_READINGS_NOTE}; arrest date: {MONTHS_APART} (-0.9)"})
    assert readings.known and readings.weight == "-6.0" and readings.text.startswith("قراءتان ثانيتان للاسمين: ")
    assert months.known and months.text == "تاريخ الاعتقال: السنة نفسها، والشهران متباعدان" and months.weight == "-0.9"


def test_a_second_reading_and_an_only_candidates_link_read_in_arabic():
    with translation.override("ar"):
        reading, lifted = readable({"why": f"{READING_NOTE}; {ONLY_CANDIDATES_NOTE}"})
    assert reading.known and reading.weight == "-3.0" and reading.text.startswith("قراءة ثانية للاسم: ")
    assert lifted.known and lifted.text.endswith("رُبطا")


def test_the_places_counted_once_read_in_arabic():
    with translation.override("ar"):
        (reason,) = readable({"why": "places: counted once (town, governorate, birth place) (+5.1)"})
    assert (reason.text, reason.weight, reason.known) == ("الأماكن: احتُسبت مرة واحدة (البلدة، المحافظة، مكان الولادة)", "+5.1", True)


def test_every_word_has_its_arabic():
    with translation.override("ar"):
        untranslated = [w for w in KNOWN if translation.gettext(w) == w]
    assert untranslated == []


def test_a_fact_each_side_agrees_on_reads_in_arabic_with_its_values():
    from athar.matching.linkage.constraints import ReportFacts, corroborated_conflict

    def arrested(ym: tuple[int, int]) -> ReportFacts:
        return ReportFacts((None, None, None), None, None, arrest_ym=ym[0] * 12 + ym[1] - 1, arrest_year=ym[0])

    reason = corroborated_conflict([arrested((2013, 5))] * 2, [arrested((2014, 6))] * 2)
    with translation.override("ar"):
        (kept,) = readable({"why": f"kept apart: {reason}"})
    assert kept.known and kept.text == "أُبقيا منفصلين: شهرا الاعتقال مختلفان، وكل منهما يذكره تقريران من جهته (2013-05 / 2014-06)"
    with translation.override("en"):
        (kept,) = readable({"why": f"kept apart: {reason}"})
    assert kept.text == "kept apart: arrest months differ, each stated by two reports of its side (2013-05 / 2014-06)"


def test_a_fact_many_reports_of_one_side_agree_on_reads_in_arabic_with_its_values():
    from athar.matching.linkage.constraints import ReportFacts, corroborated_conflict

    def born(year: int) -> ReportFacts:
        return ReportFacts((None, None, None), None, year)

    reason = corroborated_conflict([born(1988)] * 4, [born(1992)])
    with translation.override("ar"):
        (kept,) = readable({"why": f"kept apart: {reason}"})
    assert kept.known
    assert kept.text == "أُبقيا منفصلين: سنتا الولادة مختلفتان، وتتفق عليها تقارير جهة واحدة (عددها لا يقل عن 4) (1988 / 1992)"
