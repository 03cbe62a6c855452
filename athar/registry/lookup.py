"""Finding reports and the person a report belongs to (for ``athar candidates --report ID``)."""

from __future__ import annotations

from athar.registry.models import LinkageRun, MissingPerson, Report, ReportLink


def find_report(report_id: str, source: str | None = None) -> Report:
    """The current version of a report by its imported ``report_id`` (and source when several
    sources use the same id); ``#123`` or a bare number that is no report_id means the row id.

    Raises ValueError with a readable reason when there is no such report or the id is ambiguous.
    """
    text = str(report_id).strip()
    rows = Report.objects.filter(report_id=text, is_current=True)
    if source:
        rows = rows.filter(source=source)
    found = list(rows[:2])
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        sources = ", ".join(sorted(Report.objects.filter(report_id=text, is_current=True)
                                   .values_list("source", flat=True)))
        raise ValueError(f"report {text!r} exists in several sources ({sources}): name one with --source")
    pk = text.lstrip("#")
    if pk.isdigit() and not source:
        report = Report.objects.filter(pk=int(pk)).first()
        if report is not None:
            return report
    where = f" from source {source!r}" if source else ""
    raise ValueError(f"no report {text!r}{where}")


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
