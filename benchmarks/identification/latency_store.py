"""The product path at archive scale: 55,000 cases (and their face vectors) in a scratch store, then
time ``rank_and_store`` for new reports — once cold (the worker builds its case index) and warm
(what each further report costs in a running worker).

    ATHAR_HOME=/tmp/ident-latency nice .venv/bin/python benchmarks/identification/latency_store.py
"""

from __future__ import annotations

import base64
import datetime as dt
import os
import random
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "faces"), str(HERE.parents[1])]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "athar.settings")
os.environ.pop("DATABASE_URL", None)


def main(n_cases: int = 55_000, reports: int = 10) -> None:
    import django

    django.setup()
    from athar.core.store import ensure_store

    ensure_store()
    import numpy as np
    from synthetic_set import FACILITIES, case_row, make_truth, photo_date

    from athar.archive.facility_store import load_starting_table
    from athar.archive.models import Archive, Case, Face, Facility, Photo
    from athar.identification.faces import face_version
    from athar.identification.ranking import rank_and_store, subject_for_report
    from athar.matching.scoring import load_algorithm
    from athar.registry.importing import lineage_of
    from athar.registry.models import Report, ReportPhoto

    model = load_algorithm().face["model"]
    version = face_version(load_algorithm().face.get("pipeline", "arcface"))  # only these vectors count
    load_starting_table()
    archive, _ = Archive.objects.get_or_create(name="latency")
    gen, rng = np.random.default_rng(0), random.Random(1)
    if Case.objects.filter(archive=archive).count() < n_cases:
        facilities = {f.code: f for f in Facility.objects.all()}
        folder_code = {folder: f[0] for f in FACILITIES for folder in f[3]}
        start = time.perf_counter()
        cases = []
        for i in range(n_cases):
            when = photo_date(rng)
            row = case_row(rng, make_truth(rng, when, i), f"c{i}", when)
            code = folder_code[row["facility"]]
            cases.append(Case(archive=archive, facility=facilities[code], label=row["case"],
                              detainee_number=row["detainee_number"], photographed=when,
                              photographed_precision="month", sex=row["sex"],
                              age_min=int(row["age_min"]) if row["age_min"] else None,
                              age_max=int(row["age_max"]) if row["age_max"] else None, marks=row["marks"]))
        Case.objects.bulk_create(cases, batch_size=2000)
        ids = list(Case.objects.filter(archive=archive).values_list("id", flat=True))
        photos = Photo.objects.bulk_create([Photo(sha256=f"{i:064x}", archive=archive, case_id=cid, original_path=f"p{i}",
                                                  original_name="p", size=1) for i, cid in enumerate(ids)], batch_size=2000)
        Face.objects.bulk_create([Face(photo=p, case_id=p.case_id, index=0, box=[], quality=1.0,
                                       embedding=gen.normal(size=512).astype(np.float32).tobytes(),
                                       model_name=model, model_version=version) for p in photos], batch_size=2000)
        print(f"stored {n_cases} cases with faces in {time.perf_counter() - start:.0f}s")
    timings = []
    for _ in range(reports):
        rid = f"L{time.time_ns()}"
        report = Report.objects.create(source="latency", report_id=rid, lineage=lineage_of("latency", rid),
                                       content_hash=rid, full_name_latin="x", sex="M", birth_year=1985,
                                       arrest_date=dt.date(2012, 3, 1), arrest_date_precision="month",
                                       arresting_agency="فرع فلسطين",
                                       distinguishing_marks="وشم خريطة فلسطين على الساعد الأيسر")
        vec = gen.normal(size=512).astype(np.float32)
        ReportPhoto.objects.create(report=report, sha256="0" * 64, original_name="x", faces=[
            {"model": model, "version": version, "embedding_b64": base64.b64encode(vec.tobytes()).decode()}])
        start = time.perf_counter()
        row = rank_and_store(subject_for_report(report))
        timings.append(time.perf_counter() - start)
        assert row.candidates.count() == 50 and row.cases >= n_cases and row.has_photo  # the face path is timed
    print(f"rank_and_store, {Case.objects.count()} cases: first (builds the worker's index) {timings[0]:.1f}s; "
          f"then median {statistics.median(timings[1:]) * 1000:.0f} ms, max {max(timings[1:]) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
