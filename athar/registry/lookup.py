"""Finding reports and the person a report belongs to (for ``athar candidates --report ID``)."""

from __future__ import annotations

from athar.audit.chain import record
from athar.core.errors import UserError
from athar.registry.models import LinkageRun, MissingPerson, Report, ReportLink

# The facts of a report that describe the missing person (not the report or who filed it): what
# reports of one person are read side by side on (the web, the API, ``athar registry person``).
PERSON_FACTS = ("full_name_ar", "full_name_latin", "father_name", "mother_name", "sex", "birth_year", "governorate",
                "city", "arrest_date", "arresting_agency")


def says(report: Report, field: str) -> bool:
    """Whether the report gives this fact at all (an empty value or sex "U" says nothing)."""
    return getattr(report, field) not in (None, "", "U")


def find_report(report_id: str, source: str | None = None) -> Report:
    """The current version of a report by its imported ``report_id`` (and source when several
    sources use the same id); ``#123`` or a bare number that is no report_id means the row id.

    Raises ValueError with a readable reason when there is no such report or the id is ambiguous.
    """
    text = str(report_id).strip()
    rows = Report.objects.current().filter(report_id=text)
    if source:
        rows = rows.filter(source=source)
    found = list(rows[:2])
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        sources = ", ".join(sorted(Report.objects.current().filter(report_id=text)
                                   .values_list("source", flat=True)))
        raise UserError(f"report {text!r} exists in several sources ({sources}): name one with --source")
    pk = text.lstrip("#")
    if pk.isdigit() and not source:
        report = Report.objects.filter(pk=int(pk)).first()
        if report is not None:
            return report
    where = f" from source {source!r}" if source else ""
    raise UserError(f"no report {text!r}{where}")


def caseworker_ids(report: Report) -> list[int]:
    """The caseworkers of a report: the one who handles it and the one of the family who filed it."""
    reporter = report.reporter_user
    family_caseworker = reporter.caseworker_id if reporter is not None else None
    return [pk for pk in (report.caseworker_id, family_caseworker) if pk]


def current_run() -> LinkageRun | None:
    """The linkage run whose assignment is in force."""
    return LinkageRun.objects.filter(is_current=True).first()


def person_of(report: Report) -> MissingPerson | None:
    """The missing person the current linkage run assigns the report to."""
    run = current_run()
    if run is None:
        return None
    link = ReportLink.objects.filter(run=run, report=report).select_related("person").first()
    return link.person if link else None


def reports_of(person: MissingPerson) -> list[Report]:
    """The reports linked to a missing person by the current run."""
    run = current_run()
    if run is None:
        return []
    return list(Report.objects.filter(links__run=run, links__person=person).order_by("id"))


def ensure_person(report: Report, actor: str = "system") -> MissingPerson:
    """The report's missing person; a report filed since the last linkage run gets one now.

    A family may claim a candidate before the next linkage run has looked at its report. The report
    is then linked, provisionally, to a new person of its own in the current run (a run is opened
    when none exists). The next run keeps that person for the report's lineage (``assign_persons``
    votes by lineage), or merges it with the reports that describe the same person.
    """
    from django.db import transaction


    with transaction.atomic():
        person = person_of(report)
        if person is not None:
            return person
        run = current_run() or _open_provisional_run()
        person = MissingPerson.objects.create()
        ReportLink.objects.create(run=run, report=report, person=person,
                                  explanation={"why": "provisional: filed after the last linkage run"})
        record("registry.provisional_person", object_type="report", object_id=report.pk, actor=actor,
               data={"person": person.pk, "run": run.pk})
    return person


def _open_provisional_run() -> LinkageRun:
    """The first current run, opened for a report filed before any linkage run. Two first reports
    filed at once on PostgreSQL both find no run: the database lets one current run in
    (``linkage_one_current_run``), and the other uses it."""
    from django.db import IntegrityError, transaction
    from django.utils import timezone

    # Here, not at the top: the linkage settings load Splink, which no other command needs.
    from athar.matching.linkage.settings import ALGORITHM, run_version

    try:
        with transaction.atomic():
            return LinkageRun.objects.create(engine="provisional", algorithm=ALGORITHM, algorithm_version=run_version(),
                                             status=LinkageRun.Status.DONE, is_current=True,
                                             finished_at=timezone.now(), counts={"provisional": True})
    except IntegrityError:
        run = current_run()
        if run is None:
            raise
        return run
