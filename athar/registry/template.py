"""The downloadable report template (CSV or XLSX, English or Arabic headers).

``template_bytes(fmt, lang)`` gives the same bytes to the command and to the web page.
"""

from __future__ import annotations

import csv
import io

from athar.core.errors import UserError
from athar.registry.columns import TEMPLATE

FORMATS = ("csv", "xlsx")
LANGS = ("ar", "en")
CONTENT_TYPES = {"csv": "text/csv; charset=utf-8",
                 "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}
EXAMPLE = {
    "en": {"report_id": "R-0001", "full_name_ar": "محمود أحمد السالم", "full_name_latin": "Mahmoud Ahmad al-Salem",
           "sex": "M", "birth_year": "1985", "governorate": "Rif Dimashq", "city": "Douma",
           "arrest_date": "2012-03", "arresting_agency": "215", "reporter_relation": "brother"},
    "ar": {"report_id": "R-0001", "full_name_ar": "محمود أحمد السالم", "full_name_latin": "Mahmoud Ahmad al-Salem",
           "sex": "ذكر", "birth_year": "1985", "governorate": "ريف دمشق", "city": "دوما",
           "arrest_date": "2012-03", "arresting_agency": "فرع 215", "reporter_relation": "أخ"},
}


def template_rows(lang: str) -> tuple[list[str], list[str]]:
    """The header row and one example row."""
    if lang not in LANGS:
        raise UserError(f"language must be one of {', '.join(LANGS)}")
    header = [arabic if lang == "ar" else field for field, arabic, _en, _ar in TEMPLATE]
    example = [EXAMPLE[lang].get(field, "") for field, *_ in TEMPLATE]
    return header, example


def template_bytes(fmt: str = "csv", lang: str = "ar") -> bytes:
    """The template file: CSV (UTF-8 with BOM, so Excel shows Arabic) or XLSX (with a help sheet)."""
    header, example = template_rows(lang)
    if fmt == "csv":
        buffer = io.StringIO(newline="")
        writer = csv.writer(buffer)
        writer.writerow(header)
        writer.writerow(example)
        return buffer.getvalue().encode("utf-8-sig")
    if fmt == "xlsx":
        return _xlsx(header, example, lang)
    raise UserError(f"format must be one of {', '.join(FORMATS)}")


def _xlsx(header: list[str], example: list[str], lang: str) -> bytes:
    from openpyxl import Workbook
    from openpyxl.styles import Font

    book = Workbook()
    sheet = book.active
    sheet.title = "البلاغات" if lang == "ar" else "reports"
    sheet.sheet_view.rightToLeft = lang == "ar"
    sheet.append(header)
    sheet.append(example)
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    help_sheet = book.create_sheet("مساعدة" if lang == "ar" else "help")
    help_sheet.sheet_view.rightToLeft = lang == "ar"
    for field, arabic, help_en, help_ar in TEMPLATE:
        help_sheet.append([arabic if lang == "ar" else field, help_ar if lang == "ar" else help_en])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()
