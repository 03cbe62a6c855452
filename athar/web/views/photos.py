"""Serving photos through permission checks: blurred by default, unblurred only on purpose.

Levels: blurred → face crop → body. Each step is an explicit choice (a POST) for the case in front
of the person, answered by the page itself: nothing is remembered in the session, so the reveal
does not outlive the page (a reload, a later visit or Back shows the blurred copies again).

Blurred copies are served here (``derivative``). Every copy that is not blurred goes through one
audited path: the signed, short-lived media link of ``athar.web.media`` (made for one
account and one photo), which writes one ``photo.viewed`` audit event per view with who, which
photo and which level.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.views.decorators.http import require_GET

from athar.archive.models import Case, Derivative
from athar.archive.storage import MediaStore
from athar.audit.chain import actor_for_user, record
from athar.identification import policy
from athar.registry.models import ReportPhoto
from athar.web.media import derivative_url, family_upload

LEVEL_NAMES = {policy.FACE: "face", policy.BODY: "body"}


def _private_file(relpath: str) -> FileResponse:
    path = MediaStore(settings.MEDIA_ROOT).path(relpath)
    if not path.is_file():
        raise Http404
    response = FileResponse(open(path, "rb"), content_type="image/jpeg")  # noqa: SIM115 - FileResponse closes the file once sent
    response["Cache-Control"] = "private, no-store"
    response["X-Content-Type-Options"] = "nosniff"
    return response


@require_GET
def derivative(request: HttpRequest, derivative_id: int) -> FileResponse:
    """A blurred copy of an archive photo, for whoever may see its case (nothing else here)."""
    item = get_object_or_404(Derivative.objects.select_related("photo__case"), pk=derivative_id)
    if item.kind not in policy.BLURRED_KINDS or not policy.may_view_derivative(request.user, item):
        raise Http404  # the same answer whether it exists or not
    return _private_file(item.path)


@require_GET
def report_photo(request: HttpRequest, photo_id: int, kind: str) -> HttpResponse:
    """A photo of the person alive (``thumb`` or ``view``), for whoever may see its report, from
    the family uploads store (``athar.web.media.family_upload``)."""
    item = get_object_or_404(ReportPhoto.objects.select_related("report"), pk=photo_id)
    if kind not in ("thumb", "view") or kind not in item.derivatives or not policy.may_view_report_photo(request.user, item):
        raise Http404
    return family_upload(item, kind)


def chosen_level(request: HttpRequest) -> int:
    """The level this POST asks for: the body only when the face was shown on the page it came from."""
    if request.method != "POST":
        return policy.HIDDEN
    wanted = request.POST.get("level", "")
    if wanted == "body" and request.POST.get("face_shown") == "1":
        return policy.BODY
    return policy.FACE if wanted in ("face", "body") else policy.HIDDEN


def record_reveal(request: HttpRequest, case: Case, level: int, via: str, via_id: object) -> None:
    """The explicit choice to see more of a case, for this page only (audited; every photo then
    viewed writes its own event through the media link)."""
    record("photo.revealed", object_type="case", object_id=case.pk, actor=actor_for_user(request.user),
           data={"level": LEVEL_NAMES[level], "via": via, "via_id": str(via_id)})


def _image(request: HttpRequest, item: Derivative) -> dict[str, Any]:
    blurred = item.kind in policy.BLURRED_KINDS
    src = reverse("web:derivative", args=[item.pk]) if blurred else derivative_url(request.user, item)
    return {"pk": item.pk, "kind": item.kind, "width": item.width, "height": item.height, "src": src,
            "blurred": blurred}


def case_images(request: HttpRequest, case: Case, level: int = policy.HIDDEN) -> dict[str, Any]:
    """The images a page shows for a case at the level chosen on this request.

    ``faces``: face crops, unblurred from level FACE; ``body``: the full views from level BODY,
    blurred thumbnails before. ``has_face`` says whether any face crop exists at all (no "show
    the face" button without one)."""
    rows = list(Derivative.objects.filter(photo__case=case, photo__viewable=True).order_by("photo_id", "face_index"))
    face_kind = Derivative.Kind.FACE if level >= policy.FACE else Derivative.Kind.FACE_BLUR
    body_kind = Derivative.Kind.VIEW if level >= policy.BODY else Derivative.Kind.BLUR_THUMB
    faces = [_image(request, d) for d in rows if d.kind == face_kind]
    return {"faces": faces, "body": [_image(request, d) for d in rows if d.kind == body_kind], "level": level,
            "has_face": bool(faces)}
