"""A family's export and erasure, from the command line."""

import json

import pytest

from athar.core.command import subcommands
from athar.registry.importing import import_reports
from athar.registry.models import Report

pytestmark = pytest.mark.django_db


def run(name, **options):
    return subcommands("registry")[name].run(options)


def test_export_then_erase(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("report_id,full_name_ar,birth_year\nF-1,محمود أحمد السالم,1985\n", encoding="utf-8")
    import_reports(path, source="ngo")
    out = tmp_path / "export.json"
    run("export-data", report="F-1", source=None, out=str(out))
    assert "محمود" in out.read_text(encoding="utf-8")
    with pytest.raises(ValueError, match="--confirm"):
        run("erase", report="F-1", source=None, confirm=False)
    run("erase", report="F-1", source=None, confirm=True)
    report = Report.objects.get(report_id="F-1")
    assert "محمود" not in report.full_name_ar and report.erased_at is not None
    assert "محمود" not in json.dumps(list(Report.objects.values()), ensure_ascii=False, default=str)
