"""Features: each compares a person with every case at once and gives each case a *level*.

A level is a named, ordered outcome ("same sex", "different sex", "unknown"); the algorithm turns
levels into weights of evidence (log-likelihood ratios, ``algorithms/*.json``) and ``explain``
turns one case's level into a readable reason. A feature never removes a case: an unknown fact
is the neutral level, and a contradiction is a finite negative weight.
The face feature is continuous (a cosine similarity mapped to a log-likelihood ratio).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from athar.matching.scoring.facts import (
    SEX_CODES,
    CaseRecord,
    CaseTable,
    PersonFacts,
    month_number,
)
from athar.matching.scoring.marks import OPPOSITE, mark_tokens, parse_marks
from athar.matching.scoring.text import digits_key

Levels = npt.NDArray[np.int8]


@dataclass(frozen=True)
class Feature:
    name: str
    levels: tuple[str, ...]
    compare: Callable[[PersonFacts, CaseTable], Levels]
    explain: Callable[[str, PersonFacts, CaseRecord], str]

    @property
    def doc(self) -> str:
        return (self.compare.__doc__ or "").strip()


def _one(case: CaseRecord) -> CaseTable:
    """A one-case table without marks (cheap), for the date arithmetic of explanations."""
    return CaseTable.build([replace(case, marks="")])


def _fill(n: int, level: int) -> Levels:
    return np.full(n, level, dtype=np.int8)


# --- sex ---------------------------------------------------------------------------------------
SEX_LEVELS = ("same", "different", "unknown")


def sex_compare(person: PersonFacts, table: CaseTable) -> Levels:
    """Sex reported by the family against the sex recorded for the body."""
    code = SEX_CODES.get(person.sex, 0)
    out = _fill(len(table), 2)
    if code:
        out[table.sex == code] = 0
        out[(table.sex != code) & (table.sex != 0)] = 1
    return out


def sex_explain(level: str, person: PersonFacts, case: CaseRecord) -> str:
    names = {"M": "male", "F": "female", "U": "unknown"}
    if level == "unknown":
        return "sex unknown on one side"
    return f"sex {'matches' if level == 'same' else 'differs'}: reported {names[person.sex]}, case {names[case.sex]}"


# --- age ---------------------------------------------------------------------------------------
AGE_LEVELS = ("within", "off_2", "off_5", "off_10", "off_more", "unknown")


def _age_at_photo(person: PersonFacts, table: CaseTable) -> npt.NDArray[np.float64]:
    if person.birth_year is None:
        return np.full(len(table), np.nan)
    year = np.floor(table.photo_month / 12)
    arrest, _ = month_number(person.arrest, person.arrest_precision)
    if not np.isnan(arrest):  # a case without a date: about a year after the arrest
        year = np.where(np.isnan(year), np.floor(arrest / 12) + 1, year)
    return year - person.birth_year


def age_compare(person: PersonFacts, table: CaseTable) -> Levels:
    """Age at the photographed date (from the reported birth year) against the examiner's estimate."""
    age = _age_at_photo(person, table)
    lo = np.where(np.isnan(table.age_min), table.age_max, table.age_min)
    hi = np.where(np.isnan(table.age_max), table.age_min, table.age_max)
    with np.errstate(invalid="ignore"):
        off = np.maximum(np.maximum(lo - age, age - hi), 0) - person.birth_year_tolerance
    out = np.select([off <= 0, off <= 2, off <= 5, off <= 10, off > 10], [0, 1, 2, 3, 4], 5).astype(np.int8)
    out[np.isnan(off)] = 5
    return out


def age_explain(level: str, person: PersonFacts, case: CaseRecord) -> str:
    if level == "unknown":
        return "age cannot be compared (birth year, estimate or date unknown)"
    age = int(_age_at_photo(person, _one(case))[0])
    estimate = f"{case.age_min if case.age_min is not None else '?'}–{case.age_max if case.age_max is not None else '?'}"
    verdict = {"within": "within the estimate", "off_2": "1–2 years outside the estimate",
               "off_5": "3–5 years outside", "off_10": "6–10 years outside", "off_more": "over 10 years outside"}
    return f"born {person.birth_year}: about {age} when photographed; examiner's estimate {estimate} ({verdict[level]})"


# --- time --------------------------------------------------------------------------------------
TIME_LEVELS = ("before_arrest", "just_before_arrest", "custody_3m", "custody_12m", "custody_36m",
               "custody_longer", "unknown")


def _gap(person: PersonFacts, table: CaseTable) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    arrest, tol = month_number(person.arrest, person.arrest_precision)
    return table.photo_month - arrest, table.photo_tolerance + tol


def time_compare(person: PersonFacts, table: CaseTable) -> Levels:
    """Reported arrest date against the photographed date: the body cannot be photographed before the
    arrest (beyond what dates families misremember); the time in custody is usually short."""
    gap, tol = _gap(person, table)
    with np.errstate(invalid="ignore"):
        conds = [gap < -(tol + 1), gap < 0, gap <= 3, gap <= 12, gap <= 36, gap > 36]
    out = np.select(conds, [0, 1, 2, 3, 4, 5], 6).astype(np.int8)
    out[np.isnan(gap)] = 6
    return out


def time_explain(level: str, person: PersonFacts, case: CaseRecord) -> str:
    if level == "unknown":
        return "time cannot be compared (arrest or photographed date unknown)"
    gap = int(round(_gap(person, _one(case))[0][0]))
    arrest = _date_text(person.arrest, person.arrest_precision)
    photo = _date_text(case.photographed, case.photographed_precision)
    if level in ("before_arrest", "just_before_arrest"):
        how = "beyond" if level == "before_arrest" else "within"
        return f"photographed {photo}, about {-gap} months BEFORE the reported arrest {arrest} ({how} date tolerance)"
    return f"arrested {arrest}, photographed {photo}: about {max(gap, 0)} months in custody"


def _date_text(date: object, precision: str) -> str:
    if date is None:
        return "?"
    iso = date.isoformat()  # type: ignore[attr-defined]
    return {"year": iso[:4], "month": iso[:7]}.get(precision, iso)


# --- facility ----------------------------------------------------------------------------------
FACILITY_LEVELS = ("same_facility", "same_agency", "agency_named", "other_agency", "other_facility", "unknown")


def facility_compare(person: PersonFacts, table: CaseTable) -> Levels:
    """The branch or agency the family named (resolved through the editable facility table)
    against the case's facility and its agency."""
    out = _fill(len(table), 5)
    if not person.facility_named:
        return out
    fac = np.isin(table.facility, [i for i, c in enumerate(table.facility_codes) if c in person.facility_codes])
    agency = np.isin(table.agency, [i for i, c in enumerate(table.agency_codes) if c in person.agency_codes])
    known_agency = table.agency > 0
    named_facility = bool(person.facility_codes)
    out[known_agency & ~agency] = 3
    out[(table.facility > 0) & ~known_agency & named_facility] = 4
    out[agency] = 1 if named_facility else 2
    out[fac] = 0
    return out


def facility_explain(level: str, person: PersonFacts, case: CaseRecord) -> str:
    named = ", ".join(sorted(person.facility_codes)) or ", ".join(sorted(person.agency_codes)) or "a facility not in the table"
    where = f"case in {case.facility_name or case.facility_code}" + (f" ({case.agency_code})" if case.agency_code else "")
    text = {"same_facility": "same facility", "same_agency": "same agency, another branch",
            "agency_named": "the agency the family named", "other_agency": "another agency",
            "other_facility": "another facility (its agency unknown)", "unknown": "cannot be compared"}[level]
    return f"reported {named}; {where}: {text}"


# --- marks -------------------------------------------------------------------------------------
MARK_LEVELS = ("content_and_place", "content", "place_and_side", "place", "other_side", "region", "kind",
               "none_in_common", "unknown")


def marks_compare(person: PersonFacts, table: CaseTable) -> Levels:
    """Distinguishing marks (Arabic or English): kind, body location and side, what a tattoo shows.
    An unknown side is compatible with either side; marks described on one side only are neutral."""
    marks = parse_marks(person.marks_text)
    out = _fill(len(table), 8)
    if not marks:
        return out
    tokens = mark_tokens(marks)
    opposite = {f"S:{m.kind}:{m.location}:{OPPOSITE[m.side]}" for m in marks if m.side and m.location}

    def hits(prefix: str, wanted: set[str] | None = None) -> npt.NDArray[np.bool_]:
        cols = [table.mark_token_index[t] for t in (wanted if wanted is not None else tokens)
                if t.startswith(prefix) and t in table.mark_token_index]
        if not cols:
            return np.zeros(len(table), dtype=bool)
        return np.asarray(table.mark_matrix[:, cols].sum(axis=1)).ravel() > 0

    content, place, side, region, kind = hits("C:"), hits("L:"), hits("S:"), hits("R:"), hits("K:")
    other = hits("S:", opposite) & ~side
    out[table.has_marks] = 7
    levels = [(kind, 6), (region, 5), (place, 3), (place & other, 4), (place & side, 2), (content, 1),
              (content & place, 0)]
    for mask, level in levels:
        out[mask] = level
    out[~table.has_marks] = 8
    return out


def marks_explain(level: str, person: PersonFacts, case: CaseRecord) -> str:
    reported = "; ".join(m.describe() for m in parse_marks(person.marks_text)) or "none"
    recorded = "; ".join(m.describe() for m in parse_marks(case.marks)) or "none recorded"
    text = {"content_and_place": "same mark, same place", "content": "same content", "place_and_side":
            "same kind, place and side", "place": "same kind and place (a side unknown)", "other_side":
            "same kind and place but the other side", "region": "same kind, same part of the body",
            "kind": "same kind of mark, elsewhere", "none_in_common": "no mark in common", "unknown":
            "no marks on one side"}[level]
    return f"marks: reported {reported}; case {recorded} ({text})"


# --- detainee number ---------------------------------------------------------------------------
NUMBER_LEVELS = ("confirmed_same_number", "same_number_same_facility", "same_number", "different", "unknown")


def number_compare(person: PersonFacts, table: CaseTable) -> Levels:
    """A detainee number the family knows against the numbers of the body: the number archivists
    confirmed in its photos (strongest: read from the body itself) or, else, the case's recorded
    number (numbers are per branch). A mismatch weighs against, it never excludes: families quote
    numbers from memory, lists and posts."""
    wanted = digits_key(person.detainee_number)
    out = _fill(len(table), 4)
    if not wanted:
        return out
    same = table.number == wanted
    fac = np.isin(table.facility, [i for i, c in enumerate(table.facility_codes) if c in person.facility_codes])
    out[(table.number != "") | (table.confirmed != "")] = 3
    out[same] = 2
    out[same & fac] = 1
    out[np.char.find(table.confirmed, f"|{wanted}|") >= 0] = 0
    return out


def number_explain(level: str, person: PersonFacts, case: CaseRecord) -> str:
    text = {"confirmed_same_number": "the same number, confirmed by archivists in the case's photos",
            "same_number_same_facility": "same number in the same branch", "same_number": "same number, another branch",
            "different": "different number", "unknown": "no number on one side"}[level]
    confirmed = ", ".join(case.confirmed_numbers) or "—"
    return (f"detainee number: reported {person.detainee_number or '—'}, case {case.detainee_number or '—'}, "
            f"confirmed in photos {confirmed} ({text})")


# --- within-level refinements ------------------------------------------------------------------
def age_distance(person: PersonFacts, table: CaseTable) -> npt.NDArray[np.float64]:
    """Years between the age at the photographed date and the middle of the examiner's estimate
    (0 when unknown): within a level, closer is likelier."""
    age = _age_at_photo(person, table)
    lo = np.where(np.isnan(table.age_min), table.age_max, table.age_min)
    hi = np.where(np.isnan(table.age_max), table.age_min, table.age_max)
    return np.nan_to_num(np.abs(age - (lo + hi) / 2), nan=0.0)


def custody_months(person: PersonFacts, table: CaseTable) -> npt.NDArray[np.float64]:
    """Months between the reported arrest and the photographed date, 0 when unknown or negative."""
    gap, _ = _gap(person, table)
    return np.clip(np.nan_to_num(gap, nan=0.0), 0, None)


REFINEMENTS: dict[str, Callable[[PersonFacts, CaseTable], npt.NDArray[np.float64]]] = {
    "age": age_distance, "time": custody_months,
}


FEATURES: tuple[Feature, ...] = (
    Feature("sex", SEX_LEVELS, sex_compare, sex_explain),
    Feature("age", AGE_LEVELS, age_compare, age_explain),
    Feature("time", TIME_LEVELS, time_compare, time_explain),
    Feature("facility", FACILITY_LEVELS, facility_compare, facility_explain),
    Feature("marks", MARK_LEVELS, marks_compare, marks_explain),
    Feature("number", NUMBER_LEVELS, number_compare, number_explain),
)
