"""``athar registry import``: encodings, Arabic headers, bad rows, re-import and versions."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from openpyxl import Workbook

from athar.audit.models import AuditEvent
from athar.registry import keys
from athar.registry.importing import contact_owner, import_reports
from athar.registry.models import Report
from athar.registry.photos import read_photo

pytestmark = pytest.mark.django_db
HEADER = ["report_id", "full_name_ar", "full_name_latin", "sex", "birth_year", "governorate", "city",
          "arrest_date", "arresting_agency", "reporter_relation"]
ROWS = [
    ["R1", "محمود أحمد السالم", "Mahmoud Ahmad al-Salem", "ذكر", "1985", "ريف دمشق", "دوما", "2012-03", "فرع 215", "أخ"],
    ["R2", "محمود احمد سالم", "", "M", "1985", "Rif Dimashq", "Douma", "2012", "215", "أم"],
    ["R3", "", "Mhd Al Salim", "m", "", "", "", "", "", ""],
]


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1256"])
def test_arabic_file_in_every_encoding(write_csv: Callable[..., Path], encoding: str) -> None:
    path = write_csv(HEADER, ROWS, encoding=encoding)
    result = import_reports(path, source="hotline")
    assert (result["imported"], result["rejected"]) == (3, [])
    first = Report.objects.get(report_id="R1")
    assert first.full_name_ar == "محمود أحمد السالم"
    assert first.sex == "M" and first.birth_year == 1985 and first.reporter_relation == "أخ"
    assert first.arrest_date.isoformat() == "2012-03-01" and first.arrest_date_precision == "month"
    assert first.governorate_ref.pcode == "SY03"
    assert Report.objects.get(report_id="R2").governorate_ref.pcode == "SY03"
    assert result["format"] == ("csv:cp1256" if encoding == "cp1256" else "csv:utf-8-sig")


def test_arabic_headers(write_csv: Callable[..., Path]) -> None:
    path = write_csv(["رقم البلاغ", "الاسم الكامل بالعربية", "اسم الأم", "الجنس", "سنة الولادة", "المحافظة"],
                     [["7", "سامر خالد الحسن", "فاطمة العلي", "ذكر", "١٩٩٠", "حمص"]])
    result = import_reports(path, source="org")
    assert result["imported"] == 1 and not result["warnings"]
    report = Report.objects.get()
    assert (report.report_id, report.mother_name, report.birth_year) == ("7", "فاطمة العلي", 1990)
    assert report.governorate_ref.name_en == "Homs"


def test_headers_other_lists_write(write_csv: Callable[..., Path]) -> None:
    """(issue 28, twelfth session) A "full_name" column — the commonest header of a name in English
    lists — refused the whole file ("no name column"); "name" put Arabic names in the Latin field. A
    name of either script now goes to its own field by its letters; Syrian lists' headers (الشهرة,
    المواليد) and English ones (dob, date_of_detention, arrested_by) are read."""
    path = write_csv(["id", "full_name", "الشهرة", "المواليد", "mothers_name", "town", "date_of_detention",
                      "arrested_by"],
                     [["1", "سامر خالد الحسن", "الحسن", "1990", "فاطمة العلي", "حمص", "2012-03", "فرع 215"],
                      ["2", "Samer Khaled al-Hasan", "Hasan", "1990", "", "Homs", "2012", "215"]])
    result = import_reports(path, source="org")
    assert result["imported"] == 2 and not result["warnings"], result
    arabic, latin = Report.objects.get(report_id="1"), Report.objects.get(report_id="2")
    assert (arabic.full_name_ar, arabic.full_name_latin, latin.full_name_ar, latin.full_name_latin) == (
        "سامر خالد الحسن", "", "", "Samer Khaled al-Hasan")
    assert (arabic.family_name, arabic.birth_year, arabic.mother_name, arabic.city) == ("الحسن", 1990, "فاطمة العلي", "حمص")
    assert arabic.arrest_date.isoformat() == "2012-03-01" and arabic.arresting_agency == "فرع 215"
    path = write_csv(["name", "dob"], [["محمود أحمد السالم", "1985"]], name="names.csv")
    import_reports(path, source="org")
    assert Report.objects.get(full_name_ar="محمود أحمد السالم").full_name_latin == ""


def test_only_nameless_and_duplicate_rows_are_refused(write_csv: Callable[..., Path]) -> None:
    """Unreadable sex, year, date, or a birth after the arrest: the report goes in, the value is kept
    verbatim under its column with a warning naming row and column."""
    rows = [
        ["B1", "", "", "M", "1980", "", "", "", "", ""],
        ["B2", "سامر علي", "", "X", "1980", "", "", "", "", ""],
        ["B3", "سامر علي", "", "M", "19x0", "", "", "", "", ""],
        ["B4", "سامر علي", "", "M", "1980", "", "", "2012-02-30", "", ""],
        ["B5", "سامر علي", "", "M", "2015", "", "", "2012", "", ""],
        ["B6", "سامر علي", "", "M", "1980", "", "", "", "", ""],
        ["B6", "سامر علي", "", "M", "1981", "", "", "", "", ""],
        ["B7", "رامي علي", "", "F", "1980", "", "", "", "", ""],
    ]
    result = import_reports(write_csv(HEADER, rows), source="s")
    reasons = {r["row"]: r["reason"] for r in result["rejected"]}
    assert set(reasons) == {2, 8}
    assert "no name" in reasons[2] and "duplicate" in reasons[8] and "row 7" in reasons[8]
    assert result["imported"] == 6
    kept = {(w["row"], w["column"], w["value"]) for w in result["value_warnings"]}
    assert kept == {(3, "sex", "X"), (4, "birth_year", "19x0"), (5, "arrest_date", "2012-02-30"),
                    (6, "birth_year", "2015")}
    b2 = Report.objects.get(report_id="B2")
    assert b2.sex == "U" and b2.extra == {"sex": "X"} and "sex: X" in b2.notes
    b4 = Report.objects.get(report_id="B4")
    assert b4.arrest_date is None and b4.extra == {"arrest_date": "2012-02-30"}
    assert Report.objects.get(report_id="B5").birth_year == 2015
    assert any("row 3, column sex" in w for w in result["warnings"])
    assert AuditEvent.objects.filter(action="registry.import").count() == 1


@pytest.mark.parametrize(("written", "status"), [
    ("مطلق سراح", "released"), ("محرر", "released"), ("أفرج عنه", "released"), ("افرج عنها", "released"),
    ("معتقل", "detained"), ("معتقلة", "detained"), ("مفقود", "missing"), ("مختفي قسرياً", "missing"),
    ("متوفى", "dead"), ("متوفية", "dead"), ("غير معروف", "unknown"), ("Released", "released"),
    ("in-custody", "detained"), ("forcibly disappeared", "missing"), ("Deceased", "dead"), ("", "unknown"),
    ("died in custody", "dead"), ("مجهول المصير", "missing"),
])
def test_statuses_families_write(written: str, status: str) -> None:
    from athar.registry.rows import parse_status

    assert parse_status(written) == status


@pytest.mark.parametrize(("written", "sex"), [
    ("ذكر", "M"), ("أنثى", "F"), ("انثي", "F"), ("Male", "M"), ("female", "F"), ("غير معروف", "U"),
    ("unknown", "U"), ("", "U"), ("?", "U"), ("بنت", "F"), ("M.", "M"),
])
def test_sex_as_written(written: str, sex: str) -> None:
    from athar.registry.rows import parse_sex

    assert parse_sex(written) == sex


def test_unknown_status_is_kept_verbatim(write_csv: Callable[..., Path]) -> None:
    path = write_csv(["report_id", "full_name_ar", "الحالة"], [["S1", "سامر علي", "نقل إلى صيدنايا"]])
    result = import_reports(path, source="s")
    assert result["imported"] == 1 and result["rejected"] == []
    assert result["value_warnings"][0] == {"row": 2, "column": "الحالة", "value": "نقل إلى صيدنايا",
                                           "reason": result["value_warnings"][0]["reason"]}
    report = Report.objects.get()
    assert report.reported_status == "unknown" and report.extra == {"الحالة": "نقل إلى صيدنايا"}


def test_reimport_adds_nothing_and_a_changed_row_is_a_new_version(write_csv: Callable[..., Path]) -> None:
    path = write_csv(HEADER, ROWS)
    import_reports(path, source="s")
    again = import_reports(path, source="s")
    assert (again["imported"], again["unchanged"]) == (0, 3)
    changed = [list(r) for r in ROWS]
    changed[0][4] = "1984"
    result = import_reports(write_csv(HEADER, changed, name="v2.csv"), source="s")
    assert (result["imported"], result["new_versions"], result["unchanged"]) == (1, 1, 2)
    versions = Report.objects.filter(report_id="R1").order_by("version")
    assert [(v.version, v.birth_year, v.is_current) for v in versions] == [(1, 1985, False), (2, 1984, True)]
    assert versions[1].supersedes == versions[0]
    assert versions[0].lineage == versions[1].lineage


def test_rows_without_an_id_are_identified_by_content(write_csv: Callable[..., Path]) -> None:
    path = write_csv(["full_name_ar", "birth_year"], [["محمود أحمد السالم", "1985"], ["خالد السالم", "1990"]])
    assert import_reports(path, source="s")["imported"] == 2
    assert import_reports(path, source="s")["unchanged"] == 2


def test_unknown_columns_go_to_notes_with_a_warning(write_csv: Callable[..., Path]) -> None:
    path = write_csv(["full_name_ar", "لون العينين", "notes"], [["محمود أحمد السالم", "بني", "يعرج قليلاً"]])
    result = import_reports(path, source="s")
    assert "لون العينين" in result["warnings"][0]
    report = Report.objects.get()
    assert "لون العينين: بني" in report.notes and "يعرج قليلاً" in report.notes
    assert report.extra == {"لون العينين": "بني"}


def test_contact_details_are_encrypted_at_rest(write_csv: Callable[..., Path]) -> None:
    path = write_csv(["report_id", "full_name_ar", "reporter_contact"], [["C1", "محمود السالم", "+963 944 123 456"]])
    import_reports(path, source="s")
    report = Report.objects.get()
    raw = bytes(report.reporter_contact)
    assert b"944" not in raw
    assert keys.decrypt_for(contact_owner(report.lineage), raw) == "+963 944 123 456"


def test_xlsx(tmp_path: Path) -> None:
    book = Workbook()
    sheet = book.active
    sheet.append(["report_id", "full_name_ar", "birth_year", "arrest_date"])
    sheet.append(["X1", "محمود أحمد السالم", 1985, "2012-03"])
    sheet.append([None, None, None, None])
    sheet.append(["X2", None, 1985, None])
    path = tmp_path / "reports.xlsx"
    book.save(path)
    result = import_reports(path, source="s")
    assert result["imported"] == 1 and result["format"] == "xlsx"
    assert result["rejected"] == [{"row": 4, "reason": "no name: a report needs at least a full name, "
                                                         "a first name or a family name"}]
    assert Report.objects.get().birth_year == 1985


SDF_HEADER = ["full_name", "date_of_detention", "last_seen_location", "detention_facility", "physical_description",
              "age_at_detention", "gender", "status", "contact_info", "additional_notes", "organization"]


def test_syrian_detainee_finder_format(write_csv: Callable[..., Path]) -> None:
    rows = [
        ["الاسم الكامل", "تاريخ الاعتقال", "آخر مكان شوهد فيه", "مكان الاحتجاز", "الوصف الجسدي",
         "العمر عند الاعتقال", "الجنس", "الحالة", "معلومات الاتصال", "ملاحظات إضافية", "المنظمة"],
        ["أحمد محمد علي", "2013-12-01", "حلب", "سجن حلب المركزي", "طويل القامة", "35", "ذكر", "معتقل",
         "0123456789", "تم اعتقاله من منزله", "منظمة حقوق الإنسان"],
        ["Omar Khaled", "2012-05", "Homs", "", "", "20", "male", "deceased", "", "", ""],
        ["Bad Age", "2012", "Homs", "", "", "old", "male", "missing", "", "", ""],
        ["سامر خالد", "", "درعا", "", "", "24", "غير معروف", "مطلق سراح", "", "", ""],
    ]
    result = import_reports(write_csv(SDF_HEADER, rows))
    assert any("second header row" in w for w in result["warnings"])
    assert result["imported"] == 4 and result["rejected"] == []
    assert [(w["row"], w["column"], w["value"]) for w in result["value_warnings"]] == [
        (5, "age_at_detention", "old")]
    ahmad = Report.objects.get(full_name_ar="أحمد محمد علي")
    assert (ahmad.birth_year, ahmad.birth_year_margin, ahmad.age_at_detention) == (1978, 1, 35)
    assert ahmad.arresting_agency == "سجن حلب المركزي" and ahmad.reported_status == "detained"
    assert ahmad.source == "منظمة حقوق الإنسان" and ahmad.arrest_place == "حلب"
    omar = Report.objects.get(full_name_latin="Omar Khaled")
    assert omar.reported_status == "dead" and omar.sex == "M" and omar.birth_year == 1992
    assert omar.source == "syrian-detainee-finder"
    samer = Report.objects.get(full_name_ar="سامر خالد")
    assert (samer.age_at_detention, samer.birth_year, samer.sex) == (24, None, "U")
    assert samer.reported_status == "released"


def test_an_age_in_the_birth_year_column_is_read_as_the_age_at_arrest(write_csv: Callable[..., Path]) -> None:
    """An activist's list writes ages where the year of birth goes ("عمره 27", "27 سنة", "31"): kept as
    written in a warning, and read as the age at arrest (a birth year from the arrest year, ± 1)."""
    rows = [["A1", "صالح الأحمد", "عمره 27", "2013-05"], ["A2", "محمد الفاعوري", "31", "كانون الأول 2013"],
            ["A3", "عبد الله المعضماني", "27 سنة", ""], ["A4", "ديما البكور", "بالعشرينات", "2015"]]
    result = import_reports(write_csv(["report_id", "full_name_ar", "birth_year", "arrest_date"], rows), source="s")
    assert result["imported"] == 4
    warned = {(w["row"], w["column"], w["value"]) for w in result["value_warnings"]}
    assert warned == {(2, "birth_year", "عمره 27"), (3, "birth_year", "31"), (4, "birth_year", "27 سنة"),
                      (5, "birth_year", "بالعشرينات")}
    ages = {r.report_id: (r.age_at_detention, r.birth_year, r.birth_year_margin) for r in Report.objects.all()}
    assert ages["A1"] == (27, 1986, 1) and ages["A2"] == (31, 1982, 1)
    assert ages["A3"][:2] == (27, None)  # no arrest year: the age alone
    assert ages["A4"][:2] == (None, None)  # "in his twenties": not guessed


def test_a_part_of_the_year_is_read_as_its_year_and_kept_as_written(write_csv: Callable[..., Path]) -> None:
    """"صيف 2014", "أواخر 2012": the year the writer stated, precision year, the words kept in a warning
    (and in the report's extra); an age beside it gives a birth year. "حوالي 2013" states no year."""
    rows = [["S1", "رنا الشيخ علي", "عمره 53", "شتاء 2015"], ["S2", "محمد الخياط", "", "أواخر ٢٠١٢"],
            ["S3", "سعيد عكاري", "", "حوالي 2013"], ["S4", "خالد طلاس", "", "صيف 2099"]]
    result = import_reports(write_csv(["report_id", "full_name_ar", "birth_year", "arrest_date"], rows), source="s")
    assert result["imported"] == 4
    reasons = {(w["row"], w["value"]): w["reason"] for w in result["value_warnings"] if w["column"] == "arrest_date"}
    assert reasons[(2, "شتاء 2015")] == reasons[(3, "أواخر ٢٠١٢")] == "a part of the year: read as the year"
    assert reasons[(4, "حوالي 2013")] != reasons[(2, "شتاء 2015")] != reasons[(5, "صيف 2099")]
    reports = {r.report_id: r for r in Report.objects.all()}
    assert (reports["S1"].arrest_date.year, reports["S1"].arrest_date_precision) == (2015, "year")
    assert (reports["S1"].age_at_detention, reports["S1"].birth_year) == (53, 1962)
    assert reports["S1"].extra["arrest_date"] == "شتاء 2015"
    assert (reports["S2"].arrest_date.year, reports["S2"].arrest_date_precision) == (2012, "year")
    assert reports["S3"].arrest_date is None and reports["S4"].arrest_date is None


def test_photos_are_stored_by_content(write_csv: Callable[..., Path], tmp_path: Path, settings) -> None:
    from PIL import Image

    Image.new("RGB", (64, 64), (200, 150, 100)).save(tmp_path / "a.jpg")
    Image.new("RGB", (64, 64), (20, 150, 100)).save(tmp_path / "b.png")
    path = write_csv(["report_id", "full_name_ar", "photos"],
                     [["P1", "محمود السالم", "a.jpg; b.png"], ["P2", "خالد السالم", "missing.jpg"],
                      ["P3", "سامر السالم", "../etc/passwd"]])
    result = import_reports(path, source="s")
    assert result["imported"] == 3 and result["rejected"] == []
    assert {(w["row"], w["value"]) for w in result["value_warnings"]} == {(3, "missing.jpg"), (4, "../etc/passwd")}
    assert Report.objects.get(report_id="P2").extra == {"photos": "missing.jpg"}
    assert not Report.objects.get(report_id="P3").photos.exists()
    photos = Report.objects.get(report_id="P1").photos.all()
    assert len(photos) == 2
    for photo in photos:
        lineage = photo.report.lineage  # the family uploads store, per report, sealed
        assert (settings.UPLOADS_ROOT / f"{lineage}/{photo.sha256}.original").exists()
        assert (settings.UPLOADS_ROOT / photo.derivatives["thumb"]).exists()
        assert read_photo(photo) == (tmp_path / photo.original_name).read_bytes()
        assert read_photo(photo, "thumb")[:2] == b"\xff\xd8"


def test_a_file_without_a_name_column_is_refused(write_csv: Callable[..., Path]) -> None:
    with pytest.raises(ValueError, match="no name column"):
        import_reports(write_csv(["report_id", "birth_year"], [["1", "1980"]]), source="s")


def test_the_detainee_number_column_is_a_field_of_the_report(write_csv: Callable[..., Path]) -> None:
    """A number the family knows goes to ``Report.detainee_number`` (Arabic digits read as digits
    when compared), under the template's Arabic header too; one longer than 40 characters is kept
    verbatim in ``extra`` with a warning (the report goes in)."""
    path = write_csv(["رقم البلاغ", "الاسم الكامل بالعربية", "رقم المعتقل"],
                     [["D1", "سامر خالد الحسن", "٣٤١٢"], ["D2", "خالد الحسن", "9" * 41]])
    result = import_reports(path, source="org")
    assert result["imported"] == 2 and result["rejected"] == []
    assert result["value_warnings"][0]["row"] == 3 and result["value_warnings"][0]["column"] == "رقم المعتقل"
    assert Report.objects.get(report_id="D1").detainee_number == "٣٤١٢"
    d2 = Report.objects.get(report_id="D2")
    assert d2.detainee_number == "" and d2.extra == {"رقم المعتقل": "9" * 41}
