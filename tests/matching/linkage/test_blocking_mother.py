"""The given name and the mother's name make a block of their own (settings.SMALL_TABLE_RULES; issue
28, twenty-seventh session): a WhatsApp list names a man as his mother's son ("أحمد ابن نعيمة": no
family name, no town), and no other rule — each holds a family or a father's name, a year or a town —
put him beside his family's report."""

from __future__ import annotations

import pandas as pd

from athar.matching.linkage import link_reports
from athar.matching.linkage.settings import rule_columns

OTHERS = [{"unique_id": f"x{i}", "full_name": name, "city": "حلب", "birth_year": str(1960 + i)}
          for i, name in enumerate(["خالد محمد العلي", "سامر أحمد الحسن", "رامي علي الخطيب", "عمر حسن الشامي",
                                    "ماهر يوسف الأحمد", "باسل خليل النجار"])]


def test_the_given_and_mothers_names_are_a_rule_of_small_tables() -> None:
    populated = {"first_blk", "father_blk", "family_blk", "mother_blk", "birth_year", "city_key", "governorate_id"}
    assert ("first_blk", "mother_blk") in rule_columns(populated, 5_000)
    assert ("first_blk", "mother_blk") not in rule_columns(populated, 500_000)


def test_a_mothers_son_meets_his_familys_report() -> None:
    reports = pd.DataFrame([
        {"unique_id": "m", "full_name": "أحمد ابن نعیمة", "arrest_date": "تشرين الأول 2012"},
        {"unique_id": "t", "first_name": "AHMAD", "father_name": "MAHMOUD", "family_name": "EL SHEHABI",
         "mother_name": "NAIMA", "sex": "M", "birth_year": "approx. 1991", "birth_place": "Anadan",
         "governorate": "Aleppo", "arrest_date": "13 Oct 2012"},
        *OTHERS,
    ]).fillna("")
    result = link_reports(reports, explain=True)
    pairs = result.pairs
    met = pairs[((pairs.unique_id_l == "m") & (pairs.unique_id_r == "t")) | ((pairs.unique_id_l == "t") & (pairs.unique_id_r == "m"))]
    assert len(met) == 1
    assert "mother's first name: same" in met["explanation"].iloc[0]
