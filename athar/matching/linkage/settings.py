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


def run_version() -> str:
    """What a linkage run records as its algorithm version: the model's and its rules' (the
    incompatibility rules of constraints.py change persons without changing the trained model)."""
    from athar.matching.linkage.constraints import CONSTRAINTS_VERSION

    return f"{VERSION}, rules {CONSTRAINTS_VERSION.rsplit(' ', 1)[-1]}"

NAME_LABELS = {
    "first": "first name", "father": "father's name", "grandfather": "grandfather's name",
    "ancestor": "great-grandfather's name",
    "family": "family name", "mother": "mother's first name", "mother_family": "mother's family name",
}


def _not_both_known(part: str) -> cll.CustomLevel:
    # two different names from the variants table are different, whatever their letters
    return cll.CustomLevel(f"({part}_known_l + {part}_known_r) < 2")


def _names_meet(part: str) -> cll.CustomLevel:
    # not two different names of the variants table: either not both are names of it, or one is a
    # spelling of two names (its id "kamal|kamil", prepare.SHARED_SPELLING) and the other is one of them
    left, right = f"concat('|', {part}_id_l, '|')", f"concat('|', {part}_id_r, '|')"
    return cll.CustomLevel(f"(({part}_known_l + {part}_known_r) < 2 OR instr({left}, {right}) > 0 "
                           f"OR instr({right}, {left}) > 0)")


SAME_NAME = "same name"
SAME_CONSONANTS = "same consonants (other script or spelling)"


def _same_consonants(part: str, tf: bool) -> Any:
    # The same name written in another script or spelling: the same evidence as "same name"
    # (model.effective_parameters gives it that level's m and u), term-frequency adjusted on
    # the cross-script key that agreed (a rare name says more than "Muhammad"). A spelling of two
    # names (KAMEL: كمال or كامل) is the same name written otherwise as either of them.
    level = cll.And(cll.ExactMatchLevel(f"{part}_blk"), _names_meet(part))
    if tf:
        return level.configure(label_for_charts=SAME_CONSONANTS, tf_adjustment_column=f"{part}_blk",
                               tf_adjustment_weight=1.0, disable_tf_exact_match_detection=True)
    return level.configure(label_for_charts=SAME_CONSONANTS)


# The "similar spelling" level's Jaro-Winkler bar on two name ids; the constraints read the same bar
# (constraints.similar_spelling), so a pair the model calls similar is not "different names" there.
SIMILAR_SPELLING = 0.9
# A family name "two consonants apart" only between coarse keys of four letters or more: two edits of
# a three-letter key leave one letter in common (QURJU krk / SHWEIKI sk: +2.2 bits, which with a
# first name and a birth year linked two of OFAC's persons; issue 28, eighth session).
TWO_APART_MIN_LENGTH = {"family": 4, "mother_family": 4}

# Pairs from 0.2 to the link threshold are offered for review, ranked (strongest first). Ninth
# session, measured on every dev set side by side (docs/linkage.md): a floor of 0.5 left a third of
# the independent Syrian set's missed pairs just under it (a man once in full and once as first +
# family name from another town, a father's name cut to "عبد", a family name with a typo). With this
# session's blocks, 0.2 lifts recall with review 0.962 → 0.976 (seed 9: 0.966 → 0.977), OFAC 0.862 →
# 0.886, Google 0.9525 → 0.9585, with at most 12.1 % of reports to review (phenomena); 0.1 gained
# 0.003 more on the independent set for 14.2 % of phenomena's reports, too close to the 15 % a
# review team is asked to carry. What is linked does not change.
REVIEW_BAND = (0.2, 0.9)
# A report is offered against its three strongest other persons at most (twenty-first session): on
# the field lists a bare name ("محمد الحداد", Darayya) met five or six namesakes in the band; a
# report's third candidate was right 4 times in 57, its fourth and later 2 in 32 (seed 32). Measured side by side with
# the bare names set aside (clustering._set_aside_ambiguous), no cap → 3: field lists 845 → 802 pairs
# (14.6 → 13.9 % of reports), recall with review 0.8989 → 0.8982; seed 32 882 → 817 (15.3 → 14.2 %),
# 0.8978 → 0.8975; fresh 600 → 560, 0.9924 → 0.9918 (seed 22 612 → 571, 0.9924 → 0.9922); the
# independent sets, phenomena, OFAC and the names-only sets within a pair or three, unchanged. A cap of
# 2 cost fresh 0.0030. When a reviewer decides one of the three, the next takes its place at the next
# full run.
REVIEW_PER_REPORT = 3


def name_comparison(part: str, *, tf: bool = True, fuzzy: bool = True, near_only: bool = False) -> cl.CustomComparison:
    """Levels: same name (TF-adjusted) / same consonants across scripts / similar spelling /
    one consonant apart / (unless ``near_only``) similar consonants / two consonants apart / different."""
    col = f"{part}_id"
    levels: list[Any] = [
        cll.NullLevel(col),
        cll.ExactMatchLevel(col, term_frequency_adjustments=tf).configure(label_for_charts="same name"),
        _same_consonants(part, tf),
    ]
    if fuzzy:
        levels += [
            cll.And(cll.JaroWinklerLevel(col, SIMILAR_SPELLING), _not_both_known(part)).configure(label_for_charts="similar spelling"),
            cll.And(cll.LevenshteinLevel(f"{part}_skel", 1), _not_both_known(part)).configure(
                label_for_charts="one consonant apart"),
        ]
    if fuzzy and not near_only:
        levels += [
            cll.And(cll.ExactMatchLevel(f"{part}_cblk"), _not_both_known(part)).configure(
                label_for_charts="similar consonants (g/j/k, d/t/z, h dropped)"),
            cll.And(*_two_apart(part)).configure(label_for_charts="two consonants apart (names not in the variants table)"),
        ]
    levels.append(cll.ElseLevel().configure(label_for_charts="different"))
    return cl.CustomComparison(comparison_levels=levels, output_column_name=f"{part}_name",
                               comparison_description=NAME_LABELS[part])


def _two_apart(part: str) -> list[Any]:
    conditions = [cll.LevenshteinLevel(f"{part}_cblk", 2), cll.CustomLevel(f"({part}_known_l + {part}_known_r) = 0")]
    if part in TWO_APART_MIN_LENGTH:
        conditions.append(cll.CustomLevel(
            f"least(length({part}_cblk_l), length({part}_cblk_r)) >= {TWO_APART_MIN_LENGTH[part]}"))
    return conditions


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
        name_comparison("grandfather", tf=False, near_only=True),
        name_comparison("ancestor", tf=False, near_only=True),
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
    # a name misread by its dots (handwriting, OCR: قهد for فهد) must not hide a pair
    ("first_dblk", "father_dblk", "family_dblk", "governorate_id"),
    ("first_dblk", "family_dblk", "birth_year"),
]
# Above SCALE_ROWS reports the rules above make blocks that grow with the square of the
# table (a million reports: ~150 million pairs); these add a fine key (birth year, city,
# arrest year, mother's name) to every rule: ~25 million pairs at a million reports.
SCALE_ROWS = 300_000
SCALE_RULES: list[tuple[str, ...]] = [
    ("first_blk", "father_blk", "family_blk", "birth_year"),
    ("first_blk", "family_blk", "birth_year", "governorate_id"),
    ("first_blk", "father_blk", "birth_year", "governorate_id"),
    ("father_blk", "family_blk", "mother_blk", "governorate_id"),
    ("first_blk", "family_blk", "city_key", "arrest_year"),
    ("first_blk", "father_blk", "family_blk", "governorate_id", "arrest_year"),
    ("first_blk", "father_blk", "city_key", "arrest_year"),
    ("father_blk", "family_blk", "birth_year", "governorate_id"),
    ("first_blk", "father_blk", "family_blk", "city_key"),
    ("first_blk", "father_blk", "family_blk", "mother_blk"),
    ("first_dblk", "father_dblk", "family_dblk", "birth_year", "governorate_id"),
]
# (issue 28, eighth session) The same given name and birth year, whatever the family name: a family
# name spelled apart (HEWANI / HESSWANI, George, 1946, Yabrud; BAKHTIAR / IKHTIYAR, Hisham, 1941, no
# place) or another one (OTRI / AKHRAS, Sahar) and no father's name left such a pair uncompared
# (OFAC). Every report of the Muhammads born in one year meets in it (with the birth place too, at
# 300,000 reports it made about five times the pairs of the other rules), so it is used on tables of
# up to this many reports (like the names-only rules below).
SMALL_TABLE_RULES: dict[tuple[str, ...], int] = {
    ("first_blk", "birth_year"): 50_000,
    # (ninth session) the same given name in the same town: "محمد لاخطيب" (no father, no year) and
    # "محمد ثامر الخطيب" of منبج, "أحمد النحا" and "Ahmed Adil al-Nahas" of Latamneh (a family name
    # cut or mistyped) met in no other block; about as many pairs as the rule above (12,042 on the
    # independent set's 6,401 rows).
    # (twenty-third session) the town's key, else the town a family name that is a nisba may name
    # (prepare.town_block: "ياسر الداراني" of no stated town meets the Yasirs of Daraya)
    ("first_blk", "town_blk"): 50_000,
    # (ninth session) given and family names blind to dots (الجلو / الحلو, عللي / علي): only a
    # three-name rule read them, so a report without a father's name met none. Not on names-only
    # tables, where it offered 51 more pairs for review on real_cross_parts for one true one.
    ("first_dblk", "family_dblk"): 50_000,
    # (eleventh session) the family name, the town and the arrest year, whatever the given names: a
    # given name with two letters swapped or one dropped ("الدكتور حنس النعسان" for حسن, "زركيا" for
    # زكريا) on a committee's report of name, town and date met no block of its person (every rule
    # holds a given-name key); the slip is then weighed (link.weigh_slips), and brothers arrested
    # together, who meet here too, keep their two given names apart (the guards). fresh_syrian R with
    # review 0.9683 -> 0.9723 (seed 21), 0.9652 -> 0.9696 (22); review pairs +9 %; no set lost.
    ("family_blk", "city_key", "arrest_year"): 50_000,
    # (twenty-seventh session) the given name and the mother's, whatever else: "أحمد ابن نعيمة" on a
    # WhatsApp list (no family name, no town) and "AHMAD MAHMOUD EL SHEHABI, mother NAIMA" of a
    # tracing request, "زينب بنت خديجه" and her family's report, met in no other block (every rule
    # holds a family or a father's name, a year or a town). R with review field lists 0.9087 -> 0.9101
    # (seed 32: 0.9123 -> 0.9135), independent seed 9 0.9850 -> 0.9866, phenomena 0.9851 -> 0.9861;
    # no set lost precision or recall.
    ("first_blk", "mother_blk"): 50_000,
}
# A rule used only where the table holds these too: a nisba meets a town only where towns are stated
# (on a table of names only, town_blk holds the nisbas alone, and its blocks were names-only blocks
# the names-only rules' limits did not bound: real_cross_parts R 0.8575 -> 0.8450).
RULE_NEEDS: dict[tuple[str, ...], set[str]] = {("first_blk", "town_blk"): {"city_key"}}
# When the reports hold names only (no place, year or date), blocks use names alone.
NAMES_ONLY_RULES: list[tuple[str, ...]] = [
    ("first_blk", "father_blk", "family_blk"),
    ("first_blk", "family_blk"),
    ("first_blk", "father_blk"),
    ("father_blk", "family_blk"),
    ("first_cblk", "father_cblk", "family_cblk"),
    ("first_cblk", "family_cblk"),
    ("first_cblk", "father_cblk"),
    ("father_cblk", "family_cblk"),
    ("first_dblk", "father_dblk", "family_dblk"),
    # (issue 28, eighth session) one name agreeing on its coarse key, the two others beginning with the
    # same coarse consonant: names spelled apart past one letter (Jobs Trias Andrews / جوبز ترياس
    # أندروز, Wardi Marchese Jefferies / وردي مارتشيزي جيفريز) were never compared (google_cross). The
    # family name's coarse key with the two given names' initials was tried too (Washington Carstens
    # Nordenskiold): it offered 29 more pairs for review on real_cross, all of two persons (not kept).
    ("first_cblk", "father_c1", "family_c1"),
    ("father_cblk", "first_c1", "family_c1"),
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


# Names-only rules are also used on smaller tables, where their blocks stay small
# ("Muhammad al-Hasan" is 3% of Syrian men: at 1,000,000 reports that block alone would
# hold ~10^8 pairs). Row limits per names-only rule:
NAMES_ONLY_LIMITS = {0: 300_000, 1: 50_000, 2: 50_000, 3: 50_000, 4: 100_000, 5: 20_000, 6: 20_000, 7: 20_000,
                     8: 100_000, 9: 20_000, 10: 20_000}


NAMES_ONLY_TRAINING_RULES: list[tuple[str, ...]] = [
    ("first_blk", "family_blk"),
    ("father_blk", "family_blk"),
    ("first_blk", "father_blk"),
]


def training_rules(populated: set[str]) -> list[tuple[str, ...]]:
    """EM blocking rules usable on this data (names-only rules when nothing else is given)."""
    rules = [r for r in TRAINING_RULES if set(r) <= populated]
    return rules or [r for r in NAMES_ONLY_TRAINING_RULES if set(r) <= populated]


def blocking_rules(populated: set[str], n_rows: int = 0) -> list[Any]:
    """Prediction rules whose columns hold data; names-only rules when nothing else does,
    or when the table is small enough for them."""
    return [block_on(*r) for r in rule_columns(populated, n_rows)]


def rule_columns(populated: set[str], n_rows: int = 0) -> list[tuple[str, ...]]:
    """The columns of each prediction rule (blocking_rules), e.g. for the block index of the
    incremental linkage (incremental.py)."""
    rules = [r for r in (SCALE_RULES if n_rows > SCALE_ROWS else FULL_RULES) if set(r) <= populated]
    rules += [r for r, limit in SMALL_TABLE_RULES.items()
              if set(r) | RULE_NEEDS.get(r, set()) <= populated and n_rows and n_rows <= limit]
    names_only = [r for r in NAMES_ONLY_RULES if set(r) <= populated]
    names = {"first_blk", "father_blk", "family_blk", "mother_blk", "first_dblk", "father_dblk", "family_dblk",
             "first_c1", "father_c1", "family_c1"}
    if not any(set(r) - names for r in rules):
        rules = names_only
    else:
        rules += [r for i, r in enumerate(names_only) if n_rows and n_rows <= NAMES_ONLY_LIMITS.get(i, 0)]
    return rules


def settings_dict(populated: set[str], *, retain: bool = True, n_rows: int = 0) -> dict[str, Any]:
    """A Splink settings object for algorithm version 1 (untrained)."""
    return {
        "link_type": "dedupe_only",
        "unique_id_column_name": "unique_id",
        "probability_two_random_records_match": 1e-5,
        "comparisons": comparisons(),
        "blocking_rules_to_generate_predictions": blocking_rules(populated, n_rows),
        "retain_matching_columns": False,
        "retain_intermediate_calculation_columns": retain,
        "additional_columns_to_retain": [],
    }
