"""Files as they reach athar: the peer registry's format (Syrian Detainee Finder) in UTF-8, Arabic
Windows-1256, Latin-1, and mojibake copies (UTF-8 shown through Windows-1252 or -1256 and saved
again). The rows below are written for these tests in that format: they are not real reports."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import ftfy.bad_codecs  # noqa: F401 - the sloppy code pages that produce mojibake
import pytest
from openpyxl import Workbook

from athar.core.csvio import decode_checked, is_plausible
from athar.registry.importing import import_reports
from athar.registry.models import Report

pytestmark = pytest.mark.django_db

SDF_HEADER = ["full_name", "date_of_detention", "last_seen_location", "detention_facility", "physical_description",
              "age_at_detention", "gender", "status", "contact_info", "additional_notes", "organization"]
SDF_LABELS = ["الاسم الكامل", "تاريخ الاعتقال", "آخر مكان شوهد فيه", "مكان الاحتجاز", "الوصف الجسدي",
              "العمر عند الاعتقال", "الجنس", "الحالة", "معلومات الاتصال", "ملاحظات إضافية", "المنظمة"]
SDF_ROWS = [
    ["خالد عمر الأحمد", "2012-08-14", "دوما", "فرع 215", "ندبة فوق الحاجب الأيسر", "28", "ذكر", "معتقل", "", "", ""],
    ["ياسر حسن العلي", "2013", "حمص - باب عمرو", "", "", "", "ذكر", "مطلق سراح", "", "خرج عام 2016", ""],
    ["فاطمة محمد الحسين", "", "حلب", "", "", "31", "أنثى", "مفقودة", "", "", ""],
    ["نور الهدى سليمان", "ربيع 2012", "درعا", "", "", "", "غير معروف", "غير معروف", "", "", ""],
    ["Tarek Youssef", "2014-02", "Hama", "Air Force Intelligence", "", "19", "male", "released", "", "", ""],
    ["عبدالكريم الزعبي", "2011-12-01", "", "صيدنايا", "", "40", "ذكر", "متوفى", "", "", ""],
    ["", "2012", "حماة", "", "", "", "ذكر", "معتقل", "", "لا نعرف اسمه", ""],
]


def mojibake(text: str, codec: str) -> str:
    """What a UTF-8 text becomes when shown through ``codec`` and saved again as UTF-8."""
    return text.encode("utf-8").decode(codec)


@pytest.fixture
def sdf_file(write_csv: Callable[..., Path]) -> Callable[..., Path]:
    def write(name: str = "sdf.csv", encoding: str = "utf-8", garble: str = "") -> Path:
        rows = [SDF_LABELS] + SDF_ROWS
        if garble:
            rows = [[mojibake(c, garble) for c in r] for r in rows]
        return write_csv(SDF_HEADER, rows, encoding=encoding, name=name)

    return write


def _people() -> list[tuple]:
    return sorted(Report.objects.values_list("source", "report_id", "full_name_ar", "full_name_latin", "sex",
                                             "reported_status", "age_at_detention", "arrest_date", "extra"))


def test_the_peer_format_imports_every_named_report(sdf_file: Callable[..., Path]) -> None:
    result = import_reports(sdf_file())
    assert result["imported"] == 6
    assert [r["row"] for r in result["rejected"]] == [9]  # the nameless row, and only it
    assert [(w["row"], w["column"]) for w in result["value_warnings"]] == [(6, "date_of_detention")]
    assert Report.objects.get(full_name_ar="ياسر حسن العلي").reported_status == "released"
    assert Report.objects.get(full_name_ar="نور الهدى سليمان").extra == {"date_of_detention": "ربيع 2012"}


@pytest.mark.parametrize("codec", ["sloppy-windows-1252", "sloppy-windows-1256"])
def test_a_mojibake_copy_imports_as_exactly_the_same_reports(sdf_file: Callable[..., Path], codec: str) -> None:
    clean = import_reports(sdf_file("clean.csv"))
    before = _people()
    garbled = import_reports(sdf_file("garbled.csv", garble=codec))
    assert any("mojibake" in w for w in garbled["warnings"])
    assert any("second header row" in w for w in garbled["warnings"])  # the label row, recognised once repaired
    assert (garbled["imported"], garbled["unchanged"]) == (0, clean["imported"])
    assert garbled["rejected"] == clean["rejected"] and _people() == before


def test_the_clean_file_after_the_repaired_one_changes_nothing(sdf_file: Callable[..., Path]) -> None:
    first = import_reports(sdf_file("garbled.csv", garble="sloppy-windows-1252"))
    assert first["imported"] == 6
    before = _people()
    again = import_reports(sdf_file("clean.csv"))
    assert (again["imported"], again["unchanged"]) == (0, 6) and _people() == before


def test_windows_1256_file_reads_as_arabic_without_a_warning(sdf_file: Callable[..., Path]) -> None:
    result = import_reports(sdf_file(encoding="cp1256"))
    assert result["format"] == "csv:cp1256" and result["imported"] == 6
    assert not any("mojibake" in w or "Latin" in w for w in result["warnings"])


def test_a_latin1_file_is_not_read_as_garbled_arabic(write_csv: Callable[..., Path]) -> None:
    path = write_csv(["report_id", "full_name_latin", "birth_place"],
                     [["L1", "José Muñoz", "Alcañiz"], ["L2", "Jürgen Öztürk", "Köln"]], encoding="latin-1")
    result = import_reports(path, source="s")
    assert result["format"] == "csv:cp1252" and any("Latin" in w for w in result["warnings"])
    assert Report.objects.get(report_id="L1").full_name_latin == "José Muñoz"
    assert Report.objects.get(report_id="L2").birth_place == "Köln"


def test_the_encoding_check_can_fail() -> None:
    """Windows-1256 decodes every byte: what tells a Latin-1 file apart is words mixing two scripts."""
    assert not is_plausible("José Muñoz".encode("latin-1").decode("cp1256"))
    assert is_plausible("محمود السالم, Mahmoud al-Salem")
    assert decode_checked("José Muñoz;Köln\n".encode("latin-1")).encoding == "cp1252"
    assert decode_checked("محمود;حمص\n".encode("cp1256")).encoding == "cp1256"


def test_clean_text_is_never_repaired() -> None:
    for text in ["محمود السالم,ذكر\n", "José Muñoz,M\n", "Ø is a letter in Søren\n", "ط ظ ک\n"]:
        decoded = decode_checked(text.encode("utf-8"))
        assert decoded.text == text and decoded.warnings == []


def test_mojibake_cells_in_a_workbook_are_repaired(tmp_path: Path, sdf_file: Callable[..., Path]) -> None:
    import_reports(sdf_file())
    book = Workbook()
    sheet = book.active
    sheet.append(SDF_HEADER)
    for row in [SDF_LABELS] + SDF_ROWS:
        sheet.append([mojibake(c, "sloppy-windows-1252") or None for c in row])
    path = tmp_path / "garbled.xlsx"
    book.save(path)
    before = _people()
    result = import_reports(path)
    assert any("mojibake" in w for w in result["warnings"])
    assert (result["imported"], result["unchanged"]) == (0, 6) and _people() == before
