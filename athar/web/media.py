"""Photos are served only here, through a permission check, never from a public path.

A media link is a signed token (``django.core.signing``) naming the derivative (or original) and
the account it was made for, valid ``ATHAR_MEDIA_LINK_SECONDS`` (an unblurred copy's link only
``ATHAR_REVEAL_LINK_SECONDS``: pages make them only after an explicit choice to see more): links
cannot be guessed, and a copied link is useless to anyone else. The permission is asked again on
every request (``athar.identification.policy.may_view_derivative``: who may see the case). Every view of an
unblurred copy is written to the audit chain (who, which photo, which level). Originals (the
evidence itself) go only to archivists, as a download.

Two stores are read here: the archive's evidence store (``MEDIA_ROOT``) for archive photos, and the
family uploads store (``UPLOADS_ROOT``, sealed per report) for photos of the person alive
(``family_upload``); neither is ever read in place of the other.
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.conf import settings
from django.core import signing
from django.http import (
    FileResponse,
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseForbidden,
)
from django.http.response import HttpResponseBase
from django.urls import reverse
from django.views.decorators.http import require_safe

from athar.accounts.models import signed_in
from athar.archive.imaging import number_view
from athar.archive.models import Derivative, NumberReading, Photo
from athar.archive.storage import MediaStore
from athar.audit.chain import actor_for_user, record
from athar.identification import policy
from athar.registry.photos import read_photo

DERIVATIVE_SALT = "athar.media.derivative"
ORIGINAL_SALT = "athar.media.original"
NUMBER_SALT = "athar.media.number"
BLURRED_KINDS = {Derivative.Kind.BLUR, Derivative.Kind.BLUR_THUMB, Derivative.Kind.FACE_BLUR}


def derivative_url(user: Any, derivative: Derivative) -> str:
    """The link to show ``derivative`` to ``user`` (an <img src>)."""
    token = signing.dumps({"d": derivative.pk, "u": user.pk}, salt=DERIVATIVE_SALT)
    return reverse("media_derivative", args=[token])


def original_url(user: Any, photo: Photo) -> str:
    """The download link of an original, for an archivist."""
    token = signing.dumps({"p": photo.pk, "u": user.pk}, salt=ORIGINAL_SALT)
    return reverse("media_original", args=[token])


def number_url(user: Any, reading: NumberReading) -> str:
    """The link to the crop of one number read in a photo (its box sharp, a blurred margin)."""
    token = signing.dumps({"n": reading.pk, "u": user.pk}, salt=NUMBER_SALT)
    return reverse("media_number", args=[token])


# A file is streamed (FileResponse), a refusal is not: both get the same private headers.
_Response = TypeVar("_Response", bound=HttpResponseBase)


def _claims(request: HttpRequest, token: str, salt: str) -> dict[str, Any]:
    """The token's content, if it is genuine, fresh and made for the signed-in account."""
    user = request.user
    if not user.is_authenticated:
        raise Http404
    try:
        claims = signing.loads(token, salt=salt, max_age=settings.ATHAR_MEDIA_LINK_SECONDS)
    except signing.BadSignature:
        raise Http404 from None
    if not isinstance(claims, dict) or claims.get("u") != user.pk:
        raise Http404
    return claims


def _claims_fresh_for_reveal(token: str) -> None:
    """An unblurred copy's link lives only as long as the page that revealed it (a few minutes)."""
    try:
        signing.loads(token, salt=DERIVATIVE_SALT, max_age=settings.ATHAR_REVEAL_LINK_SECONDS)
    except signing.BadSignature:
        raise Http404 from None


def _private(response: _Response) -> _Response:
    response["Cache-Control"] = "private, no-store"
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    response["Cross-Origin-Resource-Policy"] = "same-origin"
    return response


def _may_view(request: HttpRequest, derivative: Derivative) -> bool:
    return policy.may_view_derivative(request.user, derivative)


@require_safe
def derivative(request: HttpRequest, token: str) -> HttpResponseBase:
    """One viewing copy (view, thumbnail, blurred, face crop): no EXIF, re-encoded at ingest."""
    claims = _claims(request, token, DERIVATIVE_SALT)
    item = Derivative.objects.select_related("photo", "photo__case").filter(pk=claims["d"]).first() if "d" in claims else None
    if item is None:
        raise Http404
    if not _may_view(request, item):
        return _private(HttpResponseForbidden())
    if item.kind not in BLURRED_KINDS:
        _claims_fresh_for_reveal(token)
    path = MediaStore(settings.MEDIA_ROOT).path(item.path)
    if not path.is_file():
        raise Http404
    if item.kind not in BLURRED_KINDS:
        level = "face" if item.kind == Derivative.Kind.FACE else "body"
        record("photo.viewed", object_type="photo", object_id=item.photo_id, actor=actor_for_user(request.user),
               data={"kind": item.kind, "level": level, "face": item.face_index, "case": item.photo.case_id,
                     "via": "media"})
    response = FileResponse(open(path, "rb"), content_type="image/jpeg")  # noqa: SIM115 - FileResponse closes the file once sent
    response["Content-Disposition"] = f'inline; filename="{item.kind}.jpg"'
    return _private(response)


@require_safe
def original(request: HttpRequest, token: str) -> HttpResponseBase:
    """The original bytes, exactly as received, as a download, for archivists only."""
    claims = _claims(request, token, ORIGINAL_SALT)
    user = signed_in(request.user)  # _claims let only the signed-in account the link was made for through
    if not policy.may_download_original(user):
        return _private(HttpResponseForbidden())
    photo = Photo.objects.filter(pk=claims["p"]).first() if "p" in claims else None
    if photo is None:
        raise Http404
    path = MediaStore(settings.MEDIA_ROOT).original_path(photo.sha256)
    if not path.is_file():
        raise Http404
    record("photo.original_downloaded", object_type="photo", object_id=photo.pk,
           actor=actor_for_user(user), data={"sha256": photo.sha256})
    response = FileResponse(open(path, "rb"), content_type="application/octet-stream", as_attachment=True,  # noqa: SIM115 - FileResponse closes the file once sent
                            filename=f"{photo.sha256}")
    return _private(response)


@require_safe
def number(request: HttpRequest, token: str) -> HttpResponseBase:
    """The crop of a photo around a number read in it, for an archivist deciding on it: made here
    from the original (``archive.imaging.number_view``: only the number's box sharp, a blurred
    margin, never the rest of the body). Each view is audited (level ``number``)."""
    claims = _claims(request, token, NUMBER_SALT)
    if not policy.may_review_numbers(request.user):
        return _private(HttpResponseForbidden())
    reading = NumberReading.objects.select_related("photo").filter(pk=claims["n"]).first() if "n" in claims else None
    if reading is None:
        raise Http404
    path = MediaStore(settings.MEDIA_ROOT).original_path(reading.photo.sha256)
    try:
        data = number_view(path, reading.box)
    except (OSError, ValueError):  # missing, or no longer decodable: nothing to show
        raise Http404 from None
    record("photo.viewed", object_type="photo", object_id=reading.photo_id, actor=actor_for_user(request.user),
           data={"kind": "number", "level": "number", "number_reading": reading.pk, "case": reading.photo.case_id,
                 "via": "media"})
    response = HttpResponse(data, content_type="image/jpeg")
    response["Content-Disposition"] = 'inline; filename="number.jpg"'
    return _private(response)


def family_upload(photo: Any, kind: str) -> HttpResponse:
    """A copy (``view`` or ``thumb``) of a family's photo, unsealed from the family uploads store;
    the caller has asked ``policy.may_view_report_photo``. 404 when the file is missing or can no
    longer be opened (its report erased)."""
    if kind not in ("view", "thumb"):
        raise Http404
    try:
        data = read_photo(photo, kind)
    except (OSError, ValueError):  # missing, or DecryptionError (a ValueError): nothing to show
        raise Http404 from None
    response = HttpResponse(data, content_type="image/jpeg")
    response["Content-Disposition"] = f'inline; filename="{kind}.jpg"'
    return _private(response)
