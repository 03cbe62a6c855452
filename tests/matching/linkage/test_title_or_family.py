"""السيد, القاضي, الامام, المعلم before two names: a title (Mr Omar Husayn) or the family name written
first (Omar Husayn of the al-Sayyid family), as the table says (order.TITLE_OR_FAMILY; issue 28,
nineteenth session: field_lists.py's rosters write the family name first, "السيد عمر حسين")."""

from __future__ import annotations

import pandas as pd

from athar.matching.linkage import prepare_reports
from athar.matching.linkage.order import written_order

# four reports of the al-Sayyid family, and حسين a given name in three others (the votes of a table)
SAYYID_FAMILY = [{"unique_id": f"s{i}", "first_name": given, "father_name": father, "family_name": family,
                  "city": "برزة"} for i, (given, father, family) in enumerate([
                      ("خالد", "محمد", "السيد"), ("سامر", "أحمد", "السيد"), ("رامي", "علي", "السيد"),
                      ("ماهر", "يوسف", "السيد"), ("حسين", "محمد", "الخطيب"), ("علي", "حسين", "النجار"),
                      ("حسين", "خليل", "الحلبي")])]


def _parts(full_name: str, table: list[dict]) -> dict[str, str | None]:
    prepared = prepare_reports(pd.DataFrame([{"unique_id": "r", "full_name": full_name, "city": "برزة"}, *table]))
    row = prepared.set_index("unique_id").loc["r"]
    return {part: row[f"{part}_id"] for part in ("first", "father", "family")}


def test_a_family_the_table_knows_is_read_first() -> None:
    parts = _parts("السيد عمر حسين", SAYYID_FAMILY)
    assert (parts["first"], parts["father"]) == ("umar", "husayn")
    assert parts["family"] is not None and "sayyid" in parts["family"]


def test_else_it_is_a_title() -> None:
    parts = _parts("السيد عمر حسين", [])
    assert parts["first"] == "umar" and parts["family"] == "husayn" and parts["father"] is None


def test_only_before_two_or_three_names_and_only_these_titles() -> None:
    assert written_order("السيد عمر حسين").title_word
    assert written_order("السيد محمد خير محمد").title_word
    assert not written_order("السيد محمد أحمد علي الخطيب").title_word  # a title before a long name
    assert not written_order("المهندس عمر حسين").title_word  # a title that is no family name
    assert not written_order("عمر حسين السيد").title_word


def test_without_the_title_the_name_is_read_as_any_other() -> None:
    """"المعلم درويش حسن محمد": the teacher Hasan son of Muhammad of the Darwish family, written
    family name first — read so once the title is set apart (fresh_syrian, seed 22)."""
    darwish = [{"unique_id": f"d{i}", "first_name": g, "father_name": "علي", "family_name": "درويش"}
               for i, g in enumerate(["خالد", "سامر", "رامي", "ماهر"])]
    given = [{"unique_id": f"g{i}", "first_name": "حسن", "father_name": f, "family_name": fam}
             for i, (f, fam) in enumerate([("خليل", "الخطيب"), ("يوسف", "النجار"), ("علي", "الحلبي")])]
    given += [{"unique_id": f"m{i}", "first_name": "محمد", "father_name": "أحمد", "family_name": fam}
              for i, fam in enumerate(["الشامي", "العلي", "الحسن"])]
    parts = _parts("المعلم درويش حسن محمد", darwish + given)
    assert (parts["first"], parts["father"]) == ("hasan", "muhammad")
    assert parts["family"] is not None and "darwish" in parts["family"]
