import io
import unicodedata

import pytest
from django.conf import settings
from PIL import Image

from athar.archive.models import Case, Derivative, Facility, NearDuplicate, Photo, PhotoSighting
from athar.archive.storage import MediaStore, sha256_file
from athar.archive.synthetic import make_archive
from tests.archive.helpers import jpeg, run_ingest, write

pytestmark = pytest.mark.django_db


def test_facility_folder_spellings_resolve_to_one_facility(tmp_path):
    for i, folder in enumerate(["215", "Branch 215", "فرع 215", "الفرع 215 - المخابرات العسكرية"]):
        write(tmp_path, f"{folder}/10{i}/1.jpg", jpeg(i))
    result = run_ingest(tmp_path)
    assert result["photos_added"] == 4 and result["facilities"] == 1
    assert set(Case.objects.values_list("facility__code", flat=True)) == {"215"}


def test_a_name_without_number_is_a_facility_by_normalised_name(tmp_path):
    write(tmp_path, "Air Force Intelligence Mezzeh/1/a.jpg", jpeg(1))
    write(tmp_path, "air force intelligence  MEZZEH/2/a.jpg", jpeg(2))
    run_ingest(tmp_path)
    assert Case.objects.values("facility").distinct().count() == 1
    assert Case.objects.first().facility.code == "air-force-intelligence-mezzeh"


def test_faulty_files_are_reported_and_kept_as_evidence(tmp_path):
    archive = make_archive(tmp_path / "arc", cases_per_facility=2, photos_per_case=2, faulty=True)
    result = run_ingest(archive.root)
    reasons = {r["path"].rsplit("/", 1)[-1]: r["reason"] for r in result["rejected"]}
    assert "empty" in reasons["empty.jpg"]
    assert "truncated" in reasons["truncated.jpg"]
    assert "not an image" in reasons["not-an-image.jpg"]
    assert "bomb" in reasons["bomb.png"]
    assert "symbolic link" in reasons["link-to-elsewhere.jpg"]
    store = MediaStore(settings.MEDIA_ROOT)
    for name in ("truncated.jpg", "not-an-image.jpg", "bomb.png", "empty.jpg"):
        photo = Photo.objects.get(original_name=name)
        assert not photo.viewable and store.original_path(photo.sha256).exists()
        assert not photo.derivatives.exists()
    nfd_name = unicodedata.normalize("NFC", "صورة-مُعتقل.jpg")
    assert Photo.objects.get(original_name=nfd_name).viewable  # Arabic NFD name ingested, stored as NFC
    assert result["photos_added"] == archive.photos + len(archive.faulty) - 1  # all but the symlink


def test_originals_are_kept_byte_for_byte_and_read_only(tmp_path):
    data = jpeg(3, exif_gps=True)
    write(tmp_path, "215/1/a.jpg", data)
    run_ingest(tmp_path)
    photo = Photo.objects.get()
    stored = MediaStore(settings.MEDIA_ROOT).original_path(photo.sha256)
    assert stored.read_bytes() == data
    assert stored.stat().st_mode & 0o222 == 0  # nobody may write it (os.access says yes to root, whatever the mode)
    assert oct(stored.stat().st_mode & 0o777) == "0o400"  # athar's account only (issue 17)
    assert "GPSGPSLatitudeRef" in photo.exif or any(k.startswith("GPS") for k in photo.exif)


def test_derivatives_carry_no_exif_and_blur_exists(tmp_path):
    write(tmp_path, "215/1/a.jpg", jpeg(4, size=400, exif_gps=True))
    run_ingest(tmp_path)
    photo = Photo.objects.get()
    kinds = set(photo.derivatives.values_list("kind", flat=True))
    assert kinds == {"view", "thumb", "blur", "blur_thumb"}
    for derivative in Derivative.objects.all():
        image = Image.open(MediaStore(settings.MEDIA_ROOT).path(derivative.path))
        assert not image.getexif() and "exif" not in image.info
        assert sha256_file(MediaStore(settings.MEDIA_ROOT).path(derivative.path)) == derivative.sha256


def test_an_upright_jpeg_is_viewed_as_its_own_compressed_picture(tmp_path):
    """No second compression loss for what people look at: the viewing copy of an upright RGB
    JPEG within the viewing size decodes to the original's pixels (its metadata cut out)."""
    original = jpeg(4, size=400, exif_gps=True)
    write(tmp_path, "215/1/a.jpg", original)
    run_ingest(tmp_path)
    view = Derivative.objects.get(kind="view")
    stored = MediaStore(settings.MEDIA_ROOT).path(view.path).read_bytes()
    assert stored != original and b"CameraMaker" not in stored
    assert Image.open(io.BytesIO(stored)).tobytes() == Image.open(io.BytesIO(original)).tobytes()


def test_rerun_is_idempotent(tmp_path):
    make_archive(tmp_path, cases_per_facility=2, photos_per_case=2)
    first = run_ingest(tmp_path)
    second = run_ingest(tmp_path)
    assert first["photos_added"] == 20 and second["photos_added"] == 0
    assert second["already_ingested"] == 20 and Photo.objects.count() == 20
    assert PhotoSighting.objects.count() == 20 and second["cases"] == first["cases"]


def test_exact_duplicate_is_another_sighting_not_another_copy(tmp_path):
    data = jpeg(5)
    write(tmp_path, "215/1/a.jpg", data)
    write(tmp_path, "227/9/copy.jpg", data)
    result = run_ingest(tmp_path)
    assert result["photos_added"] == 1 and result["duplicates"] == 1
    assert Photo.objects.count() == 1 and PhotoSighting.objects.count() == 2


def test_near_duplicates_are_linked_and_reported(tmp_path):
    original = jpeg(6, size=400)
    image = Image.open(io.BytesIO(original))
    smaller = io.BytesIO()
    image.resize((200, 200)).save(smaller, "JPEG", quality=60)
    write(tmp_path, "215/1/a.jpg", original)
    write(tmp_path, "215/1/b.jpg", smaller.getvalue())
    write(tmp_path, "215/1/c.jpg", jpeg(99, size=400))
    result = run_ingest(tmp_path)
    assert result["near_duplicates"] == 1 and NearDuplicate.objects.count() == 1


def test_pattern_layout_reads_numbers_from_file_names(tmp_path):
    write(tmp_path, "flat/215_1001_1.jpg", jpeg(7))
    write(tmp_path, "flat/215_1001_2.jpg", jpeg(8))
    write(tmp_path, "251_77_1.jpg", jpeg(9))
    result = run_ingest(tmp_path, pattern=r"(?P<facility>\d+)_(?P<case>\d+)_(?P<n>\d+)")
    assert result["cases"] == 2 and not result["rejected"]
    assert Case.objects.get(label="1001").photos.count() == 2


def test_cases_csv_wins_over_manifest_and_paths(tmp_path):
    write(tmp_path, "215/1001/a.jpg", jpeg(10))
    write(tmp_path, "loose.jpg", jpeg(11))
    (tmp_path / "manifest.csv").write_text(
        "path,facility,case,photographed,kind,note\n"
        "215/1001/a.jpg,215,1001,2012-05,face,\n"
        "loose.jpg,Branch 251,88,2013-01-02,body,from a second folder\n", encoding="utf-8")
    (tmp_path / "cases.csv").write_text(
        "facility,case,agency,detainee_number,hospital_number,photographed,sex,age_min,age_max,marks\n"
        "215,1001,Military Intelligence,1001/215,5123,2012-06-11,M,25,35,scar above right eyebrow\n"
        "251,88,,,,,,,,\n"
        "215,bad,,,,,X,,,\n", encoding="utf-8")
    result = run_ingest(tmp_path)
    case = Case.objects.get(label="1001")
    assert case.photographed.isoformat() == "2012-06-11" and case.photographed_precision == "day"
    assert case.detainee_number == "1001/215" and case.sex == "M" and (case.age_min, case.age_max) == (25, 35)
    assert case.facility.agency.code == "military-intelligence"
    assert Photo.objects.get(original_name="a.jpg").kind == "face"
    loose = Photo.objects.get(original_name="loose.jpg")
    assert loose.case.label == "88" and loose.case.facility.code == "251" and loose.kind == "body"
    assert any(r["path"] == "cases.csv:row 4" and "sex" in r["reason"] for r in result["rejected"])


def test_a_file_without_facility_or_case_is_kept_and_reported(tmp_path):
    write(tmp_path, "stray.jpg", jpeg(12))
    result = run_ingest(tmp_path)
    assert result["photos_added"] == 1 and Photo.objects.get().case is None
    assert "cannot tell facility and case" in result["rejected"][0]["reason"]


def test_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="archive folder not found"):
        run_ingest(tmp_path / "nope")


def test_shipped_facility_table_is_loaded_and_editable(tmp_path):
    write(tmp_path, "فرع الخطيب/1/a.jpg", jpeg(13))
    run_ingest(tmp_path)
    assert Case.objects.get().facility.code == "251"
    facility = Facility.objects.get(code="235")
    facility.name_en = "Palestine Branch (edited)"
    facility.save()
    run_ingest(tmp_path, name="B")
    assert Facility.objects.get(code="235").name_en == "Palestine Branch (edited)"


@pytest.mark.slow
def test_a_few_thousand_photos_with_faulty_files(tmp_path):
    """Many batches through the worker pool, faulty files among them, then the same folder again.
    Faces and numbers are read after the files are recorded and tested on their own: off here."""
    archive = make_archive(tmp_path, facilities=("215", "227", "235", "248", "251"), cases_per_facility=100,
                           photos_per_case=4, size=64, faulty=True, folder_style="mixed")
    from athar.archive.ingest import IngestOptions, ingest

    summary, arc = ingest(IngestOptions(root=tmp_path, archive="big", faces=False, numbers=False, workers=2))
    result = summary.as_dict(arc)
    assert archive.photos == 2000
    assert result["photos_added"] == 2000 + len(archive.faulty) - 1
    assert result["cases"] == 501 and result["facilities"] == 5 and len(result["rejected"]) == 6
    again = run_ingest(tmp_path, name="big")
    assert again["photos_added"] == 0 and Photo.objects.count() == result["photos_added"]


def test_a_batch_another_ingest_recorded_first_is_recorded_file_by_file_without_doubles(tmp_path, monkeypatch):
    """The batch's bulk insert meets the rows a concurrent ingest committed after this run looked
    (simulated: this run sees no earlier sighting): the savepoint is rolled back and each file is
    recorded one by one, counted as already ingested, nothing doubled."""
    from athar.archive import ingest as ingest_module

    make_archive(tmp_path, cases_per_facility=2, photos_per_case=2)
    first = run_ingest(tmp_path)
    nothing_seen = PhotoSighting.objects.none()
    monkeypatch.setattr(ingest_module.PhotoSighting.objects, "filter", lambda *a, **k: nothing_seen)
    second = run_ingest(tmp_path)
    monkeypatch.undo()
    assert first["photos_added"] == 20 and second["photos_added"] == 0 and second["already_ingested"] == 20
    assert PhotoSighting.objects.count() == 20 and Photo.objects.count() == 20


def test_a_photo_no_larger_than_a_thumbnail_has_one_file_under_two_names(tmp_path):
    """At ≤ 320 px the viewing copy and the thumbnail are the same pixels (and the two blurred
    copies too): written once, linked under the second name, each name hashing to its row."""
    import os

    write(tmp_path, "215/1/small.jpg", jpeg(5, size=250))
    write(tmp_path, "215/1/large.jpg", jpeg(6, size=400))
    run_ingest(tmp_path)
    store = MediaStore(settings.MEDIA_ROOT)

    def files(name):
        rows = {d.kind: d for d in Derivative.objects.filter(photo__original_name=name)}
        return rows, {kind: os.stat(store.path(d.path)).st_ino for kind, d in rows.items()}

    small, inodes = files("small.jpg")
    assert inodes["view"] == inodes["thumb"] and inodes["blur"] == inodes["blur_thumb"] != inodes["view"]
    assert len({d.path for d in small.values()}) == 4
    assert all(sha256_file(store.path(d.path)) == d.sha256 for d in small.values())
    _large, inodes = files("large.jpg")
    assert len(set(inodes.values())) == 4


def test_an_ingest_stores_its_phase_and_files_done_of_the_total_as_it_goes(tmp_path, monkeypatch):
    """What the archivists' page reads while a run goes on: the phase, done of total, updated
    as batches are recorded, then the result."""
    from athar.archive import ingest as ingest_module
    from athar.archive.models import IngestRun

    monkeypatch.setattr(ingest_module, "BATCH", 8)
    monkeypatch.setattr(ingest_module.StoredProgress, "INTERVAL", 0.0)
    make_archive(tmp_path, cases_per_facility=2, photos_per_case=2)  # 20 photos
    seen = []

    def look(_n):
        seen.append(IngestRun.objects.values_list("status", "phase", "done", "total").get())

    ingest_module.ingest(ingest_module.IngestOptions(root=tmp_path, archive="A", faces=False, numbers=False, workers=1),
                         progress=look)
    assert seen[0][:2] == ("running", "files") and all(s[3] == 20 for s in seen)
    assert [s[2] for s in seen] == [8, 16, 20]
    run = IngestRun.objects.get()
    assert (run.status, run.phase, run.done, run.total) == ("done", "done", 20, 20) and run.progress_at
