"""The commands as users run them: ``athar registry …``, ``athar places import``, ``athar eval linkage``."""

from __future__ import annotations

from pathlib import Path

import pytest

from athar.matching.linkage import write_template_csv
from tests.cli_helpers import last_json, run_athar
from tests.shared_data import require_shared_data

HEADER = "report_id,full_name_ar,sex,birth_year\n"


def test_import_json_contract_and_reimport(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_bytes((HEADER + "1,محمود أحمد السالم,ذكر,1985\n2,,M,1980\n").encode("cp1256"))
    first = last_json(run_athar(tmp_path / "home", "registry", "import", str(path), "--source", "org", "--json"))
    assert first["imported"] == 1 and first["unchanged"] == 0
    assert first["rejected"] == [{"row": 3, "reason": "no name: a report needs at least a full name, "
                                                      "a first name or a family name"}]
    again = last_json(run_athar(tmp_path / "home", "registry", "import", str(path), "--source", "org", "--json"))
    assert (again["imported"], again["unchanged"]) == (0, 1)


def test_unreadable_file_fails_clearly(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_bytes(b"\x00\x01binary")
    proc = run_athar(tmp_path / "home", "registry", "import", str(path), "--json", check=False)
    assert proc.returncode != 0 and last_json(proc)["ok"] is False


def test_template_command(tmp_path: Path) -> None:
    out = tmp_path / "template.xlsx"
    result = last_json(run_athar(tmp_path / "home", "registry", "template", "--lang", "en", str(out), "--json"))
    assert result["format"] == "xlsx" and out.stat().st_size == result["bytes"]


def test_places_import_command(tmp_path: Path) -> None:
    folder = require_shared_data("places", "open_syria_geography")
    result = last_json(run_athar(tmp_path / "home", "places", "import", str(folder), "--json"))
    assert result["places"]["subdistrict"] == 272


@pytest.mark.slow
def test_eval_linkage_contract_uses_a_scratch_store(tmp_path: Path) -> None:
    data = write_template_csv(tmp_path / "eval.csv", 400, seed=3)
    home = tmp_path / "home"
    result = last_json(run_athar(home, "eval", "linkage", str(data), "--truth-column", "person_id", "--json"))
    for key in ("pairwise_precision", "pairwise_recall", "pairwise_f1", "bcubed_precision", "bcubed_recall",
                "bcubed_f1", "records", "seconds", "review_pairs", "review_share", "recall_with_review"):
        assert key in result
    assert result["records"] == 400 and result["pairwise_f1"] > 0.85
    assert result["pairwise_recall"] <= result["recall_with_review"] <= 1.0
    assert result["review_share"] == round(result["review_pairs"] / 400, 4)
    link = last_json(run_athar(home, "registry", "link", "--json"))
    assert link["reports"] == 0  # nothing went into the user's own store


def test_production_refuses_to_start_without_the_data_key(tmp_path: Path) -> None:
    strong = "k" * 20 + "Q9x" * 20
    proc = run_athar(tmp_path / "home", "registry", "link", check=False, ATHAR_ENV="production",
                     ATHAR_SECRET_KEY=strong)
    assert proc.returncode != 0 and "ATHAR_DATA_KEY" in proc.stderr
