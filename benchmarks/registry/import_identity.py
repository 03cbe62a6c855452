"""Did a change to the importer change anything it stores? Dump everything an import wrote.

    # files to import: the synthetic rows with unreadable values, nameless and duplicate rows, titles,
    # kunyas, nicknames, places, missing photos, a consent column; then a changed copy (new versions)
    PYTHONPATH=$PWD .venv/bin/python benchmarks/registry/import_identity.py --write-files /tmp/id
    # the same files, imported by the code of two checkouts (PYTHONPATH says whose; this script
    # does not put its own checkout first) into fresh stores (SQLite, or DATABASE_URL's database,
    # which must be empty), then compared byte for byte
    PYTHONPATH=OLD .venv/bin/python benchmarks/registry/import_identity.py /tmp/old.json /tmp/id/a.csv /tmp/id/b.csv
    PYTHONPATH=NEW .venv/bin/python benchmarks/registry/import_identity.py /tmp/new.json /tmp/id/a.csv /tmp/id/b.csv
    cmp /tmp/old.json /tmp/new.json

The dump: each import's result (without its seconds), every Report column but the times of
writing (the contact decrypted: its ciphertext has a random nonce), the batches, the data keys'
owners, the audit events' actions and data, the number of rows of each registry table. A fixed
master key makes the keyed content hashes comparable.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

MASTER_KEY = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="  # 32 bytes, for comparing hashes only
EXTRA_COLUMNS = ["age_at_detention", "publication_consent", "extra_col", "photos", "notes", "reported_status"]


def _varied(i: int, row: dict[str, str], previous: dict[str, str] | None) -> dict[str, str]:
    """Row i with what the importer must keep, warn about or refuse (one kind every few rows)."""
    r = dict(row)
    rules: list[tuple[int, dict[str, str]]] = [
        (7, {"sex": "X?"}), (11, {"arrest_date": "31/31/2020" if i % 2 else "2031-01-01"}),
        (13, {"birth_year": "abc"}), (29, {"birth_year": "2020", "arrest_date": "2015"}),
        (5, {"age_at_detention": ["35", "٣٥ سنة", "old", "200"][i % 4]}),
        (3, {"publication_consent": ["yes", "لا", "maybe"][i % 9 // 3]}), (43, {"extra_col": "something"}),
        (47, {"arresting_agency": "x" * 300}), (53, {"photos": "missing.jpg; ../outside.jpg" if i % 2 else "missing.jpg"}),
        (59, {"reported_status": "معتقل" if i % 2 else "strange"}), (61, {"reporter_contact": ""})]
    for every, values in rules:
        if i % every == 0:
            r.update(values)
    if i % 17 == 0:
        r.update(full_name_ar="", full_name_latin="", first_name="", family_name="")
    if i % 19 == 0 and previous is not None:
        r["report_id"] = previous["report_id"]
    if i % 23 == 0:
        r["report_id"] = ""
    if i % 31 == 0:
        r["full_name_ar"] = f"الحاج {r['full_name_ar']} (أبو أحمد)"
    if i % 37 == 0:
        r["full_name_latin"] = f"Dr. {r['full_name_latin']} - Khanaser"
    if i % 41 == 0:
        r["full_name_ar"] += " الملقب بأبو الجود"
    return r


def write_files(folder: Path, rows: int = 6000) -> None:
    """``a.csv`` (varied synthetic rows) and ``b.csv`` (a tenth of them changed, 100 new)."""
    from athar.matching.linkage.synthetic import TEMPLATE_COLUMNS, iter_reports

    folder.mkdir(parents=True, exist_ok=True)
    plain = [dict(r, reporter_contact=f"+963 9{i % 100:02d} {i:06d}")
             for i, r in zip(range(rows), iter_reports(int(rows / 2.1) + 10, 7), strict=False)]
    varied: list[dict[str, str]] = []
    for i, row in enumerate(plain):
        varied.append(_varied(i, row, varied[-1] if varied else None))
    changed = [dict(r, notes="changed") if i % 10 == 0 else r for i, r in enumerate(varied)]
    changed += [dict(plain[i], report_id=f"NEW{i}") for i in range(100)]
    columns = [*dict.fromkeys([*TEMPLATE_COLUMNS, "reporter_contact", *EXTRA_COLUMNS])]
    for name, table in (("a.csv", varied), ("b.csv", changed)):
        with (folder / name).open("w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=columns, extrasaction="ignore")
            writer.writeheader()
            writer.writerows(table)


def dump(out: Path, files: list[Path]) -> None:
    """Import ``files`` in order into a fresh store and write what was stored to ``out``."""
    os.environ["ATHAR_HOME"] = tempfile.mkdtemp(prefix="athar-identity-")
    os.environ["ATHAR_DATA_KEY"] = MASTER_KEY
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "athar.settings")
    import django

    django.setup()
    from django.apps import apps

    from athar.audit.models import AuditEvent
    from athar.core.store import ensure_store
    from athar.registry import keys
    from athar.registry.importing import contact_owner, import_reports
    from athar.registry.models import DataKey, ImportBatch, Report

    ensure_store()
    results = []
    for path in files:
        result = import_reports(path)
        result.pop("seconds")
        results.append(result)
    reports = []
    for report in Report.objects.order_by("id"):
        values: dict[str, Any] = {f.attname: getattr(report, f.attname) for f in Report._meta.concrete_fields
                                  if f.attname not in ("filed_at", "created_at", "updated_at")}
        if report.reporter_contact:
            values["reporter_contact"] = keys.decrypt_for(contact_owner(report.lineage), bytes(report.reporter_contact))
        reports.append(values)
    batches = list(ImportBatch.objects.order_by("id").values("counts", "result", "checkpoint", "rows_done", "status",
                                                                 "rows_total"))
    events = list(AuditEvent.objects.order_by("id").values("action", "object_id", "data"))
    everything: dict[str, Any] = {"results": results, "reports": reports, "batches": batches,
                  "owners": sorted(DataKey.objects.values_list("owner_ref", flat=True)),
                  "events": events,
                  "counts": {m.__name__: m._default_manager.count() for m in apps.get_app_config("registry").get_models()}}
    out.write_text(json.dumps(everything, default=str, ensure_ascii=False, indent=0, sort_keys=True), "utf-8")
    print(f"{out}: {len(reports)} reports, {len(events)} audit events", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write-files", type=Path, help="write a.csv and b.csv into this folder, and stop")
    parser.add_argument("out", type=Path, nargs="?")
    parser.add_argument("files", type=Path, nargs="*")
    options = parser.parse_args()
    if options.write_files:
        write_files(options.write_files)
    elif options.out and options.files:
        dump(options.out, options.files)
    else:
        parser.error("give --write-files FOLDER, or OUT and the files to import")


if __name__ == "__main__":
    main()
