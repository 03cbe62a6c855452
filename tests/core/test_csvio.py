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


# The mojibake gate: a line skips ftfy's badness test only when it cannot be mojibake of UTF-8.
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from athar.core import csvio  # noqa: E402

NAMEISH = st.text(alphabet=st.sampled_from(list("محمدأحمدعبدالله السوريةإبراهيمؤئءةى Joséé Müller Ahmad-al")),
                  min_size=1, max_size=40)


@settings(max_examples=200, deadline=None)
@given(NAMEISH, st.sampled_from(["cp1252", "cp1256", "latin-1", "cp1251", "mac-roman", "cp437"]))
def test_every_mojibake_of_utf8_passes_the_gate(text, codec):
    """UTF-8 shown through any code page athar or ftfy repairs keeps a continuation character."""
    if text.isascii():
        return
    shown = text.encode("utf-8").decode(codec, errors="replace")
    assert csvio._CONTINUATION.search(shown) is not None


def test_plain_arabic_line_skips_the_badness_test(monkeypatch):
    import ftfy

    called = []
    monkeypatch.setattr(ftfy, "fix_encoding", lambda line: called.append(line) or line)
    assert csvio._repair_line("1,محمد أحمد السالم,ذكر,دمشق\n") == ("1,محمد أحمد السالم,ذكر,دمشق\n", "")
    assert called == []
    csvio._repair_line("1,محمد، أحمد\n")  # an Arabic comma could be a continuation byte: checked
    assert called == ["1,محمد، أحمد\n"]


def test_mojibake_still_repaired():
    garbled = "1,محمد أحمد\n".encode().decode("cp1252", errors="replace")
    assert csvio._repair_line(garbled)[0] == "1,محمد أحمد\n"
