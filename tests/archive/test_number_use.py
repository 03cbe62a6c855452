"""What confirmed numbers are used for (issue 29): photos of one body grouped by their detainee
number with the faces as a second opinion, facilities suggested by branch numbers and decided by an
archivist, the same number in two archives listed as a possible join; and ingest reading numbers
as it goes (resumable, ``--no-numbers`` to skip)."""

from __future__ import annotations

import numpy as np
import pytest

from athar.archive import number_review, number_use
from athar.archive.models import Case, Face, Facility, NumberReading, Photo, PhotoNumbersRead
from athar.archive.number_review import NotAllowed
from athar.audit.models import AuditEvent
from athar.core.errors import UserError
from tests.archive.numbers_world import case_in, reading_on_new_photo
from tests.archive.test_numbers_review_cli import refused, run

pytestmark = pytest.mark.django_db


def _settle(reading, first, second=None, kind=None):
    number_review.confirm(first, reading.pk, kind)
    reading.refresh_from_db()
    if reading.needs_second:
        number_review.confirm(second, reading.pk)
    reading.refresh_from_db()
    return reading


def _face(photo, vector, model=("arcface", "v1")):
    v = np.asarray(vector, dtype=np.float32)
    Face.objects.create(photo=photo, case=photo.case, index=0, box=[0, 0, 1, 1], quality=1.0,
                        embedding=(v / np.linalg.norm(v)).tobytes(), model_name=model[0], model_version=model[1])


@pytest.fixture
def two(make_user):
    return make_user("archivist"), make_user("archivist")


def test_photos_of_one_body_are_grouped_and_disagreements_shown(two):
    a, b = two
    case, other_case = case_in(label="1", detainee="2065"), case_in(label="2", detainee="")
    body = [_settle(reading_on_new_photo(case, "2065", seed=s, kind="detainee"), a, b) for s in (1, 2)]
    stray = _settle(reading_on_new_photo(other_case, "2065", seed=3, kind="detainee"), a, b)
    lone = _settle(reading_on_new_photo(case, "4444", seed=4, kind="detainee"), a, b)
    unconfirmed = reading_on_new_photo(other_case, "2065", seed=5, kind="detainee")
    _face(body[0].photo, [1, 0, 0, 0])
    _face(body[1].photo, [0.98, 0.05, 0, 0])
    _face(stray.photo, [0, 1, 0, 0])  # another person's face
    groups = number_use.body_groups(a)
    assert [g.number for g in groups] == ["2065"]  # 4444 is on one photo only
    group = groups[0]
    assert group.photos == sorted([body[0].photo_id, body[1].photo_id, stray.photo_id])
    assert unconfirmed.photo_id not in group.photos and lone.photo_id not in group.photos
    assert group.cases_disagree  # filed under two cases
    assert group.faces_compared and group.faces_disagree
    agree = {(p.photo, p.other): p.agree for p in group.face_pairs}
    assert agree[(body[0].photo_id, body[1].photo_id)] is True
    assert agree[(body[0].photo_id, stray.photo_id)] is False
    per_case = number_use.body_groups(a, case=case)
    assert {g.number for g in per_case} == {"2065", "4444"}
    with pytest.raises(NotAllowed):
        number_use.body_groups(None)


def test_a_branch_number_suggests_the_facility_and_an_archivist_decides(two, make_user):
    a, b = two
    Facility.objects.create(code="227", number=227)
    case = case_in(label="9")  # in 215
    reading = _settle(reading_on_new_photo(case, "227", seed=6, kind="branch"), a, b)
    assert reading.settled and reading.second_by_id == b.pk  # a branch that changes the case needs two
    [suggestion] = number_use.facility_suggestions(a)
    assert suggestion.case == case and suggestion.number == "227" and suggestion.facility.code == "227"
    with pytest.raises(NotAllowed):
        number_use.move_case_to_facility(make_user("reviewer"), case.pk, "227")
    Facility.objects.create(code="235", number=235)
    with pytest.raises(UserError):
        number_use.move_case_to_facility(a, case.pk, "235")  # no confirmed reading says 235
    moved = number_use.move_case_to_facility(a, case.pk, "٢٢٧")
    assert moved.facility.code == "227"
    event = AuditEvent.objects.get(action="case.facility_set")
    assert event.data["number_reading"] == reading.pk and event.actor == f"user:{a.pk}"
    assert number_use.facility_suggestions(a) == []


def test_a_move_that_would_merge_two_cases_is_refused(two):
    a, b = two
    Facility.objects.create(code="227", number=227)
    case = case_in(label="9")
    Case.objects.create(archive=case.archive, facility=Facility.objects.get(code="227"), label="9")
    _settle(reading_on_new_photo(case, "227", seed=7, kind="branch"), a, b)
    [suggestion] = number_use.facility_suggestions(a)
    assert suggestion.blocked_by is not None
    with pytest.raises(UserError):
        number_use.move_case_to_facility(a, case.pk, "227")
    case.refresh_from_db()
    assert case.facility.code == "215"


@pytest.mark.django_db(transaction=True)
def test_the_same_number_in_two_archives_is_a_possible_join(two, capsys, make_user):
    a, b = two
    caesar, dossier = case_in("Caesar", "1", detainee="2065"), case_in("Dossier", "7")
    _settle(reading_on_new_photo(caesar, "2065", seed=8, kind="detainee"), a, b)
    _settle(reading_on_new_photo(dossier, "2065", seed=9, kind="detainee"), a, b)
    _settle(reading_on_new_photo(dossier, "5555", seed=10, kind="detainee"), a, b)
    reading_on_new_photo(caesar, "5555", seed=11, kind="detainee")  # not confirmed: no join
    joins = number_use.number_joins(a)
    assert [j["number"] for j in joins] == ["2065"]
    assert [x["archive"] for x in joins[0]["archives"]] == ["Caesar", "Dossier"]
    assert [c["label"] for c in joins[0]["archives"][1]["cases"]] == ["7"]
    result = run(capsys, "numbers", "joins", "--by", a.login)
    assert result["count"] == 1 and result["joins"][0]["number"] == "2065"
    assert "archivist" in refused(capsys, "numbers", "joins", "--by", make_user("caseworker").login)


def test_a_settled_number_touches_its_case_so_rankings_are_computed_again(two):
    a, _ = two
    case = case_in(detainee="2065")
    before = Case.objects.get(pk=case.pk).updated_at
    _settle(reading_on_new_photo(case, "2065", seed=12, kind="detainee"), a)
    assert Case.objects.get(pk=case.pk).updated_at > before


# --- ingest --------------------------------------------------------------------------------------
@pytest.mark.django_db(transaction=True)
def test_ingest_reads_numbers_as_it_goes_and_not_twice(tmp_path):
    from tests.archive.helpers import run_ingest, write
    from tests.matching.numbers.test_reader import FONT, photo_with_card

    if not FONT.exists():
        pytest.skip("fonts-dejavu-core is not installed")
    card, _ = photo_with_card("2719", 0)
    card.save(tmp_path / "card.png")
    write(tmp_path / "arch", "215/1/card.png", (tmp_path / "card.png").read_bytes())
    skipped = run_ingest(tmp_path / "arch", name="A", numbers=False)
    assert "numbers" not in skipped and not PhotoNumbersRead.objects.exists()
    write(tmp_path / "arch", "215/2/card2.png", (tmp_path / "card.png").read_bytes()[:-1] + b"\x00")
    first = run_ingest(tmp_path / "arch", name="A", numbers=True)
    # the photo the first run skipped is caught up, the new one read: each once
    assert first["numbers"]["photos_read"] == Photo.objects.count() == PhotoNumbersRead.objects.count()
    assert "2719" in set(NumberReading.objects.values_list("text", flat=True))
    again = run_ingest(tmp_path / "arch", name="A", numbers=True)
    assert again["numbers"]["photos_read"] == 0
    assert PhotoNumbersRead.objects.count() == Photo.objects.count()
