"""Public pages."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from athar.archive.models import Archive, Case


def home(request: HttpRequest) -> HttpResponse:
    """What athar is; no photo of a body ever appears here."""
    return render(request, "web/home.html", {"archives": Archive.objects.count(), "cases": Case.objects.count()})
