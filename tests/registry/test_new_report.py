"""``bulk.new_report`` builds the instance ``Report(**values)`` builds, without its constructor."""

import datetime as dt

import pytest

from athar.registry.bulk import new_report
from athar.registry.models import Report


def _attributes(report: Report) -> dict:
    return {k: v for k, v in report.__dict__.items() if k != "_state"}


def test_same_instance_as_the_constructor() -> None:
    values = {"source": "s", "report_id": "7", "lineage": "l" * 32, "version": 2, "full_name_ar": "محمد أحمد",
              "birth_year": 1980, "arrest_date": dt.date(2012, 3, 1), "extra": {"x": "1"}, "sex": "M"}
    built, made = new_report(**values), Report(**values)
    assert _attributes(built) == _attributes(made)
    assert built._state.adding and built._state.db is None and built.pk is None


def test_json_defaults_are_not_shared() -> None:
    one, two = new_report(source="s"), new_report(source="s")
    assert one.name_titles == [] and one.name_titles is not two.name_titles
    assert one.consent is not two.consent


def test_an_unknown_field_is_refused() -> None:
    with pytest.raises(TypeError):
        new_report(batch=None)  # attnames only: batch_id
