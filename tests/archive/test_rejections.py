"""Every refusal code words itself in English (commands) and Arabic (pages) from its values."""

from __future__ import annotations

import pytest
from django.utils import translation

from athar.archive import rejections

SAMPLE = {"detail": "image file is truncated", "width": 30000, "height": 20000, "file": "cases.csv", "row": 4,
          "kind": "portrait", "allowed": "body, face", "sex": "X", "age": "200", "min": 60, "max": 20,
          "text": "2012-02-31"}


@pytest.mark.parametrize("code", sorted(rejections.MESSAGES))
def test_each_code_has_an_english_reason_and_an_arabic_message(code: str) -> None:
    params = {**SAMPLE, "problem": "unknown_kind"} if code == rejections.NESTED else SAMPLE
    english = rejections.english(code, params)
    with translation.override("ar"):
        arabic = rejections.message(code, params)
    assert english and arabic and english != arabic
    assert "image file is truncated" not in arabic  # the detail is shown apart, never inside the message
    assert any("\u0600" <= c <= "\u06ff" for c in arabic), arabic


def test_a_nested_row_problem_reads_with_its_row_in_arabic_and_as_before_in_english() -> None:
    params = {"file": "cases.csv", "row": 2, "problem": "age_range_inverted", "min": 60, "max": 20}
    assert rejections.english("manifest_row", params) == "age_min 60 is above age_max 20"
    with translation.override("ar"):
        assert rejections.message("manifest_row", params) == "السطر 2: العمر الأدنى 60 أكبر من العمر الأعلى 20"


def test_missing_values_or_unknown_codes_never_fail_a_page() -> None:
    with translation.override("ar"):
        assert rejections.message("unknown_kind", {}) == "رُفض لسبب آخر"
        assert rejections.message("no_such_code", {"detail": "x"}) == "رُفض لسبب آخر"
    assert rejections.detail("no_such_code", {}, "the old English reason") == "the old English reason"
    assert rejections.english("other", {"detail": "as it was written"}) == "as it was written"


def test_row_errors_keep_their_code_and_others_become_other() -> None:
    from athar.core.dates import parse_partial_date

    with pytest.raises(ValueError) as refused:
        parse_partial_date("2012-13-45")
    assert rejections.of_error(refused.value)[0] == "impossible_date"
    assert rejections.of_error(ValueError("something new")) == ("other", {"detail": "something new"})
