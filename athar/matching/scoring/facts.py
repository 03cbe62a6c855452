"""What is known about a missing person, and a column table of archive cases.

Plain data, no Django: the identification app builds these from rows; the benchmark builds them
from CSV files. Dates are *month numbers* (``year * 12 + month - 1``) with a tolerance in months
that follows their precision (a day or a month: 1; a year only: 6 around mid-year).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from scipy import sparse

from athar.matching.scoring.marks import Mark, mark_tokens, parse_marks
from athar.matching.scoring.text import digits_key

SEX_CODES = {"U": 0, "M": 1, "F": 2}
TOLERANCE = {"day": 1.0, "month": 1.0, "year": 6.0}


def month_number(date: dt.date | None, precision: str = "day") -> tuple[float, float]:
    """(month number, tolerance); NaN for an unknown date. A year alone is placed mid-year."""
    if date is None or precision == "unknown":
        return float("nan"), float("nan")
    if precision == "year":
        return date.year * 12 + 5.5, TOLERANCE["year"]
    return date.year * 12 + date.month - 1.0, TOLERANCE.get(precision, 1.0)


@dataclass
class PersonFacts:
    """One missing person as the family reported them (every field may be unknown)."""

    person_id: str
    sex: str = "U"
    birth_year: int | None = None
    birth_year_tolerance: int = 0
    arrest: dt.date | None = None
    arrest_precision: str = "unknown"
    facility_codes: frozenset[str] = frozenset()
    agency_codes: frozenset[str] = frozenset()
    facility_named: bool = False  # a facility or agency was named, even if not in the table
    marks_text: str = ""
    detainee_number: str = ""
    has_photo: bool = False

    @property
    def marks(self) -> list[Mark]:
        return parse_marks(self.marks_text)


@dataclass
class CaseRecord:
    """One archive case's facts (from cases.csv and archivists' edits)."""

    case_id: int
    label: str = ""
    facility_code: str = ""
    agency_code: str = ""
    facility_name: str = ""
    detainee_number: str = ""
    photographed: dt.date | None = None
    photographed_precision: str = "unknown"
    sex: str = "U"
    age_min: int | None = None
    age_max: int | None = None
    marks: str = ""
    # Numbers archivists confirmed in the case's photos (settled readings), Western digits.
    confirmed_numbers: tuple[str, ...] = ()


@dataclass
class CaseTable:
    """Every case as numpy columns, so one person is ranked against 55,000 cases at once."""

    records: list[CaseRecord]
    case_ids: npt.NDArray[np.int64]
    facility: npt.NDArray[np.int32]
    agency: npt.NDArray[np.int32]
    facility_codes: list[str]
    agency_codes: list[str]
    sex: npt.NDArray[np.int8]
    age_min: npt.NDArray[np.float64]
    age_max: npt.NDArray[np.float64]
    photo_month: npt.NDArray[np.float64]
    photo_tolerance: npt.NDArray[np.float64]
    number: npt.NDArray[np.str_]
    confirmed: npt.NDArray[np.str_]  # "|2065|3012|": the confirmed numbers' keys, searchable at once
    mark_matrix: sparse.csr_matrix
    mark_token_index: dict[str, int]
    has_marks: npt.NDArray[np.bool_]
    position: dict[int, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.records)

    @classmethod
    def build(cls, records: Iterable[CaseRecord]) -> CaseTable:
        recs = list(records)
        fac_codes, fac_idx = _codes([r.facility_code for r in recs])
        ag_codes, ag_idx = _codes([r.agency_code for r in recs])
        months = [month_number(r.photographed, r.photographed_precision) for r in recs]
        matrix, token_index, has_marks = _mark_matrix(recs)
        return cls(
            records=recs,
            case_ids=np.array([r.case_id for r in recs], dtype=np.int64),
            facility=fac_idx, agency=ag_idx, facility_codes=fac_codes, agency_codes=ag_codes,
            sex=np.array([SEX_CODES.get(r.sex, 0) for r in recs], dtype=np.int8),
            age_min=np.array([np.nan if r.age_min is None else r.age_min for r in recs], dtype=np.float64),
            age_max=np.array([np.nan if r.age_max is None else r.age_max for r in recs], dtype=np.float64),
            photo_month=np.array([m for m, _ in months], dtype=np.float64),
            photo_tolerance=np.array([t for _, t in months], dtype=np.float64),
            number=np.array([digits_key(r.detainee_number) for r in recs], dtype=np.str_),
            confirmed=np.array([_joined_keys(r.confirmed_numbers) for r in recs], dtype=np.str_),
            mark_matrix=matrix, mark_token_index=token_index, has_marks=has_marks,
            position={r.case_id: i for i, r in enumerate(recs)},
        )


def _joined_keys(numbers: tuple[str, ...]) -> str:
    keys = sorted({digits_key(n) for n in numbers} - {""})
    return f"|{'|'.join(keys)}|" if keys else ""


def _codes(values: list[str]) -> tuple[list[str], npt.NDArray[np.int32]]:
    """Distinct codes (index 0 is 'unknown') and each row's index."""
    codes = [""] + sorted({v for v in values if v})
    index = {c: i for i, c in enumerate(codes)}
    return codes, np.array([index[v] if v else 0 for v in values], dtype=np.int32)


def _mark_matrix(recs: list[CaseRecord]) -> tuple[sparse.csr_matrix, dict[str, int], npt.NDArray[np.bool_]]:
    from scipy import sparse  # here, not at the top: SciPy would cost every athar command its import

    token_index: dict[str, int] = {}
    rows, cols, parsed_cache = [], [], {}  # many cases share a description: parse each text once
    for i, r in enumerate(recs):
        text = r.marks.strip()
        if not text:
            continue
        if text not in parsed_cache:
            parsed_cache[text] = mark_tokens(parse_marks(text))
        for token in parsed_cache[text]:
            rows.append(i)
            cols.append(token_index.setdefault(token, len(token_index)))
    matrix = sparse.csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)),
                               shape=(len(recs), max(len(token_index), 1)))
    has = np.asarray(matrix.getnnz(axis=1) > 0).ravel() if len(recs) else np.zeros(0, dtype=bool)
    return matrix, token_index, has
