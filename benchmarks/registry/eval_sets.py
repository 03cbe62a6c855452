"""``athar eval linkage`` (import → store → link → score, the product path) on the evaluation sets.

    nice .venv/bin/python -m benchmarks.registry.eval_sets [synthetic|ofac|cross] ...

Each set is written as an import-template CSV to a temporary folder (never into the repository)
with a ``person_id`` truth column:
- synthetic   the Syrian report generator of athar.matching.linkage (10,000 reports, seed 5);
- ofac        the OFAC Syria sanctions name variants (../shared/data, public domain): the name in
              full_name_latin or full_name_ar by script, first listed birth year, birth place;
- cross       names only, each person once in Arabic and once in Latin letters (built by
              benchmarks/linkage/bench_cross_script.py from the Google transliteration eval split).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd

from athar.matching.linkage import write_template_csv
from athar.matching.names import detect_script

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"


def synthetic(folder: Path) -> Path:
    return write_template_csv(folder / "synthetic.csv", 10_000, seed=5)


def ofac(folder: Path) -> Path:
    df = pd.read_csv(SHARED / "names" / "derived" / "ofac_syria_name_variants.csv", dtype=str, keep_default_na=False)
    arabic = df["name"].map(lambda n: detect_script(n) == "ar")
    out = pd.DataFrame({
        "report_id": [f"o{i}" for i in range(len(df))],
        "full_name_ar": df["name"].where(arabic, ""),
        "full_name_latin": df["name"].where(~arabic, ""),
        "birth_year": df["birth_years"].str.split("|").str[0],
        "birth_place": df["birth_place"].str.split(",").str[0],
        "person_id": df["entity_id"],
    })
    path = folder / "ofac.csv"
    out.to_csv(path, index=False)
    return path


def cross(folder: Path) -> Path:
    from benchmarks.linkage.bench_cross_script import build

    df = build(2000, "google")
    arabic = df["full_name"].map(lambda n: detect_script(n) == "ar")
    out = pd.DataFrame({"report_id": df["unique_id"], "full_name_ar": df["full_name"].where(arabic, ""),
                        "full_name_latin": df["full_name"].where(~arabic, ""), "person_id": df["person"]})
    path = folder / "cross.csv"
    out.to_csv(path, index=False)
    return path


SETS = {"synthetic": synthetic, "ofac": ofac, "cross": cross}


def main() -> None:
    names = sys.argv[1:] or list(SETS)
    with tempfile.TemporaryDirectory(prefix="athar-eval-sets-") as tmp:
        for name in names:
            path = SETS[name](Path(tmp))
            done = subprocess.run([sys.executable, "-m", "athar.cli", "eval", "linkage", str(path),
                                   "--truth-column", "person_id", "--json"], env={**__import__("os").environ,
                                   "ATHAR_HOME": str(Path(tmp) / "home")}, capture_output=True, text=True)
            line = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr[-500:]
            print(json.dumps({"set": name, **json.loads(line)}) if line.startswith("{") else f"{name}: {line}")


if __name__ == "__main__":
    main()
