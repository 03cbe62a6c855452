"""An ingest run's page says why each file was refused in the archivist's language: the stored code
and values worded from the catalogue, the technical detail verbatim beside it, left to right."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from athar.archive.models import IngestRun, RejectedFile
from tests.archive.helpers import jpeg, run_ingest, write
from tests.web.test_arabic_everywhere import ALLOWED_WORDS, catalogue_ids, english_left, visible_text

pytestmark = pytest.mark.django_db


def _faulty_archive(root: Path) -> None:
    write(root, "215/1001/good.jpg", jpeg(1))
    write(root, "215/1001/not-an-image.jpg", b"this is a letter, not a photograph\n")
    write(root, "215/1001/truncated.jpg", jpeg(2)[:400])
    write(root, "stray.jpg", jpeg(3))
    (root / "manifest.csv").write_text("path,facility,case,photographed,kind,note\n"
                                       "215/1001/good.jpg,215,1001,2012-05,portrait,\n"
                                       "215/1001/truncated.jpg,215,1001,2012-02-31,face,\n", encoding="utf-8")
    (root / "cases.csv").write_text("facility,case,sex,age_min,age_max\n"
                                    "215,1001,M,60,20\n"
                                    "215,1002,X,,\n", encoding="utf-8")


def _run_page(client: Any, lang: str) -> str:
    run = IngestRun.objects.get()
    with translation.override(lang):
        return client.get(reverse("web:ingest_run", args=[run.pk])).content.decode()


def test_every_refusal_has_a_code_its_values_and_the_english_reason(tmp_path: Path) -> None:
    _faulty_archive(tmp_path)
    result = run_ingest(tmp_path)
    codes = {(r["path"], r["code"]) for r in result["rejected"]}
    assert codes == {("215/1001/not-an-image.jpg", "not_an_image"), ("215/1001/truncated.jpg", "corrupt_image"),
                     ("stray.jpg", "no_case"), ("manifest.csv:row 2", "manifest_row"),
                     ("manifest.csv:row 3", "manifest_row"), ("cases.csv:row 2", "manifest_row"),
                     ("cases.csv:row 3", "manifest_row")}
    stored = {f.path: f for f in RejectedFile.objects.all()}
    assert stored["manifest.csv:row 2"].params == {"file": "manifest.csv", "row": 2, "problem": "unknown_kind",
                                                   "kind": "portrait", "allowed": "body, face, label, marks, unknown"}
    assert stored["cases.csv:row 2"].params["problem"] == "age_range_inverted"
    assert stored["cases.csv:row 2"].reason == "age_min 60 is above age_max 20"
    assert stored["cases.csv:row 3"].params["problem"] == "unknown_sex"
    assert stored["manifest.csv:row 3"].params["problem"] == "impossible_date"
    truncated = stored["215/1001/truncated.jpg"]
    assert truncated.reason.startswith("corrupt or truncated image (") and truncated.params["detail"]
    assert truncated.kept_sha256  # kept as evidence
    by_path = {r["path"]: r for r in result["rejected"]}
    assert by_path["manifest.csv:row 2"]["reason"] == "unknown kind 'portrait' (use one of body, face, label, marks, unknown)"


def test_the_run_page_in_arabic_words_every_reason_in_arabic(tmp_path: Path, client_for: Any, world: Any) -> None:
    _faulty_archive(tmp_path)
    run_ingest(tmp_path)
    html = _run_page(client_for(world.archivist), "ar")
    for arabic in ("ليست صورة (صيغة غير معروفة)", "صورة تالفة أو ناقصة", "تعذّرت معرفة المنشأة والحالة",
                   "نوع غير معروف", "العمر الأدنى", "جنس غير معروف", "تاريخ غير ممكن", "حُفظ دليلاً",
                   "الصور المضافة", "الملفات المرفوضة"):
        assert arabic in html, arabic
    assert re.search(r"السطر <bdi>2</bdi>: نوع غير معروف «<bdi dir=\"ltr\"><code>portrait</code></bdi>»", html)
    assert '<td dir="ltr">cases.csv</td>' in html  # the file; its row is in the message
    names = {w.lower() for w in re.findall(r"[A-Za-z]+", f"{tmp_path} not-an-image portrait")}  # paths: names
    assert english_left(visible_text(html), catalogue_ids(), ALLOWED_WORDS | names) == []
    detail = RejectedFile.objects.get(code="corrupt_image").params["detail"]  # Pillow's own words, verbatim
    assert f'صورة تالفة أو ناقصة <bdi dir="ltr"><code>{detail}</code></bdi>' in html
    assert "archive:" not in html  # the archive's name is no count
    assert html.count('<span class="muted">(حُفظ دليلاً)</span>') == 2  # the not-image, the truncated (the stray's
    # message says it already)


def test_the_run_page_in_english_reads_as_the_command_line_does(tmp_path: Path, client_for: Any,
                                                                world: Any) -> None:
    _faulty_archive(tmp_path)
    run_ingest(tmp_path)
    html = _run_page(client_for(world.archivist), "en")
    assert "not an image (unrecognised format)" in html and "corrupt or truncated image" in html
    assert "row <bdi>2</bdi>: age_min <bdi>60</bdi> is above age_max <bdi>20</bdi>" in html
    assert "files refused" in html


def test_a_row_stored_before_codes_shows_its_english_reason_as_detail(client_for: Any, world: Any) -> None:
    run = IngestRun.objects.create(archive=world.case.archive, source="/srv/old", status="done")
    RejectedFile.objects.create(run=run, path="a/b.jpg", reason="corrupt or truncated image (old words)")
    html = _run_page(client_for(world.archivist), "ar")
    assert "رُفض لسبب آخر" in html and "<code>corrupt or truncated image (old words)</code>" in html


def test_only_archivists_open_the_run_page(tmp_path: Path, client_for: Any, world: Any) -> None:
    _faulty_archive(tmp_path)
    run_ingest(tmp_path)
    run = IngestRun.objects.get()
    for outsider in (world.family, world.caseworker, world.reviewer):
        assert client_for(outsider).get(reverse("web:ingest_run", args=[run.pk])).status_code == 403
    assert client_for(None).get(reverse("web:ingest_run", args=[run.pk])).status_code == 302
