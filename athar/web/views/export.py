"""A family's data, readable on a phone: the page and its PDF (the JSON download is
``family.export_data``). For who may exercise the report's data rights: the family who filed it, its
caseworker, an administrator; anyone else gets 404 (``visible_report``) or 403. Audited as an export."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from athar.audit.chain import actor_for_user
from athar.identification import policy
from athar.identification.family_export import readable_export
from athar.web.export_pdf import export_pdf
from athar.web.views.family import visible_report


def _export(request: HttpRequest, report_id: int) -> dict[str, Any]:
    item = visible_report(request, report_id)
    if not policy.may_exercise_data_rights(request.user, item):
        raise PermissionDenied
    return readable_export(item, request.user, include_contact=policy.export_includes_contact(request.user, item),
                           actor=actor_for_user(request.user))


def _private(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
def export_page(request: HttpRequest, report_id: int) -> HttpResponse:
    export = _export(request, report_id)
    return _private(render(request, "web/family/export.html", {"export": export, "report": export["report"],
                                                                "asked": report_id}))


@login_required
def export_pdf_file(request: HttpRequest, report_id: int) -> HttpResponse:
    export = _export(request, report_id)
    response = HttpResponse(export_pdf(export), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="athar-report-{export["report"].lineage[:12]}.pdf"'
    return _private(response)
