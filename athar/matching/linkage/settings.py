"""The Splink model specification: comparisons and blocking rules (algorithm version 1).

Comparisons are built in code with Splink's level library (so each engine gets its own
SQL dialect); trained m/u values live in the model JSON and are matched to the levels by
their labels. Changing a level here means a new algorithm version.
"""

from __future__ import annotations

from typing import Any

import splink.comparison_level_library as cll
import splink.comparison_library as cl
from splink import block_on

ALGORITHM = "athar-linkage"
VERSION = 1

NAME_LABELS = {
    "first": "first name", "father": "father's name", "grandfather": "grandfather's name",
    "family": "family name", "mother": "mother's first name", "mother_family": "mother's family name",
}


def _not_both_known(part: str) -> cll.CustomLevel:
    # two different names from the variants table are different, whatever their letters
    return cll.CustomLevel(f"({part}_known_l + {part}_known_r) < 2")


def name_comparison(part: str, *, tf: bool = True, fuzzy: bool = True) -> cl.CustomComparison:
    """Levels: same name (TF-adjusted) / same consonants across scripts / similar spelling /
    one consonant apart / different."""
    col = f"{part}_id"
    levels: list[Any] = [
        cll.NullLevel(col),
        cll.ExactMatchLevel(col, term_frequency_adjustments=tf).configure(label_for_charts="same name"),
        cll.And(cll.ExactMatchLevel(f"{part}_blk"), _not_both_known(part)).configure(
            label_for_charts="same consonants (other script or spelling)"),
    ]
    if fuzzy:
        levels += [
            cll.And(cll.JaroWinklerLevel(col, 0.9), _not_both_known(part)).configure(label_for_charts="similar spelling"),
            cll.And(cll.LevenshteinLevel(f"{part}_skel", 1), _not_both_known(part)).configure(
                label_for_charts="one consonant apart"),
        ]
    levels.append(cll.ElseLevel().configure(label_for_charts="different"))
    return cl.CustomComparison(comparison_levels=levels, output_column_name=f"{part}_name",
                               comparison_description=NAME_LABELS[part])


def _custom(sql: str, label: str) -> cll.CustomLevel:
    return cll.CustomLevel(sql, label_for_charts=label)


def birth_year_comparison() -> cl.CustomComparison:
    return cl.CustomComparison(output_column_name="birth_year", comparison_description="birth year", comparison_levels=[
        cll.NullLevel("birth_year"),
        _custom("birth_year_l = birth_year_r", "same year"),
        _custom("abs(birth_year_l - birth_year_r) <= 1", "one year apart"),
        _custom("abs(birth_year_l - birth_year_r) <= 2", "two years apart"),
        cll.ElseLevel().configure(label_for_charts="more than two years apart"),
    ])


def arrest_date_comparison() -> cl.CustomComparison:
    return cl.CustomComparison(output_column_name="arrest_date", comparison_description="arrest date", comparison_levels=[
        cll.NullLevel("arrest_year"),
        _custom("arrest_ym_l = arrest_ym_r", "same month"),
        _custom("abs(arrest_ym_l - arrest_ym_r) <= 2", "within two months"),
        _custom("arrest_year_l = arrest_year_r", "same year"),
        _custom("abs(arrest_year_l - arrest_year_r) <= 1", "one year apart"),
        cll.ElseLevel().configure(label_for_charts="further apart"),
    ])


def exact_comparison(col: str, description: str, *, tf: bool = False) -> cl.CustomComparison:
    return cl.CustomComparison(output_column_name=col, comparison_description=description, comparison_levels=[
        cll.NullLevel(col),
        cll.ExactMatchLevel(col, term_frequency_adjustments=tf).configure(label_for_charts="same"),
        cll.ElseLevel().configure(label_for_charts="different"),
    ])


def comparisons() -> list[cl.CustomComparison]:
    """All comparisons of algorithm version 1, in a fixed order."""
    return [
        name_comparison("first"),
        name_comparison("father"),
        name_comparison("grandfather", tf=False, fuzzy=False),
        name_comparison("family"),
        name_comparison("mother", fuzzy=False),
        name_comparison("mother_family", fuzzy=False),
        birth_year_comparison(),
        exact_comparison("sex", "sex"),
        exact_comparison("governorate_id", "governorate"),
        exact_comparison("city_key", "city", tf=True),
        exact_comparison("birth_place_key", "birth place"),
        arrest_date_comparison(),
        exact_comparison("agency_id", "arresting agency"),
    ]


# Blocking: every rule joins on at least three keys so that "Muhammad" alone never makes
# a block; name keys are cross-script (an Arabic-only and a Latin-only report meet).
FULL_RULES: list[tuple[str, ...]] = [
    ("first_blk", "father_blk", "family_blk", "governorate_id"),
    ("first_blk", "family_blk", "birth_year"),
    ("first_blk", "father_blk", "birth_year"),
    ("father_blk", "family_blk", "mother_blk"),
    ("first_blk", "family_blk", "city_key"),
    ("first_blk", "father_blk", "family_blk", "arrest_year"),
    # a typo in the family name must not hide a pair: rules without it
    ("first_blk", "father_blk", "city_key"),
    ("first_blk", "father_blk", "governorate_id", "arrest_year"),
    ("father_blk", "family_blk", "birth_year"),
]
# When the reports hold names only (no place, year or date), blocks use names alone.
NAMES_ONLY_RULES: list[tuple[str, ...]] = [
    ("first_blk", "father_blk", "family_blk"),
    ("first_blk", "family_blk"),
    ("first_blk", "father_blk"),
    ("father_blk", "family_blk"),
]
TRAINING_RULES: list[tuple[str, ...]] = [
    ("first_blk", "father_blk", "family_blk"),
    ("birth_year", "mother_blk", "governorate_id"),
    ("arrest_ym", "city_key", "birth_year"),
]
_OLD_TRAINING_RULES: list[tuple[str, ...]] = [
    ("first_blk", "family_blk"),
    ("birth_year", "city_key"),
    ("father_blk", "governorate_id", "arrest_year"),
]


def blocking_rules(populated: set[str]) -> list[Any]:
    """Prediction rules whose columns hold data; names-only rules when nothing else does."""
    rules = [r for r in FULL_RULES if set(r) <= populated]
    if not any(set(r) - {"first_blk", "father_blk", "family_blk", "mother_blk"} for r in rules):
        rules = [r for r in NAMES_ONLY_RULES if set(r) <= populated]
    return [block_on(*r) for r in rules]


def settings_dict(populated: set[str], *, retain: bool = True) -> dict[str, Any]:
    """A Splink settings object for algorithm version 1 (untrained)."""
    return {
        "link_type": "dedupe_only",
        "unique_id_column_name": "unique_id",
        "probability_two_random_records_match": 1e-5,
        "comparisons": comparisons(),
        "blocking_rules_to_generate_predictions": blocking_rules(populated),
        "retain_matching_columns": False,
        "retain_intermediate_calculation_columns": retain,
        "additional_columns_to_retain": [],
    }
