"""Numbers read in archive photos become suggestions archivists decide (issue 29, step 6).

The index reads each stored photo once per reader version and is resumable; the decision rules
(who decided, a correction's reason, one reading per box and version, a second and different
archivist for a number that changes a case) hold in the database whatever writes, and in the
domain for every role, outsiders and inactive accounts included."""

from __future__ import annotations

from datetime import timedelta

import numpy as np
import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone
from PIL import Image

from athar.archive import number_review, numbers
from athar.archive.models import Archive, Case, Facility, NumberReading, Photo, PhotoNumbersRead
from athar.archive.number_review import NotAllowed
from athar.audit.models import AuditEvent
from athar.core.errors import UserError
from tests.concurrency import in_threads
from tests.matching.numbers.test_reader import FONT, photo_with_card

pytestmark = pytest.mark.django_db(transaction=True)


def _case(detainee: str = "", label: str = "1") -> Case:
    archive, _ = Archive.objects.get_or_create(name="A")
    facility, _ = Facility.objects.get_or_create(code="215", defaults={"number": 215})
    return Case.objects.create(archive=archive, facility=facility, label=label, detainee_number=detainee)


def _reading(case: Case | None = None, text: str = "2719", kind: str = "", n: int = 0) -> NumberReading:
    archive = case.archive if case else Archive.objects.get_or_create(name="A")[0]
    photo = Photo.objects.create(sha256=f"{n:064d}", archive=archive, case=case, original_path=f"p{n}.jpg",
                                 original_name=f"p{n}.jpg", size=1)
    return NumberReading.objects.create(photo=photo, text=text, confidence=0.95, x0=1, y0=2, x1=30, y1=20,
                                        kind=kind, reader_version="v1")


# --- the database's rules -------------------------------------------------------------------------
def test_constraints_hold_whatever_writes(make_user):
    archivist, other = make_user("archivist"), make_user("archivist")
    reading = _reading()
    now = timezone.now()
    bad_updates = [
        {"status": "confirmed"},  # decided, but by no one
        {"status": "corrected", "decided_by": archivist, "decided_at": now, "corrected_text": "2718"},  # no reason
        {"status": "corrected", "decided_by": archivist, "decided_at": now, "reason": "card"},  # no new text
        {"status": "confirmed", "decided_by": archivist, "decided_at": now, "needs_second": True,
         "second_by": archivist, "second_at": now},  # the same archivist twice
        {"status": "rejected", "decided_by": archivist, "decided_at": now, "needs_second": True},
        {"status": "confirmed", "decided_by": archivist, "decided_at": now, "second_by": other,
         "second_at": now},  # a second archivist where none is needed
    ]
    for fields in bad_updates:
        with pytest.raises(IntegrityError), transaction.atomic():
            NumberReading.objects.filter(pk=reading.pk).update(**fields)
    NumberReading.objects.filter(pk=reading.pk).update(status="confirmed", decided_by=archivist, decided_at=now,
                                                       needs_second=True, second_by=other,
                                                       second_at=now + timedelta(seconds=1))
    with pytest.raises(IntegrityError), transaction.atomic():  # one reading per photo + box + version
        NumberReading.objects.create(photo=reading.photo, text="1", confidence=0.9, x0=1, y0=2, x1=30, y1=20,
                                     reader_version="v1")
    NumberReading.objects.create(photo=reading.photo, text="1", confidence=0.9, x0=1, y0=2, x1=30, y1=20,
                                 reader_version="v2")


# --- the index ------------------------------------------------------------------------------------
@pytest.mark.skipif(not FONT.exists(), reason="fonts-dejavu-core is not installed")
def test_index_reads_each_photo_once_and_resumes(tmp_path, monkeypatch):
    from tests.archive.helpers import run_ingest, write

    rng = np.random.default_rng(1)
    Image.fromarray(np.clip(rng.normal(100, 20, (600, 800, 3)), 0, 255).astype(np.uint8)).save(tmp_path / "no.png")
    card, _ = photo_with_card("٢٧١٩", 200)  # Arabic-Indic digits, upside down
    card.save(tmp_path / "card.png")
    write(tmp_path / "arch", "215/1/none.png", (tmp_path / "no.png").read_bytes())
    write(tmp_path / "arch", "215/2/card.png", (tmp_path / "card.png").read_bytes())
    run_ingest(tmp_path / "arch", name="A")
    assert Photo.objects.count() == 2

    real_store = numbers._store_readings
    calls = {"n": 0}

    def killed_after_one(*args):  # the run is killed while the second photo is being stored
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        return real_store(*args)

    monkeypatch.setattr(numbers, "_store_readings", killed_after_one)
    with pytest.raises(KeyboardInterrupt):
        numbers.index_archive_numbers("A")
    assert PhotoNumbersRead.objects.count() == 1
    monkeypatch.setattr(numbers, "_store_readings", real_store)

    second = numbers.index_archive_numbers("A")
    assert second["photos_read"] == 1 and second["pending"] == 0
    texts = sorted(NumberReading.objects.values_list("text", flat=True))
    assert texts == ["2719"]  # Western digits whatever the script
    assert PhotoNumbersRead.objects.count() == 2  # the photo without a number is not read again
    assert set(NumberReading.objects.values_list("status", flat=True)) == {"suggested"}
    assert numbers.index_archive_numbers("A")["photos_read"] == 0  # nothing read twice
    assert NumberReading.objects.count() == 1
    event = AuditEvent.objects.filter(action="numbers.indexed").last()
    assert event is not None and set(event.data) == {"photos_read", "numbers", "unreadable", "reader_version"}
    with pytest.raises(UserError):
        numbers.index_archive_numbers("no such archive")


# --- deciding -------------------------------------------------------------------------------------
def test_only_active_archivists_decide(make_user):
    reading = _reading()
    for outsider in [make_user("family"), make_user("caseworker"), make_user("reviewer"),
                     make_user("archivist", is_active=False), None]:
        with pytest.raises(NotAllowed):
            number_review.decide(outsider, reading.pk, "confirm")
        with pytest.raises(NotAllowed):
            number_review.suggestions_for(outsider)
    assert NumberReading.objects.get().status == "suggested"
    assert list(number_review.suggestions_for(make_user("admin"))) == [reading]


def test_confirm_correct_reject_each_once_and_audited(make_user):
    archivist = make_user("archivist")
    case = _case(detainee="2719")
    same, wrong, nothing = _reading(case, "2719", "detainee", 1), _reading(case, "2718", "", 2), _reading(case, n=3)

    confirmed = number_review.decide(archivist, same.pk, "confirm")
    assert confirmed.status == "confirmed" and not confirmed.needs_second and confirmed.settled
    with pytest.raises(UserError, match="already decided"):
        number_review.decide(make_user("archivist"), same.pk, "reject")

    with pytest.raises(UserError, match="reason"):
        number_review.decide(archivist, wrong.pk, "correct", number="2719")
    with pytest.raises(UserError, match="not a number"):
        number_review.decide(archivist, wrong.pk, "correct", number="27a9", reason="the card says so")
    corrected = number_review.decide(archivist, wrong.pk, "correct", number="٢٧١٩", reason="the card says so",
                                     kind="other")
    assert (corrected.status, corrected.corrected_text, corrected.number) == ("corrected", "2719", "2719")

    rejected = number_review.decide(archivist, nothing.pk, "reject")
    assert rejected.status == "rejected" and rejected.decided_by == archivist
    events = list(AuditEvent.objects.filter(object_type="number_reading").order_by("seq"))
    assert [e.action for e in events] == ["numbers.confirmed", "numbers.corrected", "numbers.rejected"]
    assert all(e.actor == f"user:{archivist.pk}" for e in events)
    assert not any("2719" in str(e.data) or "card" in str(e.data) for e in events)  # ids only


def test_a_number_that_changes_the_case_needs_a_second_different_archivist(make_user):
    first, second = make_user("archivist"), make_user("archivist")
    case = _case(detainee="1111")
    reading = _reading(case, "2719", "detainee")

    decided = number_review.confirm(first, reading.pk)
    assert decided.needs_second and not decided.settled
    with pytest.raises(NotAllowed, match="someone other"):
        number_review.confirm(first, reading.pk)
    assert list(number_review.suggestions_for(first, "second")) == []
    assert list(number_review.suggestions_for(second, "second")) == [decided]
    case.refresh_from_db()
    assert case.detainee_number == "1111"  # one archivist does not change who the case is
    agreed = number_review.confirm(second, reading.pk)
    assert agreed.settled and agreed.second_by == second
    case.refresh_from_db()
    assert case.detainee_number == "2719"  # two agreed: the case carries the confirmed number
    event = AuditEvent.objects.get(action="case.detainee_number_set")
    assert event.object_id == str(case.pk) and event.data["number_reading"] == reading.pk
    with pytest.raises(UserError, match="already agreed"):
        number_review.agree(make_user("archivist"), reading.pk)

    branch = _reading(case, "227", "branch", 2)  # the case's facility is 215
    assert number_review.decide(first, branch.pk, "confirm").needs_second
    own = _reading(case, "215", "", 3)  # the same branch as the case: one archivist is enough
    assert not number_review.decide(first, own.pk, "confirm", kind="branch").needs_second


def test_two_archivists_agreeing_at_once_store_one_agreement(make_user):
    first = make_user("archivist")
    others = [make_user("archivist") for _ in range(3)]
    reading = _reading(_case(detainee=""), "2719", "detainee")
    number_review.decide(first, reading.pk, "confirm")

    results = in_threads(3, lambda i: number_review.agree(others[i], reading.pk))
    agreed = [r for r in results if isinstance(r, NumberReading)]
    assert len(agreed) == 1, results
    assert all(isinstance(r, UserError) for r in results if not isinstance(r, NumberReading))
    assert AuditEvent.objects.filter(action="numbers.agreed").count() == 1


def test_two_first_decisions_at_once_store_one(make_user):
    archivists = [make_user("archivist") for _ in range(3)]
    reading = _reading()
    actions = ["confirm", "reject", "confirm"]
    results = in_threads(3, lambda i: number_review.decide(archivists[i], reading.pk, actions[i]))
    assert sum(isinstance(r, NumberReading) for r in results) == 1, results
    assert AuditEvent.objects.filter(object_type="number_reading").count() == 1


@pytest.mark.skipif(not FONT.exists(), reason="fonts-dejavu-core is not installed")
def test_two_index_runs_at_once_store_each_photo_once(tmp_path):
    from tests.archive.helpers import run_ingest, write

    for i in range(3):
        card, _ = photo_with_card("٢٧١٩", 200, seed=3 + i)
        card.save(tmp_path / f"c{i}.png")
        write(tmp_path / "arch", f"215/{i + 1}/card.png", (tmp_path / f"c{i}.png").read_bytes())
    run_ingest(tmp_path / "arch", name="A")

    results = in_threads(2, lambda i: numbers.index_archive_numbers("A"))
    assert all(isinstance(r, dict) for r in results), results
    # The invariant is what is stored. The counts a run returns are only a lower bound here: the
    # test client retries a whole run the shared in-memory SQLite refused midway, and a retried run
    # counts only the photos it stored itself.
    assert sum(r["photos_read"] for r in results) <= 3
    assert all(r["pending"] == 0 for r in results)
    photos = list(Photo.objects.values_list("pk", flat=True))
    assert sorted(PhotoNumbersRead.objects.values_list("photo_id", flat=True)) == sorted(photos)
    per_photo = {p: NumberReading.objects.filter(photo_id=p).count() for p in photos}
    assert max(per_photo.values()) <= 1


def test_a_new_calibrator_is_a_new_reader_version(tmp_path, monkeypatch):
    """Twenty-second session: the calibrator decides what is suggested, so another calibrator reads
    the archive again (a photo is read once per version), as new weights do."""
    import json

    from athar.matching.numbers import calibration

    numbers.reader_version.cache_clear()
    shipped = numbers.reader_version()
    data = json.loads(calibration.CALIBRATOR_PATH.read_text())
    data["coefficients"][0] -= 0.1
    (tmp_path / "other.json").write_text(json.dumps(data))
    monkeypatch.setattr(calibration, "CALIBRATOR_PATH", tmp_path / "other.json")
    numbers.reader_version.cache_clear()
    try:
        assert numbers.reader_version() != shipped
        assert numbers.reader_version().startswith("digits-")
    finally:
        numbers.reader_version.cache_clear()
