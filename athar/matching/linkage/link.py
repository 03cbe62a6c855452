"""Link reports into persons: predict pairs, apply reviewer decisions, cluster, explain."""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from splink import Linker, block_on

from athar.matching.linkage.clustering import (
    Decision,
    cluster_pairs,
    log2_odds,
    normalise_decisions,
)
from athar.matching.linkage.constraints import (
    Constraints,
    ReportFacts,
    contradictions,
    garbled_name,
    names_agree,
    nickname_of,
    one_given_name,
    one_slip,
    skipped_generation,
    slipped_copy,
    two_names_of_the_lists,
    womans_name,
)
from athar.matching.linkage.engine import DUCKDB_MEMORY_LIMIT, make_db_api, register
from athar.matching.linkage.incremental import tf_columns
from athar.matching.linkage.model import (
    TF_MIN_ROWS,
    LinkageModel,
    build_settings,
    default_model,
    effective_parameters,
    model_from_splink,
)
from athar.matching.linkage.prepare import nisba_of, prepare_reports
from athar.matching.linkage.readings import (
    READING_NOTE,
    TWO_READINGS_NOTE,
    base_id,
    collapse,
    penalise,
    with_readings,
)
from athar.matching.linkage.settings import REVIEW_BAND, REVIEW_PER_REPORT, SAME_CONSONANTS, training_rules

KEY_COLUMNS = [
    "first_blk", "father_blk", "grandfather_blk", "family_blk", "mother_blk", "birth_year",
    "first_cblk", "father_cblk", "family_cblk", "first_dblk", "father_dblk", "family_dblk",
    "first_c1", "father_c1", "family_c1", "governorate_id", "city_key", "town_blk", "birth_place_key", "arrest_year", "sex",
    "agency_id",
]
logging.getLogger("splink").setLevel(logging.WARNING)
COMPARISON_NAMES = {
    "first_name": "first name", "father_name": "father's name", "grandfather_name": "grandfather's name",
    "ancestor_name": "great-grandfather's name",
    "family_name": "family name", "mother_name": "mother's first name",
    "mother_family_name": "mother's family name", "birth_year": "birth year", "sex": "sex",
    "governorate_id": "governorate", "city_key": "city", "birth_place_key": "birth place",
    "arrest_date": "arrest date", "agency_id": "arresting agency",
}


@dataclass
class LinkageResult:
    """Everything a linkage run produced.

    pairs     one row per scored pair above the review floor: unique_id_l, unique_id_r,
              match_probability, match_weight, decision ('' or the reviewer's), status
              ('linked', 'review', 'not linked', 'cut by decision', 'split'), split (why a
              constraint kept the pair apart, constraints.py), gamma_*/bf_* columns
              and, when asked, an ``explanation``
    clusters  unique_id → cluster_id (every input report, singletons included)
    review    the pairs in the unsure band that no reviewer has decided yet, and the pairs a
              constraint kept apart (status 'split', reason in ``split``): one per two persons
              (the strongest), none inside one person (review_queue)
    conflicts reviewer decisions that contradict each other
    """

    pairs: pd.DataFrame
    clusters: pd.DataFrame
    review: pd.DataFrame
    conflicts: list[str] = field(default_factory=list)
    threshold: float = 0.9
    review_band: tuple[float, float] = REVIEW_BAND
    model: LinkageModel | None = None

    def cluster_ids(self, ids: list[str] | pd.Series) -> list[str]:
        """Cluster id of each report id, in the given order."""
        lookup = dict(zip(self.clusters["unique_id"], self.clusters["cluster_id"]))
        return [lookup[str(i)] for i in ids]


def _populated(prepared: pd.DataFrame) -> set[str]:
    return {c for c in KEY_COLUMNS if c in prepared.columns and prepared[c].notna().any()}


def _linker(prepared: pd.DataFrame, model: LinkageModel | None, engine: str, spark: Any, retain: bool,
            memory_limit: str = DUCKDB_MEMORY_LIMIT, reports: pd.DataFrame | None = None) -> Linker:
    """A Splink linker over ``prepared``; when it holds second readings (readings.py), ``reports``
    is the table of the reports themselves: its size sets the prior, and its names the term
    frequencies (a shadow row must not count a name twice)."""
    reports = prepared if reports is None else reports
    db_api, dialect = make_db_api(engine, spark, memory_limit)
    settings = build_settings(_populated(prepared), dialect, model, retain=retain, n_rows=len(reports))
    table = register(db_api, engine, prepared, "reports")
    linker = Linker(table, settings, log_level=None)
    if len(reports) != len(prepared) and len(reports) >= TF_MIN_ROWS:
        for col in tf_columns():
            if col in reports.columns:
                linker.table_management.register_term_frequency_lookup(
                    register(db_api, engine, _tf_table(reports, col), f"tf_lookup_{col}"), col)
    return linker


def _tf_table(reports: pd.DataFrame, col: str) -> pd.DataFrame:
    """Splink's term-frequency lookup of one column: each value's share of the non-null values."""
    counts = reports[col].dropna().value_counts()
    return pd.DataFrame({col: counts.index, f"tf_{col}": (counts / counts.sum()).to_numpy()})


def level_weights(model: LinkageModel) -> dict[str, list[tuple[float, str]]]:
    """comparison → [(match weight log2(m/u), level label)] of its non-null levels."""
    out: dict[str, list[tuple[float, str]]] = {}
    for comp, levels in effective_parameters(model).items():
        out[comp] = [(math.log2(v["m"] / v["u"]), label) for label, v in levels.items()
                     if v["m"] and v["u"]]
    return out


def add_levels(pairs: pd.DataFrame, model: LinkageModel) -> pd.DataFrame:
    """Add ``level_<comparison>`` columns, read back from each comparison's match weight
    (Splink 5 returns weights, not levels; each level of a comparison has its own weight)."""
    for comp, levels in level_weights(model).items():
        col = f"mw_{comp}"
        if col not in pairs.columns or not levels:
            continue
        weights = np.array([w for w, _ in levels])
        names = np.array([lab for _, lab in levels] + ["missing"], dtype=object)
        mw = pairs[col].to_numpy(dtype=float)
        nearest = np.abs(mw[:, None] - weights[None, :]).argmin(axis=1)
        exact = np.isclose(mw, weights[nearest], atol=1e-6)
        pairs[f"level_{comp}"] = names[np.where(exact, nearest, len(levels))]
    return pairs


def link_reports(
    reports: pd.DataFrame | list[dict],
    *,
    model: LinkageModel | None = None,
    engine: str = "duckdb",
    threshold: float = 0.9,
    review_band: tuple[float, float] = REVIEW_BAND,
    decisions: Any = None,
    explain: bool | None = None,
    spark: Any = None,
    prepared: pd.DataFrame | None = None,
    memory_limit: str = DUCKDB_MEMORY_LIMIT,
) -> LinkageResult:
    """Score candidate pairs of reports, apply reviewer decisions and cluster into persons.

    ``decisions``: Decision objects, dicts or (id_l, id_r, 'same'|'different'|'unsure').
    ``explain``: add a readable explanation per pair (default: when under 200,000 pairs).
    ``memory_limit``: DuckDB's (the caller's configuration, ATHAR_DUCKDB_MEMORY_LIMIT).
    """
    model = model or default_model()
    table = prepared if prepared is not None else prepare_reports(reports)
    model = measure_u(model, table, engine, spark, memory_limit)
    scored = with_readings(table)  # a second reading of "Muhammad X" names (readings.py)
    linker = _linker(scored, model, engine, spark, retain=True, memory_limit=memory_limit, reports=table)
    floor = min(review_band[0], threshold)
    # Pairs a slip (weigh_slips) may lift above the floor are fetched too, then dropped if not lifted.
    pairs = linker.inference.predict(threshold_match_probability=_below(floor, SLIP_MARGIN_BITS)).as_pandas_dataframe()
    constraints = Constraints(scored)
    pairs = add_levels(_tidy_pairs(pairs), model)
    pairs = weigh_pairs(pairs, constraints.facts)
    pairs = pairs[pairs["match_probability"] >= floor].reset_index(drop=True)
    pairs = collapse(apply_guards(pairs, review_band[0], threshold))
    pairs = lift_only_candidates(pairs, floor, threshold)
    decided = normalise_decisions(decisions)
    pairs = _apply_decisions(pairs, decided)
    outcome = cluster_pairs(table["unique_id"], pairs, threshold, decided, constraints)
    pairs = _status(pairs, outcome.cut_edges, threshold, review_band)
    pairs = _mark_splits(pairs, outcome.split_edges)
    if explain if explain is not None else len(pairs) < 200_000:
        pairs["explanation"] = explain_pairs(pairs)
    clusters = pd.DataFrame({"unique_id": list(outcome.cluster_of), "cluster_id": list(outcome.cluster_of.values())})
    clusters = clusters[clusters["unique_id"].isin(set(table["unique_id"]))].reset_index(drop=True)
    review = review_queue(pairs, outcome.cluster_of)
    return LinkageResult(pairs, clusters, review, outcome.conflicts, threshold, review_band, model)


# u (how often two *different* people agree at a level) depends on the names of the data at
# hand: in a store of varied names two different people are seldom "one consonant apart",
# among Syrian names (the training data: Zipf-weighted, ~100 family names) they often are.
# Like the term-frequency adjustments, u is measured on the table itself by random sampling
# (unlabelled, fixed seed) once it holds TF_MIN_ROWS reports; m and λ stay the model's. A
# level seen fewer than U_MIN_COUNT times among the sampled pairs keeps the model's u.
U_SAMPLE_PAIRS = 1e6
U_SAMPLE_SEED = 42
U_MIN_COUNT = 5


# (issue 28, tenth session) Below TF_MIN_ROWS the table's own u is not trusted for agreement (in a
# few hundred reports the pairs of one person are a visible share of all pairs), but the model's u of
# the *fuzzy* name levels comes from Syrian training names, nearly all in the variants table, where
# "two consonants apart (names not in the variants table)" almost never happens between strangers
# (u = 0.0002): on a small table of other names it weighed as much as the same name (+4.7 bits), and
# Sali Obeida … Riess / Suhail Canaan Hanni Riess, two persons, waited for review at p 0.59 like a
# person's two spellings. From U_SMALL_MIN_ROWS reports on, that level's u measured on the table
# replaces the model's when it is larger (it only ever weighs less). The other fuzzy levels keep the
# model's u: raised alike, "one consonant apart" (how 14 % of one name's two scripts differ) cost
# real_cross recall 0.9225 → 0.8625 at the same precision.
U_SMALL_MIN_ROWS = 200
SMALL_TABLE_U = ("two consonants apart (names not in the variants table)",)


def measure_u(model: LinkageModel, table: pd.DataFrame, engine: str = "duckdb", spark: Any = None,
              memory_limit: str = DUCKDB_MEMORY_LIMIT) -> LinkageModel:
    """The model with u measured on ``table`` (random pairs): every level from TF_MIN_ROWS reports on;
    from U_SMALL_MIN_ROWS, only the levels of SMALL_TABLE_U, and only upwards; unchanged below."""
    n = len(table)
    if n < U_SMALL_MIN_ROWS:
        return model
    small = n < TF_MIN_ROWS
    linker = _linker(table, model, engine, spark, retain=False, memory_limit=memory_limit)
    linker.training.estimate_u_using_random_sampling(max_pairs=U_SAMPLE_PAIRS, seed=U_SAMPLE_SEED,
                                                     min_count_per_level=None, num_chunks=1)
    saved = linker.misc.save_model_to_json()
    sampled = min(U_SAMPLE_PAIRS, n * (n - 1) / 2)
    params = {comp: {label: dict(v) for label, v in levels.items()} for comp, levels in model.parameters.items()}
    for comp in saved["comparisons"]:
        levels = params.get(comp["output_column_name"], {})
        for level in comp["comparison_levels"]:
            u, label = level.get("u_probability"), level.get("label_for_charts")
            if level.get("is_null_level") or label not in levels or not isinstance(u, (int, float)):
                continue
            if u * sampled < U_MIN_COUNT:
                continue
            if small and (label not in SMALL_TABLE_U or u <= (levels[label]["u"] or 0.0)):
                continue
            levels[label]["u"] = float(f"{u:.9g}")
    what = "u of the small-table levels raised" if small else "u measured"
    return LinkageModel(model.algorithm, model.version, model.probability_two_random_records_match, params,
                        f"{model.trained_on}; {what} on the {n} reports linked", model.splink_version,
                        model.trained_rows)


def review_queue(pairs: pd.DataFrame, cluster_of: dict[str, str],
                 per_report: int = REVIEW_PER_REPORT) -> pd.DataFrame:
    """The pairs to offer reviewers: one per two persons, the strongest (status 'review' or 'split'),
    and for each report its ``per_report`` strongest at most (settings.REVIEW_PER_REPORT).

    A reviewer's "same" on any pair of two clusters joins the two, so the other pairs across them
    ask the same question again; a pair whose reports the run put in one person asks nothing."""
    review = pairs[pairs["status"].isin(["review", "split"])]
    if review.empty:
        return review.reset_index(drop=True)
    left = review["unique_id_l"].map(cluster_of)
    right = review["unique_id_r"].map(cluster_of)
    review = review[left != right]
    key = [tuple(sorted(k)) for k in zip(left[left != right], right[left != right])]
    review = review.assign(_persons=key).sort_values(
        ["match_probability", "unique_id_l", "unique_id_r"], ascending=[False, True, True], kind="stable")
    review = review.drop_duplicates("_persons").drop(columns="_persons")
    return review[strongest_per_report(review, per_report)].reset_index(drop=True)


def strongest_per_report(review: pd.DataFrame, per_report: int) -> pd.Series:
    """Of pairs sorted strongest first, those among the ``per_report`` strongest of both their reports."""
    position = np.arange(len(review))
    both = pd.DataFrame({"report": np.concatenate([review["unique_id_l"].to_numpy(), review["unique_id_r"].to_numpy()]),
                         "position": np.concatenate([position, position])}).sort_values("position", kind="stable")
    both["rank"] = both.groupby("report", sort=False).cumcount()
    worst = both.groupby("position")["rank"].max().reindex(position).to_numpy()
    return pd.Series(worst < per_report, index=review.index)


def _tidy_pairs(pairs: pd.DataFrame) -> pd.DataFrame:
    pairs = pairs.copy()
    pairs["unique_id_l"] = pairs["unique_id_l"].astype(str)
    pairs["unique_id_r"] = pairs["unique_id_r"].astype(str)
    keep = ["unique_id_l", "unique_id_r", "match_probability", "match_weight", "match_key"]
    keep += [c for c in pairs.columns if c.startswith("mw_")]
    return pairs[[c for c in keep if c in pairs.columns]].reset_index(drop=True)


# A slip of one report weighs as what it is (issue 28): a father's or mother's name cut short or
# mistyped on one report ("عبد" for عبد الرحمن, "ممد" for محمد) is a corrupted copy of a shared name,
# not a different name: its comparison counts as absent (weight 0) instead of "different" (−6 bits,
# and the father's-name guard). A sex that contradicts the same first name on the other report
# (a brother and a sister never share a given name) counts as absent too. The level is renamed
# so that the explanation says why. An own given name counts as absent only when it is a garbled
# copy of the other's: a string no list knows, one letter dropped or two swapped from a name of the
# variants table (عي / علي, constraints.garbled_name); two real names stay "different".
SLIP_LEVEL = "slipped copy (cut short or mistyped): not counted"
# (twenty-seventh session) A pet name against a name it may stand for (حمودة / محمد, علوش / علي:
# names/data/nicknames.yaml) says nothing either way: حمودة may be Muhammad, Mahmud or Ahmad, so it
# weighs as absent — neither the consonants it shares with one of them nor "different" — and the
# rest of the pair decides (constraints.nickname_of).
NICKNAME_LEVEL = "a pet name of the other's given name (حمودة for محمد): not compared"
SLIP_PARTS = {"father_name": 1, "mother_name": 2}
SLIP_MARGIN_BITS = 7.0  # the largest weight a slip neutralises (father's name "different": −6.4)


def _below(probability: float, bits: float) -> float:
    """The probability whose match weight is ``bits`` lower."""
    weight = log2_odds(probability) - bits
    return 1.0 / (1.0 + 2.0 ** -weight)  # comparison → index in ReportFacts.names


# A pair's places are one fact written three ways (town, governorate, birth place), and the model adds
# its comparisons as if they were independent: a man displaced from Talbiseh to Idlib is reported in
# another town *and* another governorate, counted twice (−5.1 and −5.5 bits) against the same name
# and arrest date, and two namesakes of one town were "same town" and "same governorate" (+5.0, +3.2).
# Now the places count once each way: their most negative weight and their most positive one (issue
# 28, eighth session; the independent set's displaced persons and same-town namesakes).
PLACE_COMPARISONS = ("city_key", "governorate_id", "birth_place_key")
PLACE_NOTE = "places: counted once (town, governorate, birth place)"


def shift_weights(pairs: pd.DataFrame, delta: np.ndarray) -> pd.DataFrame:
    """``pairs`` with ``delta`` bits added to their match weights, the probabilities following."""
    changed = delta != 0
    if changed.any():
        weight = pairs["match_weight"].to_numpy(dtype=float) + delta
        pairs["match_weight"] = weight
        pairs.loc[changed, "match_probability"] = 1.0 / (1.0 + np.power(2.0, -weight[changed]))
    return pairs


# (issue 28, thirteenth session) Two arrest dates of one year whose months are both given and three or
# more apart land on the model's "same year" level, with the dates of which one report gives the
# year only — but they are not the same evidence. On the data the model was trained on
# (generate_reports(30000, seed=123); 2e6 random pairs, seed 42) they are 1.95 % of the level's true
# pairs and 44.5 % of its random pairs; no true pair of the Syrian dev sets (fresh, independent,
# phenomena, slips) has them. Namesakes of one town arrested in one year are what they look like
# (issue 28's fresh set: the most frequent false link). Such a pair is weighed as its own level:
# m at least a slip's (model.FACT_SLIP_M = 0.02 against the level's m 0.447: −4.48 bits) and u
# its share of the level's (+1.17 bits): −3.3 bits, the level then named so in the explanation. The
# trained level's weight for a year given alone is left as it is: splitting the level in the model
# (u measured apart) made that weight rise (+1.5 → +3.3 bits) and the fresh set lose precision
# (0.9826 → 0.9811: namesakes of one town, one of them with a year only).
MONTHS_APART = "same year, months apart"
MONTHS_APART_BITS = -3.3
MONTHS_APART_MIN = 3


def weigh_pairs(pairs: pd.DataFrame, facts: dict[str, ReportFacts]) -> pd.DataFrame:
    """What the run and the worker (incremental.py) weigh after the model, in this order: slips,
    kunyas, a family name that is the other's father's name, a woman's two family names, a family name
    that is a place's nisba, Latin vowels, arrest months apart, the places counted once, the second
    readings' cost."""
    pairs = weigh_father_as_family(weigh_kunya(weigh_slips(pairs, facts), facts), facts)
    pairs = weigh_place_family(weigh_married_name(pairs, facts), facts)
    pairs = real_names_apart(latin_vowels_apart(pairs, facts), facts)
    return penalise(one_place(weigh_months_apart(pairs, facts), facts))


# (twenty-second session) A name of two words is often a given and a father's name, not a given and a
# family name: OFAC's aliases of one man, born the same year in one place, write "HABIB, Ali" and
# "MAHMOUD, Ali Habib" (Ali son of Habib, of the Mahmoud family), "KARIM, Ali Abdul" and "KARIM ALI, Ali
# Abdul" (Ali son of Abd al-Karim, of the Ali family). When one report names no father and its family
# name is the other's father's name, the two family names are no names to compare (its weight goes,
# its level says so); the rest of the pair decides.
FATHER_AS_FAMILY_LEVEL = "one report's family name is the other's father's name (a given and a father's name): not compared"


def _father_is_family(one: ReportFacts | None, other: ReportFacts | None) -> bool:
    """``one`` names no father, and its family name is ``other``'s father's name, ``other`` having a
    family name of its own (spelled alike: the same id or cross-script key)."""
    if one is None or other is None or one.names[1] is not None or other.family is None:
        return False
    family, father = one.family, other.names[1]
    if family is None or father is None:
        return False
    return family.text == father.text or (len(family.block) >= 2 and family.block == father.block)


def weigh_father_as_family(pairs: pd.DataFrame, facts: dict[str, ReportFacts]) -> pd.DataFrame:
    """Family names 'different' of which one is the other report's father's name, the first report
    naming no father (:func:`_father_is_family`): not compared (FATHER_AS_FAMILY_LEVEL)."""
    col = "level_family_name"
    if pairs.empty or col not in pairs.columns or "mw_family_name" not in pairs.columns:
        return pairs
    marked = _marked_by_facts(pairs, facts, pairs[col].eq("different").to_numpy(),
                              lambda a, b: _father_is_family(a, b) or _father_is_family(b, a))
    return shift_weights(pairs, _family_not_compared(pairs, marked, FATHER_AS_FAMILY_LEVEL))


def _marked_by_facts(pairs: pd.DataFrame, facts: dict[str, ReportFacts], among: np.ndarray,
                     test: Callable[[ReportFacts | None, ReportFacts | None], bool]) -> np.ndarray:
    """Of the pairs ``among``, those whose two reports' facts pass ``test`` (left, right). A second
    reading's row is read with its own names (its facts), else its report's. Only those pairs are
    read, one by one: a run at a million reports scores millions."""
    out = np.zeros(len(pairs), dtype=bool)
    rows = np.flatnonzero(among)
    ids = pairs[["unique_id_l", "unique_id_r"]].astype(str).to_numpy()[rows]
    for i, (left_id, right_id) in zip(rows, ids):
        out[i] = test(facts.get(left_id) or facts.get(base_id(left_id)),
                      facts.get(right_id) or facts.get(base_id(right_id)))
    return out


# (twenty-third session) A woman is written under her father's family and, in some lists, her
# husband's: OFAC lists "AL-ASSAD, Asma" and "AKHRAS, Asma" (born 1975 in Acton), and (since the
# twenty-fourth session, constraints.womans_name reading Manal as a woman's name by its consonants)
# "AL-ASSAD, Manal" and "AL-AHMAD, Manal" (born 1970 in Damascus). Two reports of one woman's given
# name, born the very same year in one town, whose family names differ: the family names are not
# compared (their weight goes, the level says so) and the rest of the pair decides. Sisters share the
# family name and have two given names; two women of one name, one year and one town under two families
# are what it risks (field lists P 0.9818 -> 0.9810 when the year and the town were not asked).
MARRIED_NAME_LEVEL = "a woman's family names (her father's and her husband's may both be written), one given name, year and town: not compared"


def weigh_married_name(pairs: pd.DataFrame, facts: dict[str, ReportFacts]) -> pd.DataFrame:
    """Family names 'different' of two reports of one woman's given name (``_one_woman``): not
    compared (MARRIED_NAME_LEVEL)."""
    col = "level_family_name"
    if pairs.empty or col not in pairs.columns or "mw_family_name" not in pairs.columns:
        return pairs
    first = pairs["level_first_name"] if "level_first_name" in pairs.columns else pd.Series("", index=pairs.index)
    marked = _marked_by_facts(pairs, facts, (pairs[col].eq("different") & first.isin(AGREE)).to_numpy(), _one_woman)
    return shift_weights(pairs, _family_not_compared(pairs, marked, MARRIED_NAME_LEVEL))


def _one_woman(left: ReportFacts | None, right: ReportFacts | None) -> bool:
    """Both born the same stated year, in one town (``_one_town``), and named by a woman's given name:
    both said to be women, or neither said to be a man and the name one of the lists' women's names."""
    if left is None or right is None or left.names[0] is None or right.names[0] is None:
        return False
    if left.birth_year is None or left.birth_year != right.birth_year or not _one_town(left, right):
        return False
    if left.sex == "F" and right.sex == "F":
        return True
    return left.sex != "M" and right.sex != "M" and womans_name(left.names[0]) and womans_name(right.names[0])


def _one_town(left: ReportFacts, right: ReportFacts) -> bool:
    """Both reports state a town or a birth place, and one of the first's is one of the second's."""
    mine = {t for t in (left.city, left.birth_town) if t}
    return bool(mine & {t for t in (right.city, right.birth_town) if t})


def _family_not_compared(pairs: pd.DataFrame, marked: np.ndarray, level: str) -> np.ndarray:
    """Take the family names' weight out of the ``marked`` pairs and write why at their level; the
    change of each pair's match weight (for shift_weights)."""
    delta = np.zeros(len(pairs))
    if marked.any():
        delta[marked] = -pairs["mw_family_name"].to_numpy(dtype=float)[marked]
        pairs.loc[marked, "mw_family_name"] = 0.0
        pairs.loc[marked, "level_family_name"] = level
    return delta


# (twentieth session) A family name that is the nisba of the report's own place ("بلال محمد الإدلبي"
# of Idlib, "سامر البرزاوي" of Barzeh: prepare.place_nisba) may say where the man is from rather than
# his family: against another family name it is no name to compare (its weight goes, its level says
# so). Without the very same given name and a father's or mother's name agreeing, the pair is offered
# for review, never linked (PLACE_FAMILY_NOTE): a given name and a town are what namesakes of one town
# share.
PLACE_FAMILY_LEVEL = "the family name is the nisba of the report's own place: not compared"
# (twenty-third session) the same, of a report that states no town, against the other's town
OTHER_TOWN_LEVEL = "the family name of a report naming no town is the nisba of the other's town: not compared"
PLACE_FAMILY_NOTE = "a family name that may be the place's nisba, and not the same given and father's or mother's name: to review"


def weigh_place_family(pairs: pd.DataFrame, facts: dict[str, ReportFacts]) -> pd.DataFrame:
    """Family names not agreeing of which one is the nisba of its report's own place: not compared;
    ``place_family`` marks them for the guard (apply_guards)."""
    marked = np.zeros(len(pairs), dtype=bool)
    col = "level_family_name"
    if pairs.empty or col not in pairs.columns or "mw_family_name" not in pairs.columns:
        return pairs.assign(place_family=marked)
    left, right = _pair_facts(pairs, facts, "family_place")
    own = (left.eq(True) | right.eq(True)).to_numpy()
    kunya_l, kunya_r = _pair_facts(pairs, facts, "kunya")  # "أبو عبد الله البرزاوي": which son of Barzeh?
    apart = (~(kunya_l.eq(True) | kunya_r.eq(True))
             & ~pairs[col].isin([*AGREE, SLIP_LEVEL]) & pairs[col].notna() & pairs[col].ne("")).to_numpy()
    other = _marked_by_facts(pairs, facts, apart & ~own, lambda a, b: _nisba_of_town(a, b) or _nisba_of_town(b, a))
    marked = (own | other) & apart
    delta = _family_not_compared(pairs, marked & own, PLACE_FAMILY_LEVEL)
    delta += _family_not_compared(pairs, marked & ~own, OTHER_TOWN_LEVEL)
    return shift_weights(pairs.assign(place_family=marked, place_family_bits=delta), delta)


def _nisba_of_town(named: ReportFacts | None, other: ReportFacts | None) -> bool:
    """``named`` states no town and its family name is the nisba of ``other``'s town or birth place
    (prepare.town_skeletons): "ياسر الداراني" of a witness, who names no town, and Yasir of Daraya
    (twenty-third session; a report of its own town is read by ``family_place``)."""
    if named is None or other is None or named.city is not None or named.family is None or not other.towns:
        return False
    return nisba_of(named.family.skeleton, named.family.text, other.towns)


# (twentieth session) Two given names written in Latin letters whose consonants agree and whose
# vowels do not (Samir / Samer, Salah / Saleh) are two names of the table (سمير / سامر), but a Latin
# vowel is the writer's: OFAC's aliases of one man, born the same year in one place, write "FOZ,
# Samir" and "FOZ, Samer". Brothers born in one year are rare; such a pair, born the very same year,
# is offered for review instead of the guard's cap (which keeps it out of the queue). Never linked.
LATIN_VOWELS_NOTE = "given names in Latin letters differ by their vowels only, born the same year: to review"


def latin_vowels_apart(pairs: pd.DataFrame, facts: dict[str, ReportFacts]) -> pd.DataFrame:
    """``latin_vowels``: the given names are 'different', both in Latin letters with one consonant
    skeleton (two consonants or more), and both reports state the very same birth year."""
    marked = np.zeros(len(pairs), dtype=bool)
    if not pairs.empty and "level_first_name" in pairs.columns:
        for i in np.flatnonzero((pairs["level_first_name"] == "different").to_numpy()):
            fa, fb = facts.get(pairs.at[i, "unique_id_l"]), facts.get(pairs.at[i, "unique_id_r"])
            if fa is None or fb is None or fa.birth_year is None or fa.birth_year != fb.birth_year:
                continue
            a, b = fa.names[0], fb.names[0]
            marked[i] = (a is not None and b is not None and not a.rasm and not b.rasm
                         and len(a.skeleton) >= 2 and a.skeleton == b.skeleton)
    return pairs.assign(latin_vowels=marked)


# (thirtieth session) Two given names that are two names of the lists (two ids) yet close in letters
# — a long vowel added or dropped, two neighbours swapped, one skeleton: عمار / عامر, AMMAR / عامر,
# هشام / هاشم — pass the spelling rules, since a copy of one name slips that way too
# (constraints._two_real_names_in_letters). Such a slip is one slip; brothers of one household, whose
# father, family, town and often arrest are one, differ by their names and their births. A pair whose
# given names are two such names and whose reports both state a birth year, not the same one, is
# offered for review, not linked: the brothers Ammar (1980) and Amer (1982) Hussein al-Masri, arrested
# together, were one person on written_kinds_3. Born the same year, or a year not stated, the pair is
# the model's to weigh.
REAL_NAMES_NOTE = "given names of two different names close in letters, born in different years (brothers?): to review"
BORN_APART = ("one year apart", "two years apart", "more than two years apart")  # the model's birth-year levels


def _two_names_born_apart(a: ReportFacts | None, b: ReportFacts | None) -> bool:
    """Both reports state a birth year, not the same, and their given names are two names of the
    lists (:func:`constraints.two_names_of_the_lists`) that the spelling rules let meet (two names
    they hold apart, وسيم / باسم, are the constraints' to keep apart, with the constraints' reason)."""
    if a is None or b is None or a.birth_year is None or b.birth_year is None or a.birth_year == b.birth_year:
        return False
    return two_names_of_the_lists(a.names[0], b.names[0]) and names_agree(a.names[0], b.names[0])


def real_names_apart(pairs: pd.DataFrame, facts: dict[str, ReportFacts]) -> pd.DataFrame:
    """``real_names``: the given names agree (a level of REAL_NAME_LEVELS) though they are two names of
    the lists, and the births differ (:func:`_two_names_born_apart`); the guard offers them for review.
    Only pairs whose birth-year level is one of BORN_APART are read one by one (a full run scores
    millions of pairs, most of them born the same year or with a year missing)."""
    col = "level_first_name"
    if pairs.empty or col not in pairs.columns:
        return pairs.assign(real_names=False)
    among = pairs[col].isin(REAL_NAME_LEVELS)
    if "level_birth_year" in pairs.columns:
        among &= pairs["level_birth_year"].isin(BORN_APART)
    return pairs.assign(real_names=_marked_by_facts(pairs, facts, among.to_numpy(), _two_names_born_apart))


KUNYA_LEVEL = "a kunya against a given name: not compared"


def weigh_kunya(pairs: pd.DataFrame, facts: dict[str, ReportFacts]) -> pd.DataFrame:
    """Pairs of which one report names the man by a kunya and no given name, the other by a given
    name (prepare.kunya_first): the two are no names to compare (the first name's weight goes, its
    level says so), and ``kunya`` marks the pair for the guard's cap (apply_guards: to review)."""
    if pairs.empty:
        return pairs.assign(kunya=np.zeros(0, dtype=bool))
    left, right = _pair_facts(pairs, facts, "kunya")
    kunya = (left.notna() & right.notna() & (left != right)).to_numpy()
    delta = np.zeros(len(pairs))
    if kunya.any() and "mw_first_name" in pairs.columns:
        weights = np.nan_to_num(pairs["mw_first_name"].to_numpy(dtype=float))
        delta[kunya] = -weights[kunya]
        pairs.loc[kunya, "mw_first_name"] = 0.0
        if "level_first_name" in pairs.columns:
            pairs.loc[kunya, "level_first_name"] = KUNYA_LEVEL
    return shift_weights(pairs.assign(kunya=kunya), delta)


def weigh_months_apart(pairs: pd.DataFrame, facts: dict[str, ReportFacts]) -> pd.DataFrame:
    """Pairs at the arrest date's "same year" level whose two months are given and ``MONTHS_APART_MIN``
    or more apart weigh ``MONTHS_APART_BITS`` less, at the level ``MONTHS_APART``."""
    col = "level_arrest_date"
    if pairs.empty or col not in pairs.columns:
        return pairs
    delta = np.zeros(len(pairs))
    for i in np.flatnonzero((pairs[col] == "same year").to_numpy()):
        fa, fb = facts.get(pairs.at[i, "unique_id_l"]), facts.get(pairs.at[i, "unique_id_r"])
        if fa and fb and fa.arrest_ym is not None and fb.arrest_ym is not None \
                and abs(fa.arrest_ym - fb.arrest_ym) >= MONTHS_APART_MIN:
            delta[i] = MONTHS_APART_BITS
    apart = delta != 0
    if apart.any():
        pairs.loc[apart, col] = MONTHS_APART
        pairs.loc[apart, "mw_arrest_date"] = pairs.loc[apart, "mw_arrest_date"] + MONTHS_APART_BITS
    return shift_weights(pairs, delta)


# (issue 28, nineteenth session) Rosters and court lists write where a man was born and no town; the
# families' and the activists' lists write his town and no birth place. Compared column by column,
# "البكور حسن بن محمد, born in Baba Amr" and "حسن البكور, Baba Amr" had no place in common (issue 28's
# field lists, written from a fresh description). Most detainees were taken where they were born, so
# one report's birth place that is the other's town counts for the pair, with the places (counted
# once: nothing when a town or birth place already agrees). Only as agreement: a man born in
# Talbiseh and reported from Homs is no contradiction (the independent set's displaced persons: read
# as a town, the birth place's "town: different" cost it recall). BORN_THERE_BITS is below the
# model's "town: same" (+6.1 bits before term frequencies): a birth place is the town of most, not all.
BORN_THERE_BITS = 4.0
BORN_THERE_NOTE = "places: one report's birth place is the other's town"


def born_there(pairs: pd.DataFrame, facts: dict[str, ReportFacts]) -> np.ndarray:
    """BORN_THERE_BITS for each pair of which one report's birth place is the other's town."""
    if pairs.empty or not facts:
        return np.zeros(len(pairs))
    born_l, born_r = _pair_facts(pairs, facts, "birth_town")
    town_l, town_r = _pair_facts(pairs, facts, "city")
    there = (born_l.notna() & (born_l == town_r)) | (born_r.notna() & (born_r == town_l))
    return np.where(there.to_numpy(), BORN_THERE_BITS, 0.0)


def _pair_facts(pairs: pd.DataFrame, facts: dict[str, ReportFacts], fact: str) -> tuple[pd.Series, pd.Series]:
    """One fact of each side's report (a second reading's row reads its report's), NaN where unknown:
    one lookup table per call, mapped over the pairs column by column (a run scores millions of pairs)."""
    values = {uid: getattr(f, fact) for uid, f in facts.items()}
    left, right = (pairs[side].map(base_id).map(values) for side in ("unique_id_l", "unique_id_r"))
    return left, right


def one_place(pairs: pd.DataFrame, facts: dict[str, ReportFacts] | None = None) -> pd.DataFrame:
    """Of the places' weights (term frequencies included) only the most negative and the most
    positive count — a birth place that is the other report's town (``born_there``) among the
    positive; ``place_adjust`` keeps the change, and match weight and probability follow."""
    cols = [f"mw_{c}" for c in PLACE_COMPARISONS if f"mw_{c}" in pairs.columns]
    if pairs.empty or len(cols) < 2:
        pairs["place_adjust"] = 0.0
        return pairs
    w = np.nan_to_num(pairs[cols].to_numpy(dtype=float))
    for j, c in enumerate(cols):
        tf = c.replace("mw_", "mw_tf_adj_")
        if tf in pairs.columns:
            w[:, j] += np.nan_to_num(pairs[tf].to_numpy(dtype=float))
    neg, pos = np.minimum(w, 0.0), np.maximum(w, 0.0)
    # what the model added (every place) against what counts (the most negative, the most positive)
    born = born_there(pairs, facts) if facts else np.zeros(len(pairs))
    best = np.maximum(pos.max(axis=1), born)
    delta = (neg.min(axis=1) - neg.sum(axis=1)) + (best - pos.sum(axis=1))
    pairs["place_adjust"] = delta
    pairs["born_there"] = born > pos.max(axis=1)
    return shift_weights(pairs, delta)


def weigh_slips(pairs: pd.DataFrame, facts: dict[str, ReportFacts]) -> pd.DataFrame:
    """Neutralise the 'different' level of a slipped copy of a shared name, and of a sex that
    contradicts the same given name; match weight and probability follow."""
    if pairs.empty:
        return pairs
    delta = np.zeros(len(pairs))
    for comp, index in [*SLIP_PARTS.items(), ("first_name", 0), ("sex", -1)]:
        col = f"level_{comp}"
        if col not in pairs.columns:
            continue
        # a garbled own given name weighs nothing at whatever level it landed ("one consonant apart"
        # would otherwise read as a sibling's name: _sibling_like)
        levels = ("different", *FUZZY_GIVEN) if index == 0 else ("different",)
        rows = np.flatnonzero(pairs[col].isin(levels).to_numpy())
        for i in rows:
            fa, fb = facts.get(pairs.at[i, "unique_id_l"]), facts.get(pairs.at[i, "unique_id_r"])
            if fa is None or fb is None:
                continue
            slip = (one_given_name(fa.names[0], fb.names[0]) if index < 0
                    else garbled_name(fa.names[0], fb.names[0], keyboard=pairs.at[i, col] == "different") if index == 0
                    else slipped_copy(fa.names[index], fb.names[index]))
            nickname = index == 0 and not slip and nickname_of(fa.names[0], fb.names[0])
            if slip or nickname:
                delta[i] -= float(pairs.at[i, f"mw_{comp}"])
                pairs.at[i, f"mw_{comp}"] = 0.0
                pairs.at[i, col] = NICKNAME_LEVEL if nickname else SLIP_LEVEL
    _excuse_one_slip(pairs, facts)
    _skipped_generations(pairs, facts, delta)
    return shift_weights(pairs, delta)


# (third issue-28 session) A father's name one slip of the pen from the other's (زيد / زياد, عبد /
# عبدالحميد) in a pair whose own given name, family name and mother's name or birth year agree is
# weighed as "different" (its weight stays), but is no reason for the guard's cap: the rest of the
# pair outweighs it, and a brother would have another own name (constraints.one_slip).
ONE_SLIP_LEVEL = "different (one slip of one report: the rest of the pair agrees)"


def _excuse_one_slip(pairs: pd.DataFrame, facts: dict[str, ReportFacts]) -> None:
    col = "level_father_name"
    if col not in pairs.columns:
        return
    for i in np.flatnonzero((pairs[col] == "different").to_numpy()):
        fa, fb = facts.get(pairs.at[i, "unique_id_l"]), facts.get(pairs.at[i, "unique_id_r"])
        if fa is None or fb is None:
            continue
        if [f for f, _ in contradictions(fa, fb)] == ["father"] and one_slip(fa, fb, "father"):
            pairs.at[i, col] = ONE_SLIP_LEVEL


# (twentieth session) One report leaves the father out of the lineage ("Ali Habib" / "Ali Muhammad
# Habib" of one family, born the same year): its father's name is the other's grandfather's
# (constraints.skipped_generation). The two fathers' names are then no names to compare: their
# weight goes, and the pair is neither capped nor kept apart for it.
SKIPPED_LEVEL = "a generation left out (one report's father is the other's grandfather): not compared"


def _skipped_generations(pairs: pd.DataFrame, facts: dict[str, ReportFacts], delta: np.ndarray) -> None:
    col = "level_father_name"
    if col not in pairs.columns:
        return
    for i in np.flatnonzero(pairs[col].isin(["different", ONE_SLIP_LEVEL]).to_numpy()):
        fa, fb = facts.get(pairs.at[i, "unique_id_l"]), facts.get(pairs.at[i, "unique_id_r"])
        if fa is None or fb is None or not skipped_generation(fa, fb):
            continue
        delta[i] -= float(pairs.at[i, "mw_father_name"])
        pairs.at[i, "mw_father_name"] = 0.0
        pairs.at[i, col] = SKIPPED_LEVEL


# Hard rules on top of the model: two reports whose first names (or fathers' names) are
# both given and plainly different describe different people — brothers share everything
# else. The pair keeps its model score in ``model_probability``.
GUARDS = {"first_name": "first names differ (siblings or namesakes?)",
          "father_name": "fathers' names differ (namesakes?)"}
GUARD_CAP = 0.2


def apply_guards(pairs: pd.DataFrame, floor: float, threshold: float = 0.9) -> pd.DataFrame:
    """Cap the probability of pairs whose first or father's names are at the 'different' level
    (at half the review floor, 0.2 at most: kept out of the review queue, where brothers and
    namesakes would crowd it), and of sibling-like pairs, the marks of the weighing steps (Latin
    vowels, two names of the lists born apart, townsfolk, a place's nisba, a kunya, a pet name) among
    them (below the link ``threshold``: to review)."""
    pairs["model_probability"] = pairs["match_probability"]
    guard = pd.Series("", index=pairs.index, dtype=object)
    for comp, note in GUARDS.items():
        col = f"level_{comp}"
        if col in pairs.columns:
            hit = (pairs[col] == "different") & (guard == "")
            guard[hit] = note
    cap = max(floor, min(SIBLING_CAP, threshold - 0.01))
    vowels = _marked(pairs, "latin_vowels") & (guard == GUARDS["first_name"])
    guard[vowels] = LATIN_VOWELS_NOTE
    pairs.loc[vowels, "match_probability"] = pairs.loc[vowels, "match_probability"].clip(upper=cap)
    capped = (guard != "") & ~vowels
    pairs.loc[capped, "match_probability"] = pairs.loc[capped, "match_probability"].clip(upper=min(GUARD_CAP, floor / 2))
    real_names = _marked(pairs, "real_names") & (guard == "")
    guard[real_names] = REAL_NAMES_NOTE
    pairs.loc[real_names, "match_probability"] = pairs.loc[real_names, "match_probability"].clip(upper=cap)
    sibling = _sibling_like(pairs) & (guard == "")
    guard[sibling] = SIBLING_NOTE
    pairs.loc[sibling, "match_probability"] = pairs.loc[sibling, "match_probability"].clip(upper=cap)
    townsfolk = _townsfolk_apart(pairs) & (guard == "")
    guard[townsfolk] = TOWNSFOLK_NOTE
    pairs.loc[townsfolk, "match_probability"] = pairs.loc[townsfolk, "match_probability"].clip(upper=cap)
    place = _marked(pairs, "place_family") & (guard == "") & ~_named_alike(pairs)
    # only what not comparing the family name added is held back: a pair the model linked with the
    # family names weighed against it stays linked (phenomena lost one when every such pair was capped)
    bits = pairs["place_family_bits"] if "place_family_bits" in pairs.columns else pd.Series(0.0, index=pairs.index)
    without = 1.0 / (1.0 + np.power(2.0, -(pairs["match_weight"] - bits)))  # the family names weighed
    place &= pairs["match_probability"] > np.maximum(cap, without)
    guard[place] = PLACE_FAMILY_NOTE
    pairs.loc[place, "match_probability"] = np.maximum(cap, without[place])
    kunya = _marked(pairs, "kunya") & (guard == "")
    guard[kunya] = KUNYA_NOTE
    pairs.loc[kunya, "match_probability"] = pairs.loc[kunya, "match_probability"].clip(upper=cap)
    pet = _pet_name_only(pairs) & (guard == "")
    guard[pet] = NICKNAME_NOTE
    pairs.loc[pet, "match_probability"] = pairs.loc[pet, "match_probability"].clip(upper=cap)
    pairs["guard"] = guard
    return pairs


# A given and a family name and a place are what namesakes of one town share (issue 28, eighteenth
# session): a family name is a clan's in its town and given names are few, so "سعيد عكاري" of دير بعلبة
# is rarer in the country than in the town, and the whole table's term frequencies weigh the
# country's. A pair whose names meet on the given and family name alone (one report gives no
# father's, grandfather's or mother's name), whose places or branch agree, and whose facts of the man
# himself disagree — birth years two or more apart, arrests months or years apart — with none of them
# agreeing, is offered for review, not linked. Measured on the linked pairs of that kind
# (field_lists, written from a fresh description: 8 true / 14 false; fresh seed 21: 3 / 4;
# independent seed 8: 0 / 3; phenomena, our own slips: 25 / 0). Without a disagreeing fact such
# pairs are kept (field_lists 341 true / 76 false, independent 294 / 10): reviewing them all
# would cost the recall of every set with short names.
# (nineteenth session) A report that names the man by a kunya and his family name, no given name
# ("أبو إبراهيم السباعي": prepare.kunya_first) says whose father he is, not who he is: his brothers share
# the family name, the town and often the arrest. Against a report that gives a given name, such a
# pair is offered for review, never linked (weigh_kunya; linked, they merged brothers on field_lists:
# sibling merges 7 -> 11). Two reports of one kunya meet on it as on a name.
KUNYA_NOTE = "a kunya and a family name, no given name (which son of the family?): to review"
# (twenty-seventh session) A pet name is as vague as a kunya about which man of the family it is
# (حمادة may be a Muhammad or an Ahmad; his brother may be the other): against a given name it may
# stand for, the pair is linked only when a father's, grandfather's or mother's name agrees too, and
# is otherwise offered for review (field lists seed 31: "حمادة الجابري" of Atarib, of two men).
NICKNAME_NOTE = "a pet name and a family name, no father's or mother's name agreeing (which man of the family?): to review"
TOWNSFOLK_NOTE = "given and family name and a place only, the man's own facts apart (namesakes of one town?): to review"
OTHER_NAMES = ("level_father_name", "level_grandfather_name", "level_ancestor_name", "level_mother_name",
               "level_mother_family_name")
PERSONAL_AGREE = {"level_birth_year": ("same year", "one year apart"),
                  "level_arrest_date": ("same month", "within two months", "same year")}
PERSONAL_APART = {"level_birth_year": ("two years apart", "more than two years apart"),
                  "level_arrest_date": ("one year apart", "further apart", MONTHS_APART)}
PLACES = ("level_city_key", "level_governorate_id", "level_birth_place_key", "level_agency_id")


def _townsfolk_apart(pairs: pd.DataFrame) -> pd.Series:
    if pairs.empty or "level_first_name" not in pairs.columns or "level_family_name" not in pairs.columns:
        return pd.Series(False, index=pairs.index)
    hit = pairs["level_first_name"].isin(AGREE) & pairs["level_family_name"].isin(AGREE)
    for col in OTHER_NAMES:
        if col in pairs.columns:
            hit &= pairs[col].isna() | (pairs[col] == "missing")
    apart = pd.Series(False, index=pairs.index)
    for col, agreeing in PERSONAL_AGREE.items():
        if col in pairs.columns:
            hit &= ~pairs[col].isin(agreeing)
            apart |= pairs[col].isin(PERSONAL_APART[col])
    placed = pd.Series(False, index=pairs.index)
    for col in PLACES:
        if col in pairs.columns:
            placed |= pairs[col] == "same"
    if "born_there" in pairs.columns:  # one's birth place the other's town (born_there): a place too
        placed |= pairs["born_there"].eq(True)
    return hit & apart & placed


# A different *own* given name with a shared father and mother is what siblings look like (issue 28):
# two given names only alike (a consonant or two apart: Maram / Marwa, Borhane / Barhom, Ines / Buddy)
# under one father's and one mother's name are not enough to link; the pair goes to a reviewer.
FUZZY_GIVEN = ("one consonant apart", "similar consonants (g/j/k, d/t/z, h dropped)",
               "two consonants apart (names not in the variants table)")
AGREE = ("same name", SAME_CONSONANTS)
SIBLING_NOTE = "own given names only alike, father and mother the same (siblings?): to review"
SIBLING_CAP = 0.89  # below the link threshold, above the review floor


def _pet_name_only(pairs: pd.DataFrame) -> pd.Series:
    """Pairs whose given names are a pet name and a name it may stand for (NICKNAME_LEVEL) and whose
    father's, grandfather's and mother's names do not agree (absent, or apart)."""
    if "level_first_name" not in pairs.columns:
        return pd.Series(False, index=pairs.index)
    hit = pairs["level_first_name"].eq(NICKNAME_LEVEL)
    for col in OTHER_NAMES:
        if col in pairs.columns:
            hit &= ~pairs[col].isin([*AGREE, SLIP_LEVEL, ONE_SLIP_LEVEL, SKIPPED_LEVEL])
    return hit


def _marked(pairs: pd.DataFrame, column: str) -> pd.Series:
    """The pairs a weighing step marked in ``column`` (none when the step did not run)."""
    return pairs[column].eq(True) if column in pairs.columns else pd.Series(False, index=pairs.index)


def _named_alike(pairs: pd.DataFrame) -> pd.Series:
    """The very same given name, and the father's or the mother's name agreeing (the same name or
    consonants, or a slipped copy). Consonants alone across scripts are not the very same given name
    (عمر / AAMER: "mr", two men of Homs, one of them of the Homsi family: fresh_syrian seed 22)."""
    if "level_first_name" not in pairs.columns:
        return pd.Series(False, index=pairs.index)
    agree = pd.Series(False, index=pairs.index)
    for col in ("level_father_name", "level_mother_name"):
        if col in pairs.columns:
            agree |= pairs[col].isin([*AGREE, SLIP_LEVEL, ONE_SLIP_LEVEL])
    return agree & pairs["level_first_name"].eq("same name")


def _sibling_like(pairs: pd.DataFrame) -> pd.Series:
    needed = ("level_first_name", "level_father_name", "level_mother_name")
    if pairs.empty or not all(c in pairs.columns for c in needed):
        return pd.Series(False, index=pairs.index)
    return (pairs["level_first_name"].isin(FUZZY_GIVEN) & pairs["level_father_name"].isin(AGREE)
            & pairs["level_mother_name"].isin(AGREE))


# (issue 28, twelfth session) Two reports of names only whose names agree on every part both give
# (the same name, or the same consonants in the other script) and that are each other's only
# candidate in the whole table are linked. Below TF_MIN_ROWS reports no term frequency says how
# common a name is, and first + family name alone weigh ~9.4 bits against the prior of a table of
# ~800 reports: p ≈ 0.51, to review (ماجد دياب / Maged Diab, ثنيان أسعد / Thunayyan Asaad). That
# no other report of the table bears a name close enough to be scored above the review floor is
# what a term frequency would say, and what a careful reader checks before linking: the name, in
# this table, is theirs alone. A second candidate on either side (two Ines Urabi, or "Ehab Asaad"
# against a four-part إيهاب سالم المثنى أسعد and a two-part إيهاب الأسعد) keeps the pair for review;
# so does any fact on the pair (a fact compared, agreeing or not, is the model's to weigh), a name
# different or further than one consonant apart, a guard, and a sibling-like pair. A name of similar
# spelling or one consonant apart counts as agreeing (حجي ريس / Heggy Riess, ياسر الحسني / Yashir
# Hosny): those levels only read names not both in the variants table (two known names, Maram /
# Marwa, are "different"), so they are spellings of one name. real_cross_parts R 0.6875 → 0.8575
# (agreeing names only: 0.85), review pairs 162 → 94; phenomena, slips, google_cross R up; no set
# lost precision or recall (docs/linkage.md, twelfth session).
NEAR_SPELLING = ("similar spelling", "one consonant apart")
# One name other than the given name may be further apart (two consonants, or similar consonants:
# names not in the variants table) when two names are alike: Archuleta Kirponos Stockhausen /
# أرتشولينا كيربونوس شتوكهاوزن (Google +0.0015). Not the given name: unknown given names two
# consonants apart under one father's name may be brothers (variant measured: Google +0.0050, kept out).
FAR_SPELLING = ("two consonants apart (names not in the variants table)", "similar consonants (g/j/k, d/t/z, h dropped)")
# the given-name levels at which two names of the lists may meet (real_names_apart)
REAL_NAME_LEVELS = (*AGREE, *NEAR_SPELLING, *FAR_SPELLING)
ONLY_CANDIDATES_NOTE = "names agree and each report is the other's only candidate in the table: linked"
FACT_LEVELS = ("birth_year", "sex", "governorate_id", "city_key", "birth_place_key", "arrest_date", "agency_id")
NAME_LEVELS = ("first_name", "father_name", "grandfather_name", "ancestor_name", "family_name", "mother_name",
               "mother_family_name")


def lift_only_candidates(pairs: pd.DataFrame, floor: float, threshold: float) -> pd.DataFrame:
    """Raise to ``threshold`` the names-only pairs in the review band whose given and family names
    are alike (AGREE, NEAR_SPELLING; or the family name FAR_SPELLING with two names alike), whose
    other names are alike or absent, and whose two reports meet no other report at or above
    ``floor``; ``only_candidates`` marks them."""
    pairs["only_candidates"] = False
    if pairs.empty or "level_first_name" not in pairs.columns or "level_family_name" not in pairs.columns:
        return pairs
    p = pairs["match_probability"]
    above = pairs[p >= floor]
    count = pd.concat([above["unique_id_l"], above["unique_id_r"]]).value_counts()
    ok = (p >= floor) & (p < threshold)
    ok &= pairs["unique_id_l"].map(count).eq(1) & pairs["unique_id_r"].map(count).eq(1)
    if "guard" in pairs.columns:
        ok &= pairs["guard"].fillna("") == ""
    alike = (*AGREE, *NEAR_SPELLING)
    n_alike = pd.Series(0, index=pairs.index)
    n_far = pd.Series(0, index=pairs.index)
    for comp in NAME_LEVELS:
        col = f"level_{comp}"
        if col in pairs.columns:
            n_alike += pairs[col].isin(alike).astype(int)
            n_far += pairs[col].isin(FAR_SPELLING).astype(int)
            ok &= pairs[col].isin((*alike, *FAR_SPELLING)) | pairs[col].isna() | (pairs[col] == "missing")
    ok &= pairs["level_first_name"].isin(alike) & (pairs["level_family_name"].isin(alike) | (
        (n_far == 1) & (n_alike >= 2)))
    for comp in FACT_LEVELS:
        col = f"level_{comp}"
        if col in pairs.columns:
            ok &= pairs[col].isna() | (pairs[col] == "missing")
    pairs.loc[ok, "match_probability"] = threshold
    pairs.loc[ok, "match_weight"] = log2_odds(threshold)
    pairs["only_candidates"] = ok
    return pairs


def _apply_decisions(pairs: pd.DataFrame, decisions: list[Decision]) -> pd.DataFrame:
    pairs["decision"] = ""
    if not decisions:
        return pairs
    key = {frozenset((d.id_l, d.id_r)): d.decision for d in decisions}
    pair_keys = [frozenset(p) for p in zip(pairs["unique_id_l"], pairs["unique_id_r"])]
    pairs["decision"] = [key.get(k, "") for k in pair_keys]
    present = set(pair_keys)
    missing = [d for d in decisions if frozenset((d.id_l, d.id_r)) not in present]
    if missing:  # decided pairs the blocking did not produce: add them so they are visible
        extra = pd.DataFrame({"unique_id_l": [d.id_l for d in missing], "unique_id_r": [d.id_r for d in missing],
                              "match_probability": float("nan"), "match_weight": float("nan"),
                              "decision": [d.decision for d in missing]})
        pairs = pd.concat([pairs, extra], ignore_index=True)
    return pairs


def _status(pairs: pd.DataFrame, cut: list[tuple[str, str, float]], threshold: float,
            band: tuple[float, float]) -> pd.DataFrame:
    cut_keys = {frozenset((a, b)) for a, b, _ in cut}
    p = pairs["match_probability"]
    status = pd.Series("not linked", index=pairs.index)
    status[(p >= band[0]) & (p < band[1])] = "review"
    status[p >= threshold] = "linked"
    status[pairs["decision"] == "same"] = "linked"
    status[pairs["decision"] == "different"] = "not linked"
    status[(pairs["decision"] == "unsure") & (p < threshold)] = "not linked"
    if cut_keys:
        is_cut = [frozenset(k) in cut_keys for k in zip(pairs["unique_id_l"], pairs["unique_id_r"])]
        status[pd.Series(is_cut, index=pairs.index) & (pairs["decision"] == "")] = "cut by decision"
    pairs["status"] = status
    return pairs


def _mark_splits(pairs: pd.DataFrame, split: list[tuple[str, str, float, str]]) -> pd.DataFrame:
    """Pairs the model linked but a constraint kept apart: status 'split', the reason in ``split``
    (they go to the review queue: a reviewer may still judge them the same person)."""
    pairs["split"] = ""
    if not split:
        return pairs
    reasons = {frozenset((a, b)): reason for a, b, _, reason in split}
    keys = [frozenset(k) for k in zip(pairs["unique_id_l"], pairs["unique_id_r"])]
    found = pd.Series([reasons.get(k, "") for k in keys], index=pairs.index, dtype=object)
    pairs["split"] = found
    pairs.loc[(found != "") & (pairs["decision"] == ""), "status"] = "split"
    return pairs


def _reading_notes(reading: str) -> list[str]:
    return [READING_NOTE] if reading == "second" else [TWO_READINGS_NOTE] if reading == "two" else []


def explain_pairs(pairs: pd.DataFrame) -> list[str]:
    """One readable line per pair: each comparison's level and match weight (needs the
    ``level_*`` columns of :func:`add_levels`)."""
    comps = [c[len("level_"):] for c in pairs.columns if c.startswith("level_")]
    parts: list[list[str]] = [[] for _ in range(len(pairs))]
    for comp in comps:
        name = COMPARISON_NAMES.get(comp, comp)
        weight = pairs[f"mw_{comp}"].to_numpy(dtype=float)
        if f"mw_tf_adj_{comp}" in pairs.columns:
            weight = weight + pairs[f"mw_tf_adj_{comp}"].fillna(0).to_numpy(dtype=float)
        for i, level in enumerate(pairs[f"level_{comp}"]):
            if isinstance(level, str) and level != "missing":
                parts[i].append(f"{name}: {level} ({weight[i]:+.1f})")
    guards = pairs["guard"] if "guard" in pairs.columns else [""] * len(pairs)
    if "only_candidates" in pairs.columns:
        guards = [g or (ONLY_CANDIDATES_NOTE if o else "") for g, o in zip(guards, pairs["only_candidates"])]
    splits = pairs["split"] if "split" in pairs.columns else [""] * len(pairs)
    readings = pairs["reading"] if "reading" in pairs.columns else [""] * len(pairs)
    places = pairs["place_adjust"].fillna(0.0) if "place_adjust" in pairs.columns else [0.0] * len(pairs)
    born = pairs["born_there"].eq(True) if "born_there" in pairs.columns else [False] * len(pairs)
    return ["; ".join(p + _place_notes(a, b) + _reading_notes(r)
                      + ([g] if g else []) + ([f"kept apart: {s}"] if s else [])) if p else "decided by a reviewer"
            for p, g, s, r, a, b in zip(parts, guards, splits, readings, places, born)]


def _place_notes(adjust: float, born: bool) -> list[str]:
    """The places' line: what counting them once changed, and a birth place read as the town."""
    if born:
        return [f"{BORN_THERE_NOTE} (+{BORN_THERE_BITS:.1f})"] + (
            [f"{PLACE_NOTE} ({adjust - BORN_THERE_BITS:+.1f})"] if abs(adjust - BORN_THERE_BITS) > 1e-9 else [])
    return [f"{PLACE_NOTE} ({adjust:+.1f})"] if adjust else []


def train_model(reports: pd.DataFrame | list[dict], *, seed: int = 42, max_pairs: float = 2e6,
                trained_on: str = "", prepared: pd.DataFrame | None = None,
                memory_limit: str = DUCKDB_MEMORY_LIMIT) -> LinkageModel:
    """Estimate λ, u (random sampling, fixed seed) and m (EM) on unlabelled reports (DuckDB)."""
    table = prepared if prepared is not None else prepare_reports(reports)
    linker = _linker(table, None, "duckdb", None, retain=False, memory_limit=memory_limit)
    populated = _populated(table)
    prior_rule = ("first_blk", "father_blk", "family_blk", "birth_year")
    linker.training.estimate_probability_two_random_records_match(
        [block_on(*[c for c in prior_rule if c in populated])], recall=0.6)
    linker.training.estimate_u_using_random_sampling(max_pairs=max_pairs, seed=seed)
    for rule in training_rules(populated):
        linker.training.estimate_parameters_using_expectation_maximisation(
            block_on(*rule), estimate_without_term_frequencies=True)
    saved = linker.misc.save_model_to_json()
    return model_from_splink(saved, trained_on or f"{len(table)} reports, seed {seed}", trained_rows=len(table))
