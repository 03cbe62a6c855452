"""Write the small synthetic seed corpus of the atheris harnesses (generated, never committed).

    .venv/bin/python fuzz/make_corpus.py [OUT]        # OUT defaults to fuzz/corpus

One folder per harness: ``images/``, ``import/``, ``names/``, ``export/``. Everything is made
here from nothing (Pillow, pillow-heif, openpyxl): no real photo, name or report is used.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from PIL import Image, ImageDraw

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import IMPORT_MODES, RECORD_SEP, UNIT_SEP  # noqa: E402


def _picture(size=(24, 16), mode="RGB") -> Image.Image:
    img = Image.new("RGB", size, (200, 30, 30))
    ImageDraw.Draw(img).ellipse((4, 3, size[0] - 5, size[1] - 3), fill=(20, 120, 220))
    return img.convert(mode)


def _encode(img: Image.Image, fmt: str, **kw) -> bytes:
    buffer = io.BytesIO()
    img.save(buffer, fmt, **kw)
    return buffer.getvalue()


def image_seeds() -> dict[str, bytes]:
    exif = Image.Exif()
    exif[0x0112] = 6  # orientation: rotate
    exif[0x010F] = "fuzz-camera"
    exif[0x8825] = {1: "N", 2: (33.0, 30.0, 0.0)}  # a GPS IFD
    seeds = {
        "jpeg": _encode(_picture(), "JPEG", quality=70),
        "jpeg_exif": _encode(_picture(), "JPEG", exif=exif.tobytes()),
        "jpeg_progressive": _encode(_picture((40, 30)), "JPEG", progressive=True),
        "jpeg_cmyk": _encode(_picture(mode="CMYK"), "JPEG"),
        "png": _encode(_picture(), "PNG"),
        "png_rgba": _encode(_picture(mode="RGBA"), "PNG"),
        "png_palette": _encode(_picture(mode="P"), "PNG"),
        "png_16bit": _encode(_picture(mode="I;16"), "PNG"),
        "png_grey_alpha": _encode(_picture(mode="LA"), "PNG"),
        "gif": _encode(_picture(mode="P"), "GIF"),
        "bmp": _encode(_picture(), "BMP"),
        "tiff": _encode(_picture(), "TIFF", exif=exif.tobytes()),
        "webp": _encode(_picture(), "WEBP"),
    }
    try:
        from pillow_heif import register_heif_opener

        register_heif_opener()
        seeds["heic"] = _encode(_picture((32, 32)), "HEIF", quality=50)
    except Exception as exc:  # noqa: BLE001 - corpus still useful without HEIC
        print(f"no HEIC seed: {exc}", file=sys.stderr)
    for name in ("jpeg", "png", "heic", "tiff", "webp", "gif"):
        if name in seeds:
            data = seeds[name]
            seeds[f"{name}_truncated_half"] = data[: len(data) // 2]
            seeds[f"{name}_truncated_tail"] = data[:-7]
    # a PNG that claims 60000 × 60000 pixels (a decompression bomb's header)
    png = bytearray(seeds["png"])
    png[16:24] = (60000).to_bytes(4, "big") * 2
    seeds["png_bomb_header"] = bytes(png)
    seeds["empty"] = b""
    seeds["text"] = b"not an image at all\n"
    return seeds


HEADER_EN = "report_id,full_name_ar,full_name_latin,sex,birth_year,governorate,arrest_date,reported_status,notes"
CSV_ROWS = [
    "R-1,محمود أحمد السالم,Mahmoud Ahmad al-Salem,M,1985,ريف دمشق,2012-03,detained,",
    "R-2,فاطمة عبد الرحمن,Fatima Abdel Rahman,أنثى,١٩٩٠,حمص,14/03/2013,مفقودة,\"quoted, note\"",
    "R-3,,Nour Eddine,m,1979-02-30,Aleppo,2011,missing,",
    "R-4,=cmd|' /C calc'!A0,+SUM(A1:A9),U,,@x,-2+3,dead,\t=1+1",
]


def _sheet_xml(rows: list[list[str]]) -> bytes:
    def cell(ref: str, value: str) -> str:
        return f'<c r="{ref}" t="inlineStr"><is><t>{value}</t></is></c>'

    body = "".join(
        f'<row r="{r}">' + "".join(cell(f"{chr(65 + c)}{r}", v) for c, v in enumerate(row)) + "</row>"
        for r, row in enumerate(rows, start=1))
    return ('<?xml version="1.0" encoding="UTF-8"?><worksheet '
            'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
            + body + "</sheetData></worksheet>").encode("utf-8")


def import_seeds() -> dict[str, bytes]:
    from openpyxl import Workbook

    csv_mode, xlsx_mode, sheet_mode, values_mode = (bytes([IMPORT_MODES.index(m)]) for m in
                                                    ("csv", "xlsx", "sheet", "values"))
    text = "\r\n".join([HEADER_EN, *CSV_ROWS]) + "\r\n"
    arabic_header = "رقم البلاغ;الاسم الكامل بالعربية;الجنس;سنة الولادة;تاريخ الاعتقال;الحالة"
    arabic_rows = ["1;محمد خالد الحلبي;ذكر;1980;2012-05-01;معتقل", "2;سلمى يوسف;أنثى;٢٠٠١;٠٣/٢٠١٤;مختفي قسريا"]
    sdf = ("full_name,date_of_detention,last_seen_location,detention_facility,age_at_detention,gender,status\n"
           "الاسم الكامل,تاريخ الاعتقال,اخر مكان شوهد فيه,مكان الاحتجاز,العمر عند الاعتقال,الجنس,الحالة\n"
           "Omar Haddad,2013-07,Damascus,Branch 215,24 years,male,missing\n")
    seeds = {
        "csv_utf8_bom": csv_mode + text.encode("utf-8-sig"),
        "csv_utf8": csv_mode + text.encode("utf-8"),
        "csv_cp1256_arabic": csv_mode + "\r\n".join([arabic_header.replace(";", ","),
                                                     *(r.replace(";", ",").replace("٢٠٠١", "2001").replace("٠٣/٢٠١٤", "03/2014")
                                                       for r in arabic_rows)]).encode("cp1256"),
        "csv_semicolon": csv_mode + "\n".join([arabic_header, *arabic_rows]).encode("utf-8"),
        "csv_tab": csv_mode + "\n".join(line.replace(",", "\t") for line in [HEADER_EN, *CSV_ROWS[:2]]).encode(),
        "csv_sdf": csv_mode + sdf.encode("utf-8"),
        "csv_formula": csv_mode + (HEADER_EN + "\n" + CSV_ROWS[3] + "\n").encode("utf-8"),
        "csv_nul": csv_mode + b"full_name_ar\n\x00\n",
        "csv_empty": csv_mode,
    }
    book = Workbook()
    sheet = book.active
    for line in [HEADER_EN, *CSV_ROWS[:3]]:
        sheet.append(line.split(","))
    sheet.append(["R-5", "", "Ali", "M", 1970.0, None, None, "", ""])
    buffer = io.BytesIO()
    book.save(buffer)
    xlsx = buffer.getvalue()
    seeds["xlsx"] = xlsx_mode + xlsx
    seeds["xlsx_truncated"] = xlsx_mode + xlsx[: len(xlsx) // 2]
    rows = [HEADER_EN.split(","), *(r.split(",") for r in CSV_ROWS[:3])]
    seeds["sheet_xml"] = sheet_mode + _sheet_xml(rows)
    seeds["values"] = values_mode + UNIT_SEP.join(
        ["2012-03-14", "14/03/2012", "2012-03", "03/2012", "١٩٨٥", "1985-02-30", "2101", "24 years", "٣٠ سنة",
         "ذكر", "أنثى", "مختفي قسريا", "in-custody", "full_name_ar", "الاسم الثلاثي", "Date_Of_Arrest"]).encode()
    return seeds


def name_seeds() -> dict[str, bytes]:
    pairs = [
        ("محمّد بن عبد الرحمن الحلبي", "Mohammad bin Abdel Rahman al-Halabi"),
        ("Mhd Nour Eddine Al-Khatib", "محمد نور الدين الخطيب"),
        ("عبدالله أبو بكر", "Abdullah Abu Bakr"),
        ("فاطمة الزهراء", "Fatima el-Zahraa"),
        ("ـمـحـمـود ‎ ٢", "Maḥmūd ʿAbd al-Qādir"),
        ("Alsalem", "السالم"),
        ("ﷲ ﻻ", "Fath Allah Nureddin"),
        ("", "-"),
    ]
    return {f"pair{i}": (a + UNIT_SEP + b).encode("utf-8") for i, (a, b) in enumerate(pairs)}


def export_seeds() -> dict[str, bytes]:
    cells = ["=cmd|' /C calc'!A0", "+SUM(A1:A9)", "-2+3", "@IMPORTXML(\"x\")", "=HYPERLINK(\"http://x\")",
             "\t=1+1", "\r=1", " =1", "|x", "%x", "-12.5", "+963912345678", "محمد", "عبد الله", "٣", "plain",
             "\x01=1", "'already quoted"]
    rows = [cells[i:i + 6] for i in range(0, len(cells), 6)]
    return {"cells": RECORD_SEP.join(UNIT_SEP.join(r) for r in rows).encode("utf-8"),
            "one": b"=1", "arabic": "=محمد".encode("utf-8")}


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else HERE / "corpus"
    for harness, seeds in (("images", image_seeds()), ("import", import_seeds()), ("names", name_seeds()),
                           ("export", export_seeds())):
        folder = out / harness
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in seeds.items():
            (folder / f"seed_{name}").write_bytes(data)
        print(f"{folder}: {len(seeds)} seeds")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
