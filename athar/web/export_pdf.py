"""A family's export as a PDF in its language (Arabic right to left, shaped by HarfBuzz through
fpdf2's text shaping; the font, Amiri, is shipped with athar under the SIL Open Font License:
``data/fonts/LICENSE-Amiri.txt``). The same parts as the page (``identification.family_export``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from fpdf import FPDF
from fpdf.enums import XPos, YPos

FONT = Path(__file__).parent / "data" / "fonts" / "Amiri-Regular.ttf"


class _Document:
    def __init__(self, rtl: bool) -> None:
        self.rtl = rtl
        self.pdf = FPDF(format="A4")
        self.pdf.set_margins(15, 15, 15)
        self.pdf.set_auto_page_break(True, margin=15)
        self.pdf.add_font("amiri", fname=str(FONT))
        self.pdf.set_text_shaping(use_shaping_engine=True, direction="rtl" if rtl else "ltr",
                                  script="arab" if rtl else None, language="ara" if rtl else None)
        self.pdf.add_page()

    def text(self, value: str, size: float = 12, gap: float = 1.5) -> None:
        self.pdf.set_font("amiri", size=size)
        self.pdf.multi_cell(0, size * 0.55, value, align="R" if self.rtl else "L", new_x=XPos.LMARGIN,
                            new_y=YPos.NEXT)
        self.pdf.ln(gap)

    def heading(self, value: str) -> None:
        self.pdf.ln(3)
        self.text(value, size=16, gap=2)

    def row(self, label: str, value: str) -> None:
        self.text(f"{label}: {value}")


def export_pdf(export: dict[str, Any]) -> bytes:
    """The PDF bytes of a ``readable_export``."""
    doc = _Document(rtl=(get_language() or "ar").startswith("ar"))
    report = export["report"]
    doc.text(_("What you gave athar about one report"), size=18, gap=3)
    doc.text(_("Made on %(day)s. Report version %(version)s; the earlier versions are kept.")
             % {"day": timezone.localdate().isoformat(), "version": report.version}, size=10)
    doc.heading(_("Where the search stands"))
    doc.text(export["told"])
    doc.heading(_("The report"))
    for fact in export["facts"]:
        doc.row(fact["label"], fact["value"])
    if export["contact"]:
        doc.row(_("Your contact details (kept encrypted)"), export["contact"])
    doc.heading(_("Photos you gave"))
    for photo in export["photos"] or [{"name": _("No photo."), "added": None}]:
        added = f" ({photo['added']:%Y-%m-%d})" if photo["added"] else ""
        doc.text(f"{photo['name']}{added}")
    doc.heading(_("Your consent"))
    for row in export["consent"] or [{"how": "", "when": "", "text": _("No statement recorded.")}]:
        doc.text(" · ".join(v for v in (row["when"], row["how"], row["text"]) if v))
    doc.heading(_("Your answers on the cases you were shown"))
    for claim in export["claims"] or [{"answer": _("No answer given."), "when": None, "state": ""}]:
        when = f"{claim['when']:%Y-%m-%d} · " if claim["when"] else ""
        doc.text(f"{when}{claim['answer']}" + (f" — {claim['state']}" if claim["state"] else ""))
    return bytes(doc.pdf.output())
