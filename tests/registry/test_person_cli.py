"""``athar registry person``: a report's missing person and all its reports, which source said what."""

import pytest

from athar.core.command import subcommands
from athar.registry.importing import import_reports
from athar.registry.linkage import link_all

pytestmark = pytest.mark.django_db


def run(**options):
    return subcommands("registry")["person"].run({"source": None, **options})


def test_one_person_with_the_reports_of_two_sources(tmp_path):
    rows = ("report_id,full_name_ar,full_name_latin,father_name,mother_name,birth_year,city,arrest_date,sex\n"
            "A-1,محمود أحمد السالم,Mahmoud Ahmad al-Salem,أحمد,فاطمة,1985,داريا,2012-03-14,M\n"
            "X-9,خالد يوسف الحمصي,Khaled Youssef al-Homsi,يوسف,مريم,1970,حمص,2013-01-02,M\n")
    (tmp_path / "a.csv").write_text(rows, encoding="utf-8")
    (tmp_path / "b.csv").write_text(
        "report_id,full_name_ar,father_name,mother_name,birth_year,city,arrest_date,sex\n"
        "B-7,محمود احمد السالم,أحمد,فاطمة,1986,داريا,2012-03,M\n", encoding="utf-8")
    import_reports(tmp_path / "a.csv", source="list-a")
    import_reports(tmp_path / "b.csv", source="list-b")
    assert run(report="A-1")["person"] is None  # before linkage: not linked yet
    link_all()
    result = run(report="B-7")
    assert result["person"] is not None
    said = {(r["source"], r["report_id"]): r["facts"] for r in result["reports"]}
    assert set(said) == {("list-a", "A-1"), ("list-b", "B-7")}
    assert said[("list-a", "A-1")]["birth_year"] == "1985" and said[("list-b", "B-7")]["birth_year"] == "1986"
    other = run(report="X-9")
    assert [r["report_id"] for r in other["reports"]] == ["X-9"]


def test_an_unknown_report_is_a_clear_error():
    with pytest.raises(ValueError, match="Z-404"):
        run(report="Z-404")
