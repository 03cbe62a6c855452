"""Serving photos through permission checks: blurred by default, unblurred only after a reveal.

The security work's ``media`` view serves the same files with the same rules (``athar.web.access``);
these views are what the web pages use until then, and stay the reference for the rules.
"""

from __future__ import annotations

from django.conf import settings
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from athar.archive.models import Case, Derivative
from athar.archive.storage import MediaStore
from athar.audit.chain import actor_for_user, record
from athar.web import access

LEVEL_NAMES = {access.FACE: "face", access.BODY: "body"}


def _private_file(relpath: str) -> HttpResponse:
    path = MediaStore(settings.MEDIA_ROOT).path(relpath)
    if not path.is_file():
        raise Http404
    response = FileResponse(open(path, "rb"), content_type="image/jpeg")
    response["Cache-Control"] = "private, no-store"
    response["X-Content-Type-Options"] = "nosniff"
    return response


@require_GET
def derivative(request: HttpRequest, derivative_id: int) -> HttpResponse:
    """An archive photo's viewing copy, if this person may see it at this reveal level."""
    item = get_object_or_404(Derivative.objects.select_related("photo__case"), pk=derivative_id)
    if not access.may_view_derivative(request, item):
        raise Http404  # the same answer whether it exists or not
    return _private_file(item.path)


@require_GET
def report_photo(request: HttpRequest, photo_id: int, kind: str) -> HttpResponse:
    """A photo of the person alive (``thumb`` or ``view``), for whoever may see its report."""
    from athar.registry.models import ReportPhoto

    item = get_object_or_404(ReportPhoto.objects.select_related("report"), pk=photo_id)
    if kind not in ("thumb", "view") or kind not in item.derivatives or not access.may_view_report_photo(request.user, item):
        raise Http404
    return _private_file(item.derivatives[kind])


def record_reveal(request: HttpRequest, case: Case, level: int, via: str, via_id: object) -> None:
    """An explicit choice to see more of a case: remembered for this session, and audited."""
    access.grant_reveal(request, case.pk, level)
    record("photo.viewed", object_type="case", object_id=case.pk, actor=actor_for_user(request.user),
           data={"level": LEVEL_NAMES[level], "via": via, "via_id": str(via_id)})


def case_images(request: HttpRequest, case: Case) -> dict[str, list[Derivative]]:
    """The derivatives a page may show for a case at this session's reveal level.

    ``faces``: unblurred face crops once revealed, blurred ones before; ``body``: full views only
    after the second explicit choice, blurred thumbnails before.
    """
    level = access.revealed_level(request, case.pk)
    rows = list(Derivative.objects.filter(photo__case=case, photo__viewable=True).order_by("photo_id", "face_index"))
    face_kind = Derivative.Kind.FACE if level >= access.FACE else Derivative.Kind.FACE_BLUR
    body_kind = Derivative.Kind.VIEW if level >= access.BODY else Derivative.Kind.BLUR_THUMB
    return {"faces": [d for d in rows if d.kind == face_kind],
            "body": [d for d in rows if d.kind == body_kind], "level": level}  # type: ignore[dict-item]
