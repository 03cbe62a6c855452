"""A small world: facilities from the shipped table, a few cases, reports, persons linked to them."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from athar.archive.facility_store import load_starting_table
from athar.archive.models import Archive, Case, Facility
from athar.registry.importing import lineage_of
from athar.registry.models import LinkageRun, MissingPerson, Report, ReportLink


@dataclass
class World:
    cases: dict[str, Case]
    make_user: Callable[..., Any]
    run: LinkageRun
    counter: list[int] = field(default_factory=lambda: [0])

    def report(self, person: MissingPerson | None = None, **fields: Any) -> Report:
        self.counter[0] += 1
        rid = fields.pop("report_id", f"R{self.counter[0]}")
        values = dict(full_name_latin="Someone", sex="M", birth_year=1988, arrest_date=dt.date(2012, 3, 1),
                      arrest_date_precision="month", arresting_agency="فرع السرية",
                      distinguishing_marks="وشم خريطة فلسطين على الساعد الأيسر")
        values.update(fields)
        report = Report.objects.create(source="test", report_id=rid, lineage=lineage_of("test", rid),
                                       content_hash=rid, **values)
        if person is not None:
            ReportLink.objects.create(run=self.run, report=report, person=person)
        return report

    def person(self, reporter: Any = None, **fields: Any) -> MissingPerson:
        person = MissingPerson.objects.create()
        self.report(person, reporter_user=reporter, **fields)
        return person


def _case(archive: Archive, code: str, label: str, **facts: Any) -> Case:
    return Case.objects.create(archive=archive, facility=Facility.objects.get(code=code), label=label, **facts)


@pytest.fixture
def world(db: None, make_user: Callable[..., Any]) -> World:
    load_starting_table()
    archive = Archive.objects.create(name="test archive")
    month = {"photographed_precision": "month"}
    cases = {
        "palestine": _case(archive, "215", "3412", detainee_number="3412", photographed=dt.date(2012, 6, 1),
                           sex="M", age_min=20, age_max=30, marks="tattoo of a map of Palestine on the left forearm",
                           **month),
        "scar": _case(archive, "215", "3413", detainee_number="3413", photographed=dt.date(2012, 7, 1), sex="M",
                      age_min=30, age_max=40, marks="scar above the right eyebrow", **month),
        "khatib": _case(archive, "251", "77", detainee_number="77", photographed=dt.date(2012, 5, 1), sex="M",
                        age_min=20, age_max=30, **month),
        "woman": _case(archive, "235", "5001", detainee_number="5001", photographed=dt.date(2012, 8, 1), sex="F",
                       age_min=20, age_max=30, **month),
        "early": _case(archive, "215", "1200", detainee_number="1200", photographed=dt.date(2011, 6, 1), sex="M",
                       age_min=20, age_max=30, **month),
    }
    run = LinkageRun.objects.create(status="done", is_current=True, engine="test", algorithm="test",
                                    algorithm_version="1")
    return World(cases, make_user, run)


@pytest.fixture(autouse=True)
def english_messages() -> Any:
    """Domain refusals are written with gettext: these tests read them in English (the site's
    default language is Arabic; the Arabic is checked in tests/web)."""
    from django.utils import translation

    with translation.override("en"):
        yield
