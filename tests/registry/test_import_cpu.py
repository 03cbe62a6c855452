"""What the import's CPU cuts (issue 28) must leave as it was: the content hash's text (the identity
of an unchanged row on re-import), the values ``insert_reports`` writes (the ORM's own), the
collector's thresholds after an import, and a refused row's reason."""

from __future__ import annotations

import datetime as dt
import gc
import hashlib
import hmac
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from athar.registry import importing, keys
from athar.registry.bulk import insert_reports, new_report
from athar.registry.importing import content_hash, import_reports
from athar.registry.models import ImportBatch, Report
from athar.registry.rows import ParsedRow


def _row() -> ParsedRow:
    return ParsedRow(2, "s", "R1", {"full_name_ar": "محمد «أحمد»", "birth_year": 1980, "birth_date": None,
                                    "arrest_date": dt.date(2012, 3, 1), "arrest_date_precision": "day",
                                    "sex": "M", "notes": "a\nb \"q\""},
                     contact="+963 944 000001", photos=["a.jpg"], extra={"x": "1", "العمود": "قيمة"})


def test_the_content_hash_text_is_unchanged() -> None:
    """The hash the code before these changes (7e88de5) gave this row, and its formula written out."""
    row, key = _row(), b"k" * 32
    body = json.dumps({"f": row.fields, "c": row.contact, "p": row.photos, "x": row.extra},
                      sort_keys=True, default=str, ensure_ascii=False)
    assert content_hash(row, key) == hmac.new(key, body.encode("utf-8"), hashlib.sha256).hexdigest()
    assert content_hash(row, key) == "36e3f72d4f3e02c589fc80a23a9be80f71ef766f2cd7e831ca885e5c06d41705"


@pytest.mark.django_db
def test_insert_reports_writes_what_the_orm_writes() -> None:
    batch = ImportBatch.objects.create(source="s", file_name="f.csv", file_sha256="0" * 64, actor="t")
    values: dict[str, Any] = {
        "source": "s", "lineage": "l" * 32, "version": 1, "full_name_ar": "الحاج محمد أحمد", "birth_year": 1980,
        "birth_date": dt.date(1980, 5, 2), "arrest_date": dt.date(2012, 3, 1), "arrest_date_precision": "day",
        "sex": "M", "extra": {"x": "١", "y": ""}, "name_titles": ["الحاج"], "reporter_contact": b"\x01\x02secret",
        "content_hash": "h" * 64, "batch_id": batch.pk}
    bulk = new_report(report_id="bulk", row_number=2, **values)
    insert_reports([bulk], batch.pk)
    orm = new_report(report_id="orm", row_number=3, **values)
    orm.save()
    assert bulk.pk is not None and not bulk._state.adding
    stored: dict[str, dict[str, Any]] = {r["report_id"]: dict(r) for r in Report.objects.values()}
    written, saved = stored["bulk"], stored["orm"]
    assert written["filed_at"] is not None
    for name in ("id", "report_id", "row_number", "filed_at"):  # filed_at: the time of each insert
        written.pop(name), saved.pop(name)
    assert written == saved


def _rows(n: int) -> list[list[str]]:
    return [[f"R{i:05d}", f"محمود أحمد السالم {i}", "X?"] for i in range(n)]


@pytest.mark.django_db
def test_the_collector_thresholds_are_set_back_after_a_large_import(write_csv: Callable[..., Path],
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_csv(["report_id", "full_name_ar", "sex"], _rows(7))
    monkeypatch.setattr(importing, "CHUNK", 3)
    before = gc.get_threshold()
    during: list[int] = []
    original = importing.record

    def note(action: str, **kwargs: Any) -> Any:
        during.append(gc.get_threshold()[0])
        return original(action, **kwargs)

    monkeypatch.setattr(importing, "record", note)
    result = import_reports(path, source="s")
    assert result["imported"] == 7 and gc.get_threshold() == before
    assert during[0] >= 50_000  # raised while the chunks were written
    assert [w["reason"] for w in result["value_warnings"]] == ["not one of M / F / unknown (ذكر / أنثى / غير معروف)"] * 7


class Crash(RuntimeError):
    """The power went out."""


@pytest.mark.django_db
def test_the_collector_thresholds_are_set_back_when_an_import_fails(write_csv: Callable[..., Path],
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_csv(["report_id", "full_name_ar", "sex"], _rows(7))
    monkeypatch.setattr(importing, "CHUNK", 3)
    before = gc.get_threshold()

    def crash(action: str, **kwargs: Any) -> Any:
        raise Crash

    monkeypatch.setattr(importing, "record", crash)
    with pytest.raises(Crash):
        import_reports(path, source="s")
    assert gc.get_threshold() == before


@pytest.mark.django_db
def test_a_row_made_without_its_lineage_is_written_with_it(tmp_path: Path) -> None:
    batch = ImportBatch.objects.create(source="s", file_name="f.csv", file_sha256="1" * 64, actor="t",
                                       status=ImportBatch.Status.RUNNING, runner="me")
    row = _row()
    row.digest, row.photos = "d" * 64, []
    assert row.lineage == ""
    importing._ChunkWriter(batch, tmp_path, importing.ImportResult()).write([row], 2, 1, 0)
    report = Report.objects.get()
    assert report.lineage == importing.lineage_of("s", "R1") and report.lineage
    assert report.reporter_contact is not None
    assert keys.decrypt_for(importing.contact_owner(report.lineage), bytes(report.reporter_contact)) == row.contact
