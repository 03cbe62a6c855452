"""Public pages: what athar is, who was identified (with consent), statistics, the method."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.db.models.functions import TruncMonth
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from athar.accounts.models import Role
from athar.archive.models import Archive, Case, Facility
from athar.identification import policy
from athar.identification import services as ident
from athar.registry.models import Place, Report
from athar.web import method as method_figures
from athar.web.charts import bar_chart
from athar.web.templatetags.athar_web import facility_label, place_name


def home(request: HttpRequest) -> HttpResponse:
    """What athar is; no photo of a body ever appears here."""
    return render(request, "web/public/home.html", {
        "archives": Archive.objects.count(), "cases": Case.objects.count(),
        "identified": len(ident.public_identifications()),
    })


def about(request: HttpRequest) -> HttpResponse:
    return render(request, "web/public/about.html")


def method(request: HttpRequest) -> HttpResponse:
    return render(request, "web/public/method.html", {"rates": method_figures.measured_error_rates()})


def privacy(request: HttpRequest) -> HttpResponse:
    """What athar keeps, who sees it, for how long, and how to take it out or erase it. A family
    signed in finds the download and erase links of its own reports here too."""
    reports = policy.reports_visible_to(request.user).order_by("-filed_at") if policy.is_family(request.user) else []
    return render(request, "web/public/privacy.html", {"reports": reports})


def support(request: HttpRequest) -> HttpResponse:
    return render(request, "web/public/support.html",
                  {"organisation_contact": settings.ATHAR_ORGANISATION_CONTACT.replace("\\n", "\n")})


def identified(request: HttpRequest) -> HttpResponse:
    """People identified whose families consented to publication: facts only, never a photo."""
    return render(request, "web/public/identified.html", {"people": ident.public_identifications()})


def stats(request: HttpRequest) -> HttpResponse:
    """Counts per facility, per month and per governorate, as bar tables that reflow on a phone."""
    by_facility = [(facility_label(f), f.n) for f in
                   Facility.objects.annotate(n=Count("cases")).filter(n__gt=0).order_by("-n")]
    months = (Case.objects.exclude(photographed=None).exclude(photographed_precision="year")
              .annotate(month=TruncMonth("photographed")).values("month").annotate(n=Count("id")).order_by("month"))
    by_month = [(date_format(m["month"], "M Y"), m["n"]) for m in months]
    charts = [
        bar_chart(_("Cases per facility"), by_facility,
                  _("No archive has been ingested yet: the counts appear once an archivist adds one.")),
        bar_chart(_("Cases per month photographed"), by_month,
                  _("No case has a known month of photographing yet.")),
        bar_chart(_("Reports of missing people per governorate"), _reports_per_governorate(),
                  _("No report names a governorate athar knows yet.")),
    ]
    return render(request, "web/public/stats.html", {"charts": charts, "cases": Case.objects.count()})


def _reports_per_governorate() -> list[tuple[str, int]]:
    rows = (Report.objects.current_kept().exclude(governorate_ref=None)
            .values("governorate_ref").annotate(n=Count("id")).order_by("-n"))
    places = Place.objects.in_bulk([r["governorate_ref"] for r in rows])
    return [(place_name(places[r["governorate_ref"]]), r["n"]) for r in rows]


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    """Each role's start page."""
    role = policy.role_of(request.user)
    targets: dict[str, str] = {
        Role.FAMILY: "web:family_home", Role.CASEWORKER: "web:caseworker_home",
        Role.REVIEWER: "web:review_queue", Role.ARCHIVIST: "web:archives", Role.ADMIN: "web:admin_users",
    }
    return redirect(targets.get(role, "web:home"))
