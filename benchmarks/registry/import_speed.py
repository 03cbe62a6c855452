"""Benchmark: ``athar registry import`` against a plain loop over the same CSV (issue 28).

    nice .venv/bin/python benchmarks/registry/import_speed.py --rows 20000

1. writes a CSV of N reports (the synthetic generator of ``athar.matching.linkage``: names in
   Arabic and Latin letters, dates, places) with a reporter's contact on every row;
2. times the **plain loop**: read the CSV (``csv`` module), encrypt each contact with AES-256-GCM
   (one key, ``cryptography``), insert each row into a fresh SQLite file (one INSERT per row, one
   transaction) — the floor any importer pays;
3. times ``athar registry import FILE --json`` in a fresh store (SQLite; the store is created and
   migrated beforehand by another command, so migrations are not timed): the wall time of the
   command, and the import's own ``seconds`` from its JSON (without interpreter start-up);
4. prints both rates and the ratios (wall; and CPU seconds, which a loaded machine disturbs less),
   then one JSON line. Target: ratio ≥ 0.25.

``--profile FILE`` runs the import under cProfile (in process) and writes the stats there.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import secrets
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from benchmarks.athar_command import athar, compiled  # noqa: E402  (the repository on the path first)


def write_csv(path: Path, rows: int, seed: int = 7) -> None:
    """N synthetic reports in the import template, each with a reporter's contact."""
    from athar.matching.linkage.synthetic import TEMPLATE_COLUMNS, iter_reports

    columns = [*TEMPLATE_COLUMNS, "reporter_contact"]
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns, extrasaction="ignore")
        writer.writeheader()
        for index, row in enumerate(iter_reports(int(rows / 2.1) + 10, seed)):
            if index >= rows:
                break
            row["reporter_contact"] = f"+963 9{index % 100:02d} {index:06d} / family{index}@example.org"
            writer.writerow(row)


def plain_loop(path: Path, folder: Path) -> tuple[float, float]:
    """Read, encrypt each contact, insert each row: (wall seconds, CPU seconds)."""
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    database = folder / "plain.sqlite3"
    start, cpu = time.perf_counter(), time.process_time()
    aead = AESGCM(secrets.token_bytes(32))
    connection = sqlite3.connect(database)
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        columns = ", ".join(f'"{c}"' for c in header)
        connection.execute(f"CREATE TABLE report (id INTEGER PRIMARY KEY, {columns})")
        contact = header.index("reporter_contact")
        sql = f"INSERT INTO report ({columns}) VALUES ({', '.join('?' * len(header))})"
        for row in reader:
            nonce = secrets.token_bytes(12)
            row[contact] = nonce + aead.encrypt(nonce, row[contact].encode(), b"owner")  # type: ignore[call-overload]
            connection.execute(sql, row)
    connection.commit()
    connection.close()
    return time.perf_counter() - start, time.process_time() - cpu


def profile_import(path: Path, home: Path, out: Path) -> None:
    """The import in this process under cProfile (the store prepared first)."""
    import cProfile

    os.environ["ATHAR_HOME"] = str(home)
    os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "athar.settings")
    import django

    django.setup()
    from athar.core.store import ensure_store
    from athar.registry.importing import import_reports

    ensure_store()
    cProfile.runctx("import_reports(path)", globals(), {"import_reports": import_reports, "path": path},
                    filename=str(out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--profile", type=Path, default=None, help="cProfile the import (in process) into FILE")
    options = parser.parse_args()
    compiled()  # the command timed as installed: bytecode written once
    with tempfile.TemporaryDirectory(prefix="athar-import-bench-") as tmp:
        folder = Path(tmp)
        path = folder / "reports.csv"
        write_csv(path, options.rows)
        if options.profile:
            profile_import(path, folder / "home", options.profile)
            print(f"profile written to {options.profile}", file=sys.stderr)
            return
        plain, plain_cpu = plain_loop(path, folder)
        athar(folder / "home", "registry", "template", str(folder / "template.csv"))  # create + migrate the store
        wall, cpu, result = athar(folder / "home", "registry", "import", str(path))
        size = path.stat().st_size
    rows = options.rows
    inner = float(result.get("seconds") or wall)
    figures = {
        "rows": rows, "bytes": size,
        "plain_rows_per_s": round(rows / plain), "import_rows_per_s": round(rows / wall),
        "import_rows_per_s_in_process": round(rows / inner),
        "ratio": round(plain / wall, 3), "ratio_cpu": round(plain_cpu / cpu, 3),
        "plain_cpu_seconds": round(plain_cpu, 2), "import_cpu_seconds": round(cpu, 2), "ratio_in_process": round(plain / inner, 3),
        "plain_seconds": round(plain, 2), "import_seconds_wall": round(wall, 2),
        "import_seconds_in_process": round(inner, 2), "imported": result["imported"],
        "rejected": len(result["rejected"]),
    }
    print(f"plain loop : {figures['plain_rows_per_s']:>8} rows/s ({plain:.2f} s)", file=sys.stderr)
    print(f"athar import: {figures['import_rows_per_s']:>8} rows/s ({wall:.2f} s wall; "
          f"{figures['import_rows_per_s_in_process']} rows/s in process, {inner:.2f} s)", file=sys.stderr)
    print(f"ratio       : {figures['ratio']} (in process {figures['ratio_in_process']}; CPU seconds "
          f"{plain_cpu:.2f} / {cpu:.2f} = {figures['ratio_cpu']}); target ≥ 0.25",
          file=sys.stderr)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
