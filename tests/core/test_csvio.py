import pytest

from athar.core.csvio import CsvError, read_csv


def test_reads_utf8_bom_and_semicolons(tmp_path):
    path = tmp_path / "x.csv"
    path.write_bytes("\ufeffname;town\nمحمد;حمص\n".encode("utf-8"))
    header, rows, encoding = read_csv(path)
    assert header == ["name", "town"]
    assert rows[0].values == {"name": "محمد", "town": "حمص"} and rows[0].number == 2


def test_reads_windows_1256(tmp_path):
    path = tmp_path / "x.csv"
    path.write_bytes("name,town\nمحمود,دمشق\n".encode("cp1256"))
    _, rows, encoding = read_csv(path)
    assert encoding == "cp1256" and rows[0].values["name"] == "محمود"


def test_binary_is_refused(tmp_path):
    path = tmp_path / "x.csv"
    path.write_bytes(b"\x00\x01\x02\xff\xfe")
    with pytest.raises(CsvError):
        read_csv(path)
