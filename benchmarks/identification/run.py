"""Identification benchmark, plain Python (no database): rank every report of a set against every case,
with the face alone, the facts alone and both; optionally fit the algorithm's weights.

    nice .venv/bin/python benchmarks/identification/run.py /tmp/ident-bench/dev --fit
    nice .venv/bin/python benchmarks/identification/run.py /tmp/ident-bench/test

Face vectors are cached under /tmp/ident-bench-cache (never in the repository).
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parents[1])]

from athar.archive.facilities import starting_table  # noqa: E402
from athar.core.dates import parse_partial_date  # noqa: E402
from athar.matching.scoring import CaseRecord, CaseTable, PersonFacts, load_algorithm  # noqa: E402
from athar.matching.scoring.algorithm import Algorithm  # noqa: E402
from athar.matching.scoring.evaluation import identification_metrics, outcome_for  # noqa: E402
from athar.matching.scoring.faces import CaseFaces  # noqa: E402
from athar.matching.scoring.places import FacilityTable  # noqa: E402

CACHE = Path("/tmp/ident-bench-cache")


def read_rows(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def facility_table() -> FacilityTable:
    t = starting_table()
    return FacilityTable.from_rows(t["facilities"], t["agencies"])


def case_records(rows: list[dict[str, str]], ft: FacilityTable) -> list[CaseRecord]:
    out = []
    for i, r in enumerate(rows):
        facs, _ = ft.resolve(r["facility"])
        code = next(iter(facs), r["facility"])
        _, agencies = ft.resolve(r.get("agency", ""))
        agency = ft.agency_of.get(code) or next(iter(agencies), "")
        date = parse_partial_date(r["photographed"])
        out.append(CaseRecord(i, r["case"], code, agency, r["facility"], r["detainee_number"],
                              date.date if date else None, date.precision if date else "unknown", r["sex"] or "U",
                              int(r["age_min"]) if r["age_min"] else None, int(r["age_max"]) if r["age_max"] else None,
                              r["marks"]))
    return out


def person_facts(r: dict[str, str], ft: FacilityTable, has_photo: bool) -> PersonFacts:
    facs, agencies = ft.resolve(r["arresting_agency"])
    arrest = parse_partial_date(r["arrest_date"])
    return PersonFacts(r["report_id"], r["sex"] or "U", int(r["birth_year"]) if r["birth_year"] else None, 0,
                       arrest.date if arrest else None, arrest.precision if arrest else "unknown", facs, agencies,
                       bool(r["arresting_agency"].strip()), r["distinguishing_marks"], r["detainee_number"], has_photo)


def embed_file(pipe: object, path: Path, family: bool) -> np.ndarray:
    """Face vectors of one photo (cached by content); a family photo gives its main face only."""
    from athar.matching.faces.errors import FaceError
    from athar.matching.faces.pipeline import family_face

    data = path.read_bytes()
    folder = f"{pipe.model_name}@{pipe.model_version}".replace("/", "_")  # type: ignore[attr-defined]
    key = CACHE / folder / f"{hashlib.sha256(data).hexdigest()}{'-f' if family else ''}.npy"
    if key.exists():
        return np.load(key)
    faces = pipe.analyse(path)  # type: ignore[attr-defined]
    if family:
        try:
            faces = [family_face(faces)]
        except FaceError:
            faces = []
    vecs = np.array([f.embedding for f in faces], np.float32).reshape(-1, pipe.model.dim)  # type: ignore[attr-defined]
    key.parent.mkdir(parents=True, exist_ok=True)
    np.save(key, vecs)
    return vecs


def load(root: Path, model: str) -> dict:
    from athar.matching.faces.pipeline import FacePipeline

    pipe = FacePipeline(model)
    ft = facility_table()
    cases = read_rows(root / "archive" / "cases.csv")
    records = case_records(cases, ft)
    table = CaseTable.build(records)
    per_case = {}
    for i, r in enumerate(cases):
        folder = next((root / "archive").glob(f"*/{r['case']}"))
        per_case[i] = np.concatenate([embed_file(pipe, p, False) for p in sorted(folder.glob("*.jpg"))])
    faces = CaseFaces.build(per_case, len(records), pipe.model.dim, pipe.model_name)
    reports = read_rows(root / "reports" / "reports.csv")
    people, probes, truth = [], [], []
    by_label = {r.label: i for i, r in enumerate(records)}
    for r in reports:
        photos = [root / "reports" / p for p in r["photos"].split(";") if p]
        vecs = [embed_file(pipe, p, True) for p in photos]
        vecs = np.concatenate(vecs) if vecs else np.zeros((0, pipe.model.dim), np.float32)
        people.append(person_facts(r, ft, len(vecs) > 0))
        probes.append(vecs)
        truth.append(by_label.get(r["true_case"]) if r["true_case"] else None)
    return {"pipeline": model, "table": table, "faces": faces, "people": people, "probes": probes, "truth": truth,
            "with_photo_field": [bool(r["photos"]) for r in reports]}


def evaluate(data: dict, algorithm: Algorithm, mode: str = "combined") -> tuple[dict, list]:
    """mode: combined | face | facts. Returns metrics and per-report (scores, levels, sims)."""
    outcomes, details = [], []
    table = data["table"]
    for person, probe, true_pos, photo_given in zip(data["people"], data["probes"], data["truth"], data["with_photo_field"]):
        sims = data["faces"].similarities(probe) if person.has_photo else None
        if mode == "face":
            scores = np.nan_to_num(sims, nan=-2.0) if sims is not None else np.zeros(len(table))
            ranking = None
            likely = False
        else:
            p = person if mode == "combined" else PersonFacts(**{**person.__dict__, "has_photo": False})
            ranking = algorithm.rank(p, table, sims, limit=1)
            scores = ranking.scores
            likely = ranking.likely_match
        top = int(np.argmax(scores))
        outcomes.append(outcome_for(scores, true_pos, len(table), photo_given, likely, top == true_pos))
        details.append((person, sims, true_pos, ranking))
    return identification_metrics(outcomes), details


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("root", type=Path)
    parser.add_argument("--model", default="arcface")
    parser.add_argument("--algorithm", default="athar-ident-v1")
    parser.add_argument("--fit", action="store_true", help="fit the weights on this set and write the JSON")
    args = parser.parse_args()
    start = time.perf_counter()
    data = load(args.root, args.model)
    print(f"loaded {len(data['table'])} cases, {len(data['people'])} reports in {time.perf_counter() - start:.0f}s",
          file=sys.stderr)
    if args.fit:
        import fit

        fit.fit_and_write(data, args.root, args.algorithm)
    algorithm = load_algorithm.__wrapped__(args.algorithm)  # type: ignore[attr-defined]
    result = {"set": str(args.root), "algorithm": f"{algorithm.name} {algorithm.version}", "cases": len(data["table"])}
    for mode in ("combined", "face", "facts"):
        metrics, _ = evaluate(data, algorithm, mode)
        if mode == "face":
            metrics = {"with_photo": metrics["with_photo"]}
        result[mode] = metrics
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
