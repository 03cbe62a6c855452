"""The number pages (issue 29): archivists decide on the reader's suggestions, one by one or the easy
ones together, and are shown only the number's crop; outsiders are refused everything; caseworkers
search by a number a family quotes."""

from __future__ import annotations

import io

import numpy as np
import pytest
from django.urls import reverse
from django.utils import translation
from PIL import Image

from athar.archive.models import NumberReading
from athar.audit.models import AuditEvent
from athar.web.media import number_url
from tests.archive.numbers_world import BOX, case_in, noise_png, read, reading_on_new_photo, stored_photo

pytestmark = pytest.mark.django_db

NEEDS_REASON = "A correction needs a reason: what the photo shows that the reader missed."
PAGES = ["numbers", "numbers_bulk", "number_groups", "number_joins", "number_facilities"]


@pytest.fixture
def suggestion():
    return reading_on_new_photo(case_in(detainee="2065"), "2065", seed=1, kind="detainee")


# --- who may -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("role", ["family", "caseworker", "reviewer", None])
def test_outsiders_are_refused_every_number_page_and_the_crop(role, make_user, client_for, suggestion, world):
    user = make_user(role) if role else None
    client = client_for(user)
    for name in PAGES:
        response = client.get(reverse(f"web:{name}"))
        assert response.status_code in (302, 403), (role, name, response.status_code)
        if response.status_code == 302:
            assert "/accounts/login/" in response["Location"]
    posts = [reverse("web:number_decide", args=[suggestion.pk]), reverse("web:numbers_bulk"),
             reverse("web:number_move_case", args=[suggestion.photo.case_id])]
    for url in posts:
        assert client.post(url, {"decision": "confirm", "readings": [suggestion.pk], "number": "227"}) \
            .status_code in (302, 403), (role, url)
    assert NumberReading.objects.get(pk=suggestion.pk).status == "suggested"
    if user is not None:  # a link made for this account still serves nothing to it
        assert client.get(number_url(user, suggestion)).status_code == 403
    assert not AuditEvent.objects.filter(action="photo.viewed").exists()


def test_an_archivists_crop_link_is_useless_to_anyone_else(make_user, client_for, suggestion):
    archivist, other = make_user("archivist"), make_user("archivist")
    url = number_url(archivist, suggestion)
    assert client_for(other).get(url).status_code == 404
    assert client_for(None).get(url).status_code == 404


@pytest.mark.parametrize("role", ["archivist", "admin"])
def test_archivists_and_administrators_see_the_queue(role, make_user, client_for, suggestion):
    client = client_for(make_user(role))
    for name in PAGES:
        assert client.get(reverse(f"web:{name}")).status_code == 200, name
    html = client.get(reverse("web:numbers")).content.decode()
    assert f'id="reading-{suggestion.pk}"' in html and "97%" in html


# --- the image served ------------------------------------------------------------------------------
def test_the_image_served_is_the_numbers_crop_blurred_but_the_box(make_user, client_for, suggestion):
    archivist = make_user("archivist")
    response = client_for(archivist).get(number_url(archivist, suggestion))
    assert response.status_code == 200 and response["Content-Type"] == "image/jpeg"
    assert response["Cache-Control"] == "private, no-store"
    served = np.asarray(Image.open(io.BytesIO(b"".join(response.streaming_content if response.streaming
                                                       else [response.content]))).convert("RGB"), dtype=float)
    original = np.asarray(Image.open(io.BytesIO(noise_png(1))).convert("RGB"), dtype=float)
    x0, y0, x1, y1 = BOX
    margin = (x1 - x0) // 2
    # only the box and a margin of half its longer side: never the rest of the photo
    assert served.shape[:2] == (y1 - y0 + 2 * margin, x1 - x0 + 2 * margin)
    inside = served[margin:margin + y1 - y0, margin:margin + x1 - x0]
    assert np.abs(inside - original[y0:y1, x0:x1]).mean() < 25  # sharp (JPEG noise only)
    above = served[:margin - 2]
    truth_above = original[y0 - margin:y0 - 2, x0 - margin:x1 + margin]
    assert np.abs(above - truth_above).mean() > 50 and above.std() < 30  # blurred: nothing of the noise left
    event = AuditEvent.objects.get(action="photo.viewed")
    assert event.actor == f"user:{archivist.pk}" and event.data["level"] == "number"
    assert event.data["number_reading"] == suggestion.pk


def test_a_box_at_the_photos_edge_is_clipped(make_user, client_for):
    archivist = make_user("archivist")
    reading = read(stored_photo(case_in(), seed=2), "31", box=(560, 380, 640, 430))
    response = client_for(archivist).get(number_url(archivist, reading))
    image = Image.open(io.BytesIO(response.content))
    assert image.size == (20 + 40, 20 + 20)  # the box inside the photo (40×20), a margin of 20 where it exists


# --- deciding ------------------------------------------------------------------------------------------
def _decide(client, reading, **data):
    return client.post(reverse("web:number_decide", args=[reading.pk]), data)


def test_an_archivist_confirms_corrects_and_rejects(make_user, client_for):
    archivist = make_user("archivist")
    client = client_for(archivist)
    case = case_in(detainee="2065")
    first, second, third = (reading_on_new_photo(case, t, seed=s, kind="detainee")
                            for t, s in (("2065", 3), ("2066", 4), ("9", 5)))
    assert _decide(client, first, decision="confirm", kind="detainee").status_code == 302
    refused = client.post(reverse("web:number_decide", args=[second.pk]),
                          {"decision": "correct", "number": "٢٠٦٥", "reason": ""}, follow=True)
    assert NumberReading.objects.get(pk=second.pk).status == "suggested"  # a correction needs a reason
    with translation.override("ar"):
        assert translation.gettext(NEEDS_REASON) in refused.content.decode()
    _decide(client, second, decision="correct", number="٢٠٦٥", reason="the last digit is a 5", kind="detainee")
    _decide(client, third, decision="reject", reason="a date")
    rows = {r.pk: r for r in NumberReading.objects.all()}
    assert rows[first.pk].status == "confirmed" and rows[first.pk].settled
    assert rows[second.pk].status == "corrected" and rows[second.pk].corrected_text == "2065"
    assert rows[second.pk].reason == "the last digit is a 5" and rows[second.pk].decided_by_id == archivist.pk
    assert rows[third.pk].status == "rejected"
    assert [e.action for e in AuditEvent.objects.filter(object_type="number_reading").order_by("seq")] == [
        "numbers.confirmed", "numbers.corrected", "numbers.rejected"]


def test_a_number_that_changes_the_case_needs_a_second_and_different_archivist(make_user, client_for):
    first, second = make_user("archivist"), make_user("archivist")
    case = case_in(detainee="")
    reading = reading_on_new_photo(case, "3012", seed=6, kind="detainee")
    _decide(client_for(first), reading, decision="confirm", kind="detainee")
    reading.refresh_from_db()
    assert reading.needs_second and not reading.settled
    page = client_for(first).get(reverse("web:numbers") + "?status=second").content.decode()
    assert f'id="reading-{reading.pk}"' not in page  # not offered to the archivist who decided
    refused = client_for(first).post(reverse("web:number_decide", args=[reading.pk]),
                                     {"decision": "confirm", "status": "second"}, follow=True)
    assert refused.status_code == 200
    reading.refresh_from_db()
    assert reading.second_by_id is None
    page = client_for(second).get(reverse("web:numbers") + "?status=second").content.decode()
    assert f'id="reading-{reading.pk}"' in page
    _decide(client_for(second), reading, decision="confirm", status="second")
    reading.refresh_from_db()
    case.refresh_from_db()
    assert reading.settled and reading.second_by_id == second.pk and case.detainee_number == "3012"


def test_bulk_confirms_only_the_easy_ones(make_user, client_for):
    archivist = make_user("archivist")
    client = client_for(archivist)
    case, lonely = case_in(detainee="2065", label="1"), case_in(detainee="77", label="2")
    agreeing = [reading_on_new_photo(case, "2065", seed=s, kind="detainee") for s in (10, 11)]
    unsure = reading_on_new_photo(case, "2065", seed=12, confidence=0.80)
    alone = reading_on_new_photo(lonely, "77", seed=13)
    html = client.get(reverse("web:numbers_bulk")).content.decode()
    assert all(f'value="{r.pk}"' in html for r in agreeing)
    assert f'value="{unsure.pk}"' not in html and f'value="{alone.pk}"' not in html
    response = client.post(reverse("web:numbers_bulk"), {"readings": [agreeing[0].pk, agreeing[1].pk]})
    assert response.status_code == 302
    assert set(NumberReading.objects.filter(status="confirmed").values_list("pk", flat=True)) == {
        r.pk for r in agreeing}
    assert NumberReading.objects.get(pk=unsure.pk).status == "suggested"
    # a ticked id that is not easy (posted by hand) is not confirmed
    assert client.post(reverse("web:numbers_bulk"), {"readings": [alone.pk]}).status_code == 200
    assert NumberReading.objects.get(pk=alone.pk).status == "suggested"


# --- search by number (caseworkers) ----------------------------------------------------------------
def test_a_caseworker_searches_by_a_number_in_arabic_digits(make_user, client_for):
    caseworker, archivist = make_user("caseworker"), make_user("archivist")
    confirmed_case = case_in(label="A")
    case_in(label="B", detainee="2065")  # recorded by the archive only
    reading = reading_on_new_photo(confirmed_case, "2065", seed=20, kind="other")
    from athar.archive import number_review

    number_review.confirm(archivist, reading.pk)
    html = client_for(caseworker).get(reverse("web:number_search"), {"number": "٢٠٦٥"}).content.decode()
    assert "evidence-confirmed" in html and "evidence-recorded" in html
    assert html.index("215/A") < html.index("215/B")  # confirmed first
    for role in ("family",):
        assert client_for(make_user(role)).get(reverse("web:number_search"), {"number": "2065"}).status_code == 403
    assert client_for(None).get(reverse("web:number_search")).status_code == 302
