"""Photos only through permission-checked, signed links: a matrix of role × kind × reveal."""

from __future__ import annotations

import io
import time

import pytest
from django.core import signing
from django.urls import reverse
from PIL import Image

from athar.audit.models import AuditEvent
from athar.web.media import DERIVATIVE_SALT, derivative_url, original_url
from tests.security.helpers import stored_case

pytestmark = pytest.mark.django_db

STAFF = ("reviewer", "archivist", "admin")
OUTSIDERS = ("family", "caseworker")  # no report of theirs has this case as a candidate
BLURRED = ("blur", "blur_thumb")
UNBLURRED = ("view", "thumb")


@pytest.fixture
def stored(tmp_path):
    return stored_case(tmp_path)


def _get(client, user, derivative):
    client.force_login(user)
    return client.get(derivative_url(user, derivative))


@pytest.mark.parametrize("role", STAFF)
@pytest.mark.parametrize("kind", BLURRED + UNBLURRED)
def test_staff_links_serve_and_every_unblurred_view_is_audited(client, make_user, stored, role, kind):
    """A page makes an unblurred link only after an explicit choice; each view through it is one
    audit event (who, which photo, which level); blurred views are not audited."""
    user = make_user(role)
    client.force_login(user)
    url = derivative_url(user, stored.derivatives[kind])
    for _ in range(3):
        response = client.get(url)
        assert response.status_code == 200
        assert response["Cache-Control"] == "private, no-store"
        assert response["X-Content-Type-Options"] == "nosniff"
    views = AuditEvent.objects.filter(action="photo.viewed")
    assert views.count() == (0 if kind in BLURRED else 3)
    if kind not in BLURRED:
        assert {e.data["level"] for e in views} == {"body"} and {e.actor for e in views} == {f"user:{user.pk}"}


@pytest.mark.parametrize("kind", UNBLURRED)
def test_an_unblurred_link_does_not_outlive_the_page(client, make_user, stored, settings, kind):
    user = make_user("reviewer")
    client.force_login(user)
    url = derivative_url(user, stored.derivatives[kind])
    settings.ATHAR_REVEAL_LINK_SECONDS = -1  # the page that made it is long gone
    assert client.get(url).status_code == 404
    blurred = derivative_url(user, stored.derivatives["blur"])
    assert client.get(blurred).status_code == 200  # blurred copies keep the ordinary lifetime


@pytest.mark.parametrize("role", OUTSIDERS)
@pytest.mark.parametrize("kind", BLURRED + UNBLURRED)
def test_families_and_caseworkers_never_see_cases_outside_their_candidates(client, make_user, stored, role, kind):
    user = make_user(role)
    client.force_login(user)
    assert client.get(derivative_url(user, stored.derivatives[kind])).status_code == 403


@pytest.mark.parametrize("kind", BLURRED + UNBLURRED)
def test_signed_out_visitor_gets_nothing(client, make_user, stored, kind):
    staff = make_user("reviewer")
    url = derivative_url(staff, stored.derivatives[kind])
    assert client.get(url).status_code == 404


def test_a_link_made_for_one_account_is_useless_to_another(client, make_user, stored):
    reviewer, other = make_user("reviewer"), make_user("reviewer")
    url = derivative_url(reviewer, stored.derivatives["blur"])
    client.force_login(other)
    assert client.get(url).status_code == 404


def test_forged_tampered_and_expired_links_are_refused(client, make_user, stored, settings):
    user = make_user("reviewer")
    client.force_login(user)
    derivative = stored.derivatives["blur"]
    forged = signing.dumps({"d": derivative.pk, "u": user.pk}, salt=DERIVATIVE_SALT, key="not-the-key" * 6)
    assert client.get(reverse("media_derivative", args=[forged])).status_code == 404
    good = derivative_url(user, derivative)
    assert client.get(good[:-2] + ("AA" if not good.endswith("AA") else "BB")).status_code == 404
    settings.ATHAR_MEDIA_LINK_SECONDS = 1
    time.sleep(2.1)
    assert client.get(good).status_code == 404


def test_media_links_are_not_sequential_or_guessable(make_user, stored):
    user = make_user("reviewer")
    urls = [derivative_url(user, d) for d in stored.derivatives.values()]
    assert len(set(urls)) == len(urls)
    assert all(len(u.rsplit("/", 1)[-1]) >= 40 for u in urls)
    assert not any(f"/{d.pk}" in u for d, u in zip(stored.derivatives.values(), urls))


def test_served_images_carry_no_exif_and_no_gps(client, make_user, stored):
    assert stored.photo.exif.get("Make") == "SecretCam" and any(k.startswith("GPS") for k in stored.photo.exif)
    user = make_user("archivist")
    client.force_login(user)

    for kind, derivative in stored.derivatives.items():
        response = client.get(derivative_url(user, derivative))
        body = b"".join(response.streaming_content)
        image = Image.open(io.BytesIO(body))
        assert not image.getexif(), kind
        assert b"SecretCam" not in body and b"Exif" not in body[:200], kind


def test_unblurred_views_are_audited_with_identifiers_only(client, make_user, stored):
    user = make_user("reviewer")
    client.force_login(user)

    before = AuditEvent.objects.filter(action="photo.viewed").count()
    client.get(derivative_url(user, stored.derivatives["blur"]))
    assert AuditEvent.objects.filter(action="photo.viewed").count() == before
    client.get(derivative_url(user, stored.derivatives["view"]))
    event = AuditEvent.objects.filter(action="photo.viewed").last()
    assert event.actor == f"user:{user.pk}" and event.object_id == str(stored.photo.pk)
    assert event.data["kind"] == "view"


@pytest.mark.parametrize("role,status", [("archivist", 200), ("admin", 403), ("reviewer", 403),
                                         ("caseworker", 403), ("family", 403)])
def test_originals_only_for_archivists_as_a_download(client, make_user, stored, role, status):
    user = make_user(role)
    client.force_login(user)
    response = client.get(original_url(user, stored.photo))
    assert response.status_code == status
    assert response["Cache-Control"] == "private, no-store"
    if status == 200:
        assert response["Content-Disposition"].startswith("attachment")
        assert AuditEvent.objects.filter(action="photo.original_downloaded", object_id=str(stored.photo.pk)).exists()


def test_no_public_path_serves_the_media_store(client, make_user, stored):
    user = make_user("admin")
    client.force_login(user)
    relpaths = [stored.derivatives["view"].path, f"originals/{stored.photo.sha256[:2]}/{stored.photo.sha256[2:4]}/"
                f"{stored.photo.sha256}"]
    for prefix in ("/media/", "/static/", "/", "/en/media/"):
        for relpath in relpaths:
            assert client.get(prefix + relpath).status_code == 404, prefix + relpath


def test_media_links_refuse_writes(client, make_user, stored):
    user = make_user("reviewer")
    client.force_login(user)
    assert client.post(derivative_url(user, stored.derivatives["blur"])).status_code == 405
