"""A man named by a kunya and his family name, no given name ("أبو إبراهيم السباعي"; prepare.kunya_first,
link.KUNYA_NOTE; issue 28, nineteenth session): the kunya is no given name to compare, and such a
pair is offered for review, never linked — his brothers share the family name, the town and often
the arrest (field_lists.py: linked, they merged brothers; read as a given name, "Abu Ibrahim" was
"first names differ" and the man's own reports never reached a reviewer)."""

from __future__ import annotations

import pandas as pd
import pytest

from athar.matching.linkage import link_reports
from athar.matching.linkage.link import KUNYA_NOTE
from athar.matching.linkage.order import written_order
from athar.matching.linkage.prepare import kunya_first

OTHERS = [{"unique_id": f"x{i}", "full_name": name, "city": "دمشق", "birth_year": str(1960 + i)}
          for i, name in enumerate(["خالد محمد العلي", "سامر أحمد الحسن", "رامي علي الخطيب", "عمر حسن الشامي",
                                    "ماهر يوسف الأحمد", "باسل خليل النجار"])]


@pytest.mark.parametrize(("name", "kunya"), [
    ("أبو إبراهيم السباعي", True), ("أبوإبراهيم السباعي", True), ("ابو ماهر العلي", True), ("أم أنس العلي", True),
    ("Abu Ibrahim al-Sibai", True), ("أبو بكر الحلبي", False), ("حازم محمد أبو عمر", False),
    ("أبو زيد خليل محمد", False), ("علي محمد السباعي", False),
])
def test_a_kunya_and_a_family_name(name: str, kunya: bool) -> None:
    assert kunya_first(written_order(name)) is kunya


def test_the_pair_goes_to_review_not_linked() -> None:
    reports = pd.DataFrame([
        {"unique_id": "k", "full_name": "أبوإبراهيم السباعي", "birth_year": "العمر 32", "city": "دير بعلبة",
         "arrest_date": "ديسمبر 2016", "arresting_agency": "الفرع 215"},
        {"unique_id": "a", "full_name": "علي محمد السباعي", "birth_year": "1984", "city": "دير بعلبة",
         "arrest_date": "2016-12-08", "arresting_agency": "فرع 215", "mother_name": "آمنة"},
        *OTHERS,
    ])
    result = link_reports(reports, explain=True)
    clusters = dict(zip(reports["unique_id"], result.cluster_ids(reports["unique_id"])))
    assert clusters["k"] != clusters["a"]
    pair = result.pairs[(result.pairs.unique_id_l == "a") & (result.pairs.unique_id_r == "k")].iloc[0]
    assert pair["guard"] == KUNYA_NOTE and pair["status"] == "review"
    assert ((result.review.unique_id_l == "a") & (result.review.unique_id_r == "k")).any()


def test_two_reports_of_one_kunya_meet_on_it() -> None:
    reports = pd.DataFrame([
        {"unique_id": "k1", "full_name": "ابو ماهر العلي", "city": "إدلب", "arrest_date": "2012-10-21",
         "birth_year": "1978", "arresting_agency": "الأمن السياسي"},
        {"unique_id": "k2", "full_name": "أبو ماهر العلي", "city": "ادلب", "arrest_date": "تشرين الأول 2012",
         "birth_year": "1978"},
        *OTHERS,
    ])
    result = link_reports(reports, explain=True)
    clusters = dict(zip(reports["unique_id"], result.cluster_ids(reports["unique_id"])))
    assert clusters["k1"] == clusters["k2"]
    pair = result.pairs[(result.pairs.unique_id_l == "k1") & (result.pairs.unique_id_r == "k2")].iloc[0]
    assert pair["guard"] != KUNYA_NOTE
