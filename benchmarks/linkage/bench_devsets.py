"""Every linkage dev set side by side (library path, DuckDB), with sibling merges.

    nice .venv/bin/python -m benchmarks.linkage.bench_devsets [set ...] [--write FOLDER]

Sets: phenomena (athar.matching.linkage.devset, 4,000 reports, seed 11), synthetic (the first
generator, 4,000 reports, seed 5), real_cross (real Arab names, each person once per script,
held-out spellings; 400 persons), real_cross_parts (the same, each name of 2 to 5 parts:
"TARIQ AZIZ" to a lineage of five), real_cross_attested (the same draw, 400 persons, from the
held-out spellings that pass an independent attestation rule: ``devset.attested_pairs``), ofac (OFAC Syria name variants), google_cross (the Google
transliteration eval split composed into three-word names; 2,000 persons), slips (slips.py, 1,300
persons, seed 28), written_kinds (97 reports written by hand from issue 28's list of missed kinds:
data/written_kinds.csv), written_kinds_2, written_kinds_3 and written_kinds_4 (the same, a second, a third and a fourth hand:
data/written_kinds_2.csv … data/written_kinds_4.csv), one_slip (357 reports of 156 persons, each with one slip on one report,
and sibling families: data/one_slip.csv), independent_syrian (independent_syrian.py: a generator written
from a fresh description, 2,600 persons, seed 8, households of brothers, cousins and namesakes), fresh_syrian
(fresh_syrian.py: a second such generator, eleventh session, 2,500 persons, seed 21; fresh_syrian_22 seed 22),
field_lists (field_lists.py: a third, thirteenth session, seven kinds of source, 2,500 persons, seed 31;
field_lists_32 seed 32). Review pairs and recall with review are printed too.
``--write FOLDER``
also writes each set as an import-template CSV with a ``person_id`` column for
``athar eval linkage FILE --truth-column person_id --json`` (the product path). The figures
go to docs/linkage.md with this command.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pandas as pd

from athar.config import shared_data_dir
from athar.matching.linkage import evaluate_clusters, generate_reports, link_reports, template_to_linkage_input
from athar.matching.linkage.devset import (
    attested_pairs,
    attested_pool,
    generate_devset,
    real_cross_script,
    shared_pool,
    sibling_merges,
)
from athar.matching.linkage.evaluate import recall_with_review
from athar.matching.linkage.slips import generate_slips
from athar.matching.names import detect_script

SHARED = shared_data_dir() / "names"


def _template(df: pd.DataFrame) -> pd.DataFrame:
    for col in ("first_name", "father_name", "family_name", "mother_name", "sex", "birth_year", "birth_place",
                "governorate", "city", "arrest_date", "arresting_agency", "full_name_ar", "full_name_latin"):
        if col not in df.columns:
            df[col] = ""
    return df.fillna("")


def ofac() -> pd.DataFrame:
    df = pd.read_csv(SHARED / "derived" / "ofac_syria_name_variants.csv", dtype=str, keep_default_na=False)
    arabic = df["name"].map(lambda n: detect_script(n) == "ar")
    return _template(pd.DataFrame({
        "report_id": [f"o{i}" for i in range(len(df))], "full_name_ar": df["name"].where(arabic, ""),
        "full_name_latin": df["name"].where(~arabic, ""), "birth_year": df["birth_years"].str.split("|").str[0],
        "birth_place": df["birth_place"].str.split(",").str[0], "person_id": df["entity_id"]}))


def google_cross() -> pd.DataFrame:
    from benchmarks.linkage.bench_cross_script import build

    df = build(2000, "google")
    arabic = df["full_name"].map(lambda n: detect_script(n) == "ar")
    return _template(pd.DataFrame({"report_id": df["unique_id"], "full_name_ar": df["full_name"].where(arabic, ""),
                                   "full_name_latin": df["full_name"].where(~arabic, ""), "person_id": df["person"]}))


def written_kinds() -> pd.DataFrame:
    """The hand-written set of the kinds issue 28 saw missed (data/written_kinds.csv)."""
    return _hand_written("written_kinds.csv")


def _hand_written(file: str) -> pd.DataFrame:
    """A set written by hand, in the import template with a ``person_id`` column (data/)."""
    return _template(pd.read_csv(Path(__file__).parent / "data" / file, dtype=str, keep_default_na=False))


def written_kinds_2() -> pd.DataFrame:
    """A second hand-written set (twenty-ninth session, data/written_kinds_2.csv): 53 reports of 29
    persons written from issue 28's list of kinds before the session changed anything — one slip on
    one report, a title, a kunya after a dash, the family name first, a shortened name, Maghrebi and
    Persian spellings, names only across scripts, and brothers of one father and mother."""
    return _hand_written("written_kinds_2.csv")


def written_kinds_3() -> pd.DataFrame:
    """A third hand-written set (twenty-ninth session, data/written_kinds_3.csv): 70 reports of 41
    persons written after rules v30 — a father and his son of one name chain, namesakes of one town
    years apart, brothers of one father and arrest date (ماهر / مازن, عمار / عامر, سامح / سامي, تامر /
    ثامر, مؤيد / معاذ), sisters, Maghrebi and French spellings (Abdelkader Ben Youssef, Chadi, Djihad,
    Koussay), 'ayn written as an apostrophe (Sa'id 'Umar), Turkish Mehmet, a title, a kunya in brackets,
    a father's name cut to "عبد", a sex or a birth year slipped, names only across scripts."""
    return _hand_written("written_kinds_3.csv")


def written_kinds_4() -> pd.DataFrame:
    """A fourth hand-written set (thirtieth session, data/written_kinds_4.csv): 59 reports of 27 persons
    written after rules v31 — a title (المهندس، الطالب، الدكتور، المحامي, Eng., Dr.), a kunya after a
    dash or in brackets, the family name first, a name shortened to given and family name, a father's
    name cut to "عبد" or mistyped ("عدب الله"), "ممد", a sex or a birth year slipped, Maghrebi and
    French spellings (Youcef, Djamel Laagoub, Chaabane, Anouar, Alep), Persian letters (ک ی), one
    branch by name and by number, names only across scripts, brothers and a sister of one father and
    arrest, cousins of one given and family name."""
    return _hand_written("written_kinds_4.csv")


def one_slip() -> pd.DataFrame:
    """Persons whose reports differ by one slip, and sibling families (data/one_slip.csv, written by
    make_one_slip.py from issue 28's description; the ``slip`` column names the slip)."""
    df = pd.read_csv(Path(__file__).parent / "data" / "one_slip.csv", dtype=str, keep_default_na=False)
    return _template(df.drop(columns=["slip"]))


def independent_syrian(seed: int = 8) -> pd.DataFrame:
    """Syrian reports from a generator written from a fresh description, not from athar's
    (independent_syrian.py, eighth session): 2,600 persons, seed 8 (9: a draw never looked at
    while developing)."""
    from benchmarks.linkage.independent_syrian import generate

    return _template(generate(2600, seed=seed)[0].drop(columns=["source"]))


def fresh_syrian(seed: int = 21) -> pd.DataFrame:
    """Syrian reports from a second generator written from a fresh description (fresh_syrian.py,
    eleventh session): 2,500 persons, seed 21 (22: a second draw); households of brothers and
    sisters, cousins and namesakes of one town; four kinds of source."""
    from benchmarks.linkage.fresh_syrian import generate

    return _template(generate(2500, seed=seed).drop(columns=["noise", "truth"]))


def field_lists(seed: int = 31) -> pd.DataFrame:
    """Syrian reports as they reach a documentation desk (field_lists.py, thirteenth session, written
    from a fresh description): 2,500 persons, seed 31 (32: a second draw); seven kinds of source
    (documentation database, WhatsApp lists, ICRC tracing, testimonies, Caesar claims, rosters,
    diaspora forms), households of brothers and sisters, cousins and namesakes of one town."""
    from benchmarks.linkage.field_lists import generate

    return _template(generate(2500, seed=seed).drop(columns=["noise", "truth"]))


SETS = {
    "phenomena": lambda: _template(generate_devset(4000, seed=11, pool=shared_pool("dev", shared_data_dir()))),
    "synthetic": lambda: _template(generate_reports(4000, seed=5).rename(columns={})),
    "real_cross": lambda: _template(real_cross_script(400, seed=3, pool=shared_pool("heldout", shared_data_dir()))),
    "real_cross_attested": lambda: _template(real_cross_script(400, seed=3, pool=attested_pool(
        shared_pool("heldout", shared_data_dir()), attested_pairs(shared_data_dir())))),
    "real_cross_parts": lambda: _template(real_cross_script(400, seed=3, pool=shared_pool("heldout", shared_data_dir()),
                                                             parts=(2, 3, 4, 5))),
    "slips": lambda: _template(generate_slips(1300, seed=28)),
    "ofac": ofac,
    "google_cross": google_cross,
    "written_kinds": written_kinds,
    "written_kinds_2": written_kinds_2,
    "written_kinds_3": written_kinds_3,
    "written_kinds_4": written_kinds_4,
    "one_slip": one_slip,
    "independent_syrian": independent_syrian,
    "independent_syrian_9": lambda: independent_syrian(seed=9),
    "fresh_syrian": fresh_syrian,
    "fresh_syrian_22": lambda: fresh_syrian(seed=22),
    "field_lists": field_lists,
    "field_lists_32": lambda: field_lists(seed=32),
}


def run(name: str) -> dict[str, object]:
    df = SETS[name]()
    start = time.time()
    result = link_reports(template_to_linkage_input(df), explain=False)
    clusters = result.cluster_ids(df["report_id"].astype(str))
    scores = evaluate_clusters(clusters, df["person_id"].astype(str).tolist())
    ids = df["report_id"].astype(str).tolist()
    review = list(zip(result.review["unique_id_l"].astype(str), result.review["unique_id_r"].astype(str)))
    with_review = recall_with_review(dict(zip(ids, clusters)), dict(zip(ids, df["person_id"].astype(str))), review)
    out: dict[str, object] = {"set": name, "records": len(df), **{k: round(v, 4) for k, v in scores.items()},
                              "review_pairs": len(review), "recall_with_review": round(with_review, 4),
                              "seconds": round(time.time() - start, 1)}
    if "family_id" in df.columns:
        out["sibling_merges"] = sibling_merges(df, clusters)
    return out


def main() -> None:
    args = sys.argv[1:]
    write = None
    if "--write" in args:
        write = Path(args[args.index("--write") + 1])
        args = args[:args.index("--write")] + args[args.index("--write") + 2:]
    for name in args or list(SETS):
        if write:
            write.mkdir(parents=True, exist_ok=True)
            SETS[name]().drop(columns=["family_id"], errors="ignore").to_csv(write / f"{name}.csv", index=False)
            continue
        print(json.dumps(run(name)), flush=True)


if __name__ == "__main__":
    main()
