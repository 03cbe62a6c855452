"""What a report's written names carry besides the names: titles and descriptors ("الطالبة",
"Dr."), a kunya or a note in brackets ("(أبو محمد)", "(lawyer)"), a nickname, a place glued to the
name ("- خناصر"). They are read from the names as filed (which stay verbatim) into fields of their
own (Report.name_*), shown with the report, and used by the linkage as weak evidence (a title
that says the person's sex, a place where the city is missing: athar.matching.linkage.prepare)."""

from __future__ import annotations

from typing import Any

from athar.matching.names import written_extras
from athar.registry.models import Report

NAME_SOURCES = ("full_name_ar", "full_name_latin", "first_name")
WRITTEN_FIELDS = ("name_titles", "name_kunya", "name_nickname", "name_notes", "name_place")


def written_name_fields(names: dict[str, Any]) -> dict[str, Any]:
    """The name_* fields from a report's full names and first name (each value once, in order)."""
    titles: list[str] = []
    kunya: list[str] = []
    notes: list[str] = []
    nickname = place = ""
    for source in NAME_SOURCES:
        text = names.get(source)
        if not text:
            continue  # an empty name carries nothing
        written = written_extras(str(text))
        if written.titles:
            _extend(titles, written.titles)
        if written.kunya:
            _extend(kunya, written.kunya)
        if written.notes:
            _extend(notes, written.notes)
        nickname = nickname or written.nickname
        place = place or written.place
    return {"name_titles": titles, "name_kunya": kunya, "name_nickname": nickname[:200],
            "name_notes": notes, "name_place": place[:200]}


def read_written_names(report: Report) -> Report:
    """Set the report's name_* fields from its names (before it is saved)."""
    for name, value in written_name_fields({s: getattr(report, s) for s in NAME_SOURCES}).items():
        setattr(report, name, value)
    return report


def _extend(values: list[str], new: tuple[str, ...]) -> None:
    values.extend(v for v in new if v not in values)
