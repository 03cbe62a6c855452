"""``athar eval identify`` end to end on a small synthetic archive (no faces: ranking on the facts)."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from athar.archive.synthetic import make_archive


@pytest.mark.django_db
def test_eval_identify_reports_both_groups_and_false_matches(tmp_path: Path, capsys: Any) -> None:
    archive = make_archive(tmp_path / "archive", cases_per_facility=3, photos_per_case=1, size=120)
    with open(archive.root / "cases.csv", encoding="utf-8") as handle:
        cases = list(csv.DictReader(handle))
    rows = []
    for i, case in enumerate(cases[:6]):
        rows.append({"report_id": f"E{i}", "full_name_latin": f"Person {i}", "sex": "M",
                     "birth_year": str(int(case["photographed"][:4]) - int(case["age_min"]) - 5),
                     "arrest_date": case["photographed"][:4], "arresting_agency": f"Branch {case['facility']}",
                     "distinguishing_marks": case["marks"], "detainee_number": case["detainee_number"],
                     "photos": "", "truth": case["case"]})
    rows.append({**rows[0], "report_id": "absent", "detainee_number": "", "distinguishing_marks": "",
                 "arresting_agency": "", "truth": ""})
    reports = tmp_path / "reports.csv"
    with open(reports, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    capsys.readouterr()
    call_command("eval", "identify", "--archive-dir", str(archive.root), "--reports", str(reports),
                 "--truth-column", "truth", "--json")
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert set(result["with_photo"]) == set(result["without_photo"]) == {
        "reports", "rank1", "rank10", "median_rank", "top2pct", "mean_views"}
    assert result["without_photo"]["reports"] == 6 and result["with_photo"]["reports"] == 0
    assert result["without_photo"]["rank1"] >= 0.8  # the detainee number and branch are given
    assert result["false_match_rate"] == 0.0 and result["cases"] == len(cases)
