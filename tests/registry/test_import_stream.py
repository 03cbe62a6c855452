"""Imports by chunks (issue 28): each chunk committed on its own, a re-run resumes after the last
committed chunk (every row exactly once), progress on standard error, data keys in bulk with
crypto-shredding intact, XLSX formulas without a value kept verbatim, bad files refused clearly."""

from __future__ import annotations

import signal
import subprocess
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook

from athar.audit.models import AuditEvent
from athar.core.crypto import DecryptionError
from athar.core.csvio import CsvError
from athar.core.errors import UserError
from athar.registry import importing, keys
from athar.registry.importing import contact_owner, import_reports
from athar.registry.models import DataKey, ImportBatch, Report
from tests.cli_helpers import ATHAR, athar_env, last_json, run_athar

HEADER = ["report_id", "full_name_ar", "reporter_contact", "birth_year"]


def _rows(n: int) -> list[list[str]]:
    return [[f"R{i:05d}", f"محمود أحمد السالم {i}", f"+963 944 {i:06d}", "1980"] for i in range(n)]


class Crash(RuntimeError):
    """The power went out."""


@pytest.mark.django_db
def test_a_crash_loses_at_most_the_chunk_and_a_rerun_resumes(write_csv: Callable[..., Path],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_csv(HEADER, _rows(10))
    monkeypatch.setattr(importing, "CHUNK", 3)
    original = importing.record
    calls = {"n": 0}

    def crash_in_third_chunk(action: str, **kwargs: Any) -> Any:
        if action == "registry.import_chunk":
            calls["n"] += 1
            if calls["n"] == 3:  # inside the third chunk's transaction, before its commit
                raise Crash
        return original(action, **kwargs)

    monkeypatch.setattr(importing, "record", crash_in_third_chunk)
    with pytest.raises(Crash):
        import_reports(path, source="s")
    batch = ImportBatch.objects.get()
    assert batch.status == ImportBatch.Status.RUNNING and batch.checkpoint == 7  # rows 2–7: two chunks
    assert Report.objects.count() == 6 and batch.rows_done == 6
    monkeypatch.setattr(importing, "record", original)

    result = import_reports(path, source="s")
    assert result["batch"] == batch.pk and result["resumed_after_row"] == 7
    assert (result["imported"], result["unchanged"], result["rejected"]) == (10, 0, [])
    ids = list(Report.objects.values_list("report_id", flat=True))
    assert sorted(ids) == [f"R{i:05d}" for i in range(10)]  # every row exactly once
    batch.refresh_from_db()
    assert batch.status == ImportBatch.Status.DONE and batch.rows_done == 10 == batch.rows_total
    chunks = AuditEvent.objects.filter(action="registry.import_chunk", object_id=str(batch.pk))
    assert chunks.count() == 4  # 2 before the crash, 2 after: the crashed chunk left no event
    assert AuditEvent.objects.filter(action="registry.import").count() == 1
    again = import_reports(path, source="s")  # a finished import is not resumed: all unchanged
    assert (again["imported"], again["unchanged"], again["resumed_after_row"]) == (0, 10, 0)


@pytest.mark.django_db
def test_duplicates_are_refused_across_chunks_and_after_a_resume(write_csv: Callable[..., Path],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    rows = _rows(5) + [["R00001", "غير ذلك", "", ""]]
    path = write_csv(HEADER, rows)
    monkeypatch.setattr(importing, "CHUNK", 2)
    result = import_reports(path, source="s")
    assert result["imported"] == 5
    assert result["rejected"] == [{"row": 7, "reason": "a duplicate: report_id 'R00001' already appears in row 3"}]


@pytest.mark.django_db
def test_a_second_importer_takes_over_and_the_first_stops_without_writing(
        write_csv: Callable[..., Path], monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_csv(HEADER, _rows(4))
    monkeypatch.setattr(importing, "CHUNK", 2)
    original = importing._ChunkWriter.write

    def taken_over(self: Any, *args: Any) -> None:
        if self.batch.checkpoint == 0 and Report.objects.exists():
            ImportBatch.objects.filter(pk=self.batch.pk).update(runner="someone-else")
        original(self, *args)

    monkeypatch.setattr(importing._ChunkWriter, "write", taken_over)
    with pytest.raises(UserError, match="another import of the same file took over"):
        import_reports(path, source="s")
    assert Report.objects.count() == 2  # the first chunk; the second was rolled back


@pytest.mark.django_db
def test_progress_is_reported_per_chunk(write_csv: Callable[..., Path], monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_csv(HEADER, _rows(5))
    monkeypatch.setattr(importing, "CHUNK", 2)
    seen: list[tuple[int, int | None]] = []
    import_reports(path, source="s", progress=lambda done, total, rate: seen.append((done, total)))
    assert seen == [(2, 5), (4, 5), (5, 5)]


@pytest.mark.django_db
def test_contacts_encrypted_with_bulk_keys_are_shredded_per_report(write_csv: Callable[..., Path]) -> None:
    path = write_csv(HEADER, _rows(3))
    import_reports(path, source="s")
    assert DataKey.objects.count() == 3  # one key per report lineage, as encrypt_for makes
    first, second, _third = Report.objects.order_by("report_id")
    assert keys.decrypt_for(contact_owner(first.lineage), bytes(first.reporter_contact)) == "+963 944 000000"
    keys.shred(contact_owner(first.lineage))
    with pytest.raises(DecryptionError):
        keys.decrypt_for(contact_owner(first.lineage), bytes(first.reporter_contact))
    assert keys.decrypt_for(contact_owner(second.lineage), bytes(second.reporter_contact)) == "+963 944 000001"


@pytest.mark.django_db
def test_bulk_keys_reuse_an_existing_key() -> None:
    sealed = keys.encrypt_for("report-lineage:known", "0933")
    found = keys.data_keys(["report-lineage:known", "report-lineage:new"])
    assert keys.decrypt_for("report-lineage:new", keys.encrypt_with(found["report-lineage:new"], "report-lineage:new",
                                                                    "x")) == "x"
    assert keys.encrypt_with(found["report-lineage:known"], "report-lineage:known", "0933") != sealed  # fresh nonce
    assert keys.decrypt_for("report-lineage:known", keys.encrypt_with(
        found["report-lineage:known"], "report-lineage:known", "0933")) == "0933"
    assert DataKey.objects.count() == 2


@pytest.mark.django_db
def test_bulk_keys_a_key_written_in_between_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    """Another writer creates an owner's key after the read, before the insert: its key is the one
    returned (the values it encrypted stay readable), and still one key per owner."""
    real_insert = keys._insert_new

    def racing(wrapped: dict[str, bytes], master_id: str) -> int:
        keys.encrypt_for("report-lineage:raced", "written by the other import")
        return real_insert(wrapped, master_id)

    monkeypatch.setattr(keys, "_insert_new", racing)
    found = keys.data_keys(["report-lineage:raced", "report-lineage:calm"])
    theirs = DataKey.objects.get(owner_ref="report-lineage:raced")
    sealed = keys.encrypt_with(found["report-lineage:raced"], "report-lineage:raced", "0944")
    assert keys.decrypt_for("report-lineage:raced", sealed) == "0944"
    assert DataKey.objects.filter(owner_ref="report-lineage:raced").get().pk == theirs.pk
    assert DataKey.objects.count() == 2


@pytest.mark.django_db
def test_an_xlsx_formula_without_a_saved_value_is_kept_as_written(tmp_path: Path) -> None:
    book = Workbook()
    sheet = book.active
    sheet.append(["report_id", "full_name_ar", "city", "birth_year"])
    sheet.append(["X1", "محمود أحمد السالم", '=CONCATENATE("دو","ما")', 1985])
    sheet.append(["X2", "أحمد السالم", "حمص", "=1980+5"])
    path = tmp_path / "reports.xlsx"
    book.save(path)  # openpyxl saves formulas without a value, as a file never opened in Excel
    result = import_reports(path, source="s")
    assert result["imported"] == 2
    one, two = Report.objects.order_by("report_id")
    assert one.city == '=CONCATENATE("دو","ما")'
    assert two.extra["birth_year"] == "=1980+5" and two.birth_year is None
    formulas = [w for w in result["value_warnings"] if "formula" in w["reason"]]
    assert [(w["row"], w["column"], w["value"]) for w in formulas] == [
        (2, "city", '=CONCATENATE("دو","ما")'), (3, "birth_year", "=1980+5")]
    assert any("formula" in line for line in result["warnings"])
    # one warning a cell: the formula's says why its value was not read (not also "not a year")
    assert [w["reason"] for w in result["value_warnings"] if w["row"] == 3] == [formulas[1]["reason"]]
    assert not any("kept as written — kept as written" in line for line in result["warnings"])


@pytest.mark.django_db
def test_a_workbook_with_a_damaged_sheet_stream_is_refused_in_plain_words(tmp_path: Path) -> None:
    """fuzz/fuzz_import.py found it: a sheet whose deflate stream is damaged raised zlib.error from the
    formula scan (an "unexpected failure"); it is the user's file that is bad, said plainly."""
    book = Workbook()
    book.active.append(["report_id", "full_name_ar"])
    book.active.append(["X1", "محمود أحمد السالم " * 200])
    good = tmp_path / "good.xlsx"
    book.save(good)
    with zipfile.ZipFile(good) as archive:
        info = archive.getinfo("xl/worksheets/sheet1.xml")
    data = bytearray(good.read_bytes())
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    for offset in range(start + 10, start + 40):  # the middle of the compressed sheet
        data[offset] ^= 0x5A
    bad = tmp_path / "reports.xlsx"
    bad.write_bytes(bytes(data))
    with pytest.raises(CsvError, match="cannot read reports.xlsx as an Excel workbook"):
        import_reports(bad, source="s")
    assert not Report.objects.exists()


def test_import_command_streams_progress_and_resumes_after_a_kill(tmp_path: Path) -> None:
    """End to end: kill -9 the command after its first committed chunk, run it again: every row
    exactly once; standard output's last line stays the JSON result."""
    from athar.matching.linkage import write_template_csv

    path = write_template_csv(tmp_path / "big.csv", 9000, seed=3)
    home = tmp_path / "home"
    run_athar(home, "registry", "template", str(tmp_path / "t.csv"))  # the store, migrated
    proc = subprocess.Popen([*ATHAR, "registry", "import", str(path), "--json"], env=athar_env(home),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    for line in proc.stderr:
        if "rows" in line and "committed" in line:
            proc.send_signal(signal.SIGKILL)
            break
    proc.wait(timeout=120)
    assert proc.returncode == -signal.SIGKILL
    second = run_athar(home, "registry", "import", str(path), "--json")
    result = last_json(second)
    assert 0 < result["resumed_after_row"] < 9001
    assert (result["imported"], result["unchanged"], len(result["rejected"])) == (9000, 0, 0)
    assert "/9000 rows" in second.stderr and "rows/s" in second.stderr
    third = last_json(run_athar(home, "registry", "import", str(path), "--json"))
    assert (third["imported"], third["unchanged"], third["resumed_after_row"]) == (0, 9000, 0)


@pytest.mark.parametrize(("content", "message"), [
    (b"", "the file is empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 40, "not a CSV text file"),
    (bytes((i * 7 + 3) % 256 for i in range(1, 20000) if (i * 7 + 3) % 256), "not a CSV text file"),
])
def test_empty_and_binary_files_are_refused_in_plain_words(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "reports.csv"
    path.write_bytes(content)
    proc = run_athar(tmp_path / "home", "registry", "import", str(path), "--json", check=False)
    assert proc.returncode == 1
    error = last_json(proc)
    assert error["ok"] is False and message in error["error"]
    assert "Traceback" not in proc.stderr and "unexpected failure" not in proc.stderr
