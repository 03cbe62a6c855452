"""Trained parameters of the linkage model, as versioned JSON (no pickles).

A model file holds the algorithm name and version, the Splink version it was trained
with, what it was trained on, λ (probability two random reports match) and, for every
comparison level (by comparison and level label), its m and u probabilities.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import splink
from splink import SettingsCreator

from athar.matching.linkage.settings import (
    ALGORITHM,
    SAME_CONSONANTS,
    SAME_NAME,
    VERSION,
    settings_dict,
)

DEFAULT_MODEL_FILE = "linkage_model_v1.json"


@dataclass
class LinkageModel:
    """Parameters of one trained linkage model."""

    algorithm: str = ALGORITHM
    version: int = VERSION
    probability_two_random_records_match: float = 1e-4
    parameters: dict[str, dict[str, dict[str, float | None]]] = field(default_factory=dict)
    trained_on: str = ""
    splink_version: str = splink.__version__
    trained_rows: int = 0  # reports in the training data: λ is rescaled to other sizes

    def prior_for(self, n_rows: int) -> float:
        """λ for a table of ``n_rows`` reports: each report has about the same number of
        duplicates whatever the size, so λ scales as 1 / n (capped at 0.5)."""
        if not self.trained_rows or n_rows <= 1:
            return self.probability_two_random_records_match
        return min(0.5, self.probability_two_random_records_match * self.trained_rows / n_rows)

    def to_dict(self) -> dict[str, Any]:
        return {
            "algorithm": self.algorithm, "version": self.version, "splink_version": self.splink_version,
            "trained_on": self.trained_on,
            "probability_two_random_records_match": self.probability_two_random_records_match,
            "trained_rows": self.trained_rows, "parameters": self.parameters,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False, sort_keys=True)

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.write_text(self.to_json() + "\n", encoding="utf-8")
        return path

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LinkageModel:
        if data.get("algorithm") != ALGORITHM:
            raise ValueError(f"not an {ALGORITHM} model: {data.get('algorithm')!r}")
        if int(data.get("version", -1)) != VERSION:
            raise ValueError(f"model version {data.get('version')} but this code implements version {VERSION}")
        return cls(ALGORITHM, VERSION, float(data["probability_two_random_records_match"]),
                   data["parameters"], data.get("trained_on", ""), data.get("splink_version", ""),
                   int(data.get("trained_rows", 0)))

    @classmethod
    def from_json(cls, text: str) -> LinkageModel:
        return cls.from_dict(json.loads(text))

    @classmethod
    def load(cls, path: str | Path) -> LinkageModel:
        return cls.from_json(Path(path).read_text(encoding="utf-8"))


def default_model() -> LinkageModel:
    """The model shipped in the package (data/linkage_model_v1.json)."""
    text = resources.files("athar.matching.linkage").joinpath("data").joinpath(DEFAULT_MODEL_FILE).read_text("utf-8")
    return LinkageModel.from_json(text)


def model_from_splink(saved: dict[str, Any], trained_on: str, trained_rows: int = 0) -> LinkageModel:
    """Extract m/u per level from a settings dict saved by Splink."""
    params: dict[str, dict[str, dict[str, float | None]]] = {}
    for comp in saved["comparisons"]:
        levels = {}
        for level in comp["comparison_levels"]:
            if level.get("is_null_level"):
                continue
            levels[level["label_for_charts"]] = {"m": _round(level.get("m_probability")),
                                                 "u": _round(level.get("u_probability"))}
        params[comp["output_column_name"]] = levels
    return LinkageModel(probability_two_random_records_match=_round(float(saved["probability_two_random_records_match"])) or 0.0,
                        parameters=params, trained_on=trained_on, trained_rows=trained_rows)


def _round(value: float | None) -> float | None:
    # 9 significant digits: DuckDB's parallel sums differ in the last bits from run to run
    return None if value is None else float(f"{value:.9g}")


def effective_parameters(model: LinkageModel) -> dict[str, dict[str, dict[str, float | None]]]:
    """m/u used for prediction: the model's, except that "same consonants (other script or
    spelling)" counts as the same name written otherwise. Whether two reports of one person
    land on "same name" or on "same consonants" depends on how the name was written (script,
    spelling, whether it is in the variants table), not on whether they are one person: the
    synthetic training reports spell Latin names from the variants table, so EM gave the
    cross-script level a tiny m (0.015) while on real Arabic/Latin pairs it is the usual
    agreement. Both levels get m = m(same name) + m(same consonants) and u = u(same name) +
    u(same consonants) (two random reports whose names agree, either way); the
    term-frequency adjustment (on the name id, resp. on the cross-script key) then says how
    common the agreeing name is. The fuzzy levels get at least the m that real Arabic/Latin
    pairs of one name show (CROSS_SCRIPT_SHARE below)."""
    params = {comp: {label: dict(v) for label, v in levels.items()} for comp, levels in model.parameters.items()}
    for comp, donor in BORROWED_LEVELS.items():
        if donor in params:
            params.setdefault(comp, {})
            for label, values in params[donor].items():
                params[comp].setdefault(label, dict(values))
    for levels in params.values():
        same, cons = levels.get(SAME_NAME), levels.get(SAME_CONSONANTS)
        if not same or not cons or None in (same["m"], same["u"], cons["m"], cons["u"]):
            continue
        cons["m"] = _round(same["m"] + cons["m"])  # type: ignore[operator]
        cons["u"] = _round(same["u"] + cons["u"])  # type: ignore[operator]
        for label, share in CROSS_SCRIPT_SHARE.items():
            level = levels.get(label)
            if level and level["u"] is not None:
                level["m"] = _round(max(level["m"] or 0.0, cons["m"] * share / CROSS_SCRIPT_EXACT))  # type: ignore[operator]
        _no_fuzzy_above_agreement(levels, cons)
    for comp in FACT_COMPARISONS:
        for label, level in params.get(comp, {}).items():
            m, u = level["m"], level["u"]
            if m is not None and u is not None and m < u:
                level["m"] = _round(RARE_SLIP_M.get((comp, label), max(m, min(FACT_SLIP_M, u))))
    return params


def _no_fuzzy_above_agreement(levels: dict[str, dict[str, float | None]], agree: dict[str, float | None]) -> None:
    """(issue 28, fifth session) A name only alike never says more than the name agreeing: each fuzzy
    level's m/u is at most that of "same consonants" (the same name in either writing). With u
    measured on a table of varied names, "one consonant apart" is rare between strangers and weighed
    +6.5 bits against +4.8 for the same name: Mahar / Amar (two names) outweighed agreement, and a
    Maher joined an Ammar of another family (OFAC set)."""
    ratio = agree["m"] / agree["u"] if agree["m"] and agree["u"] else None
    for label in CROSS_SCRIPT_SHARE:
        level = levels.get(label)
        if ratio and level and level["m"] and level["u"] and level["m"] / level["u"] > ratio:
            level["m"] = _round(level["u"] * ratio)


# (third issue-28 session) A fact that disagrees costs weight, never a veto. The synthetic training
# reports never carry a wrong governorate, so EM gave "governorate: different" m = 5e-5 (−14 bits:
# one wrong field on one report outweighed the same full name, town and arrest date). Reports of one
# person do disagree on a fact now and then — a slip, a governorate written for the town of arrest, a
# sex entered wrongly, an arrest date from another source — so every disagreeing level of a fact
# gets m ≥ FACT_SLIP_M (about one report in a hundred with a slip in that field, counted on both
# reports of a pair): governorate −14.0 → −5.5 bits, arrest date one year apart −7.3 → −3.3, sex
# −6.0 → −4.6. Names are not floored: a different name is what siblings and namesakes show.
FACT_SLIP_M = 0.02
FACT_COMPARISONS = ("sex", "governorate_id", "city_key", "birth_place_key", "birth_year", "arrest_date", "agency_id")
# (issue 28, eleventh session) Disagreeing levels that a slip seldom reaches get a quarter of a
# slip's m instead (its m, not a floor). Arrest years two or more apart: 0 of the ~12,000 true pairs
# with two arrest dates on every dev set that has them (independent seed 8, phenomena, synthetic,
# slips, one_slip, written_kinds: a date slip there is a day, a month or the year before or after),
# but 93 linked edges between two persons of one town on the independent set (seed 8). At the floor
# it weighed −4.8 bits against a shared full name and town's +25; now −7.1. Independent P 0.9850 →
# 0.9862 (seed 8), 0.9784 → 0.9805 (seed 9), recall and recall with review unchanged on every set
# (docs/linkage.md, eleventh session). Still a weight, never a veto.
RARE_SLIP_M = {("arrest_date", "further apart"): FACT_SLIP_M / 4}


# How one name written in Arabic script and in Latin letters compares, level by level:
# 3,000 word pairs of the Google transliteration corpus, *train* split (the cross-script
# benchmark uses the eval split); `nice .venv/bin/python -m benchmarks.linkage.measure_cross_script_levels`.
# The synthetic training reports take Latin spellings from the variants table, so EM saw few
# true pairs at the fuzzy levels; a fuzzy level's m is at least m(names agree) × its share
# here / the share of exact agreement ("same name" + "same consonants": 0.794).
CROSS_SCRIPT_EXACT = 0.794
CROSS_SCRIPT_SHARE = {
    "similar spelling": 0.039,
    "one consonant apart": 0.143,
    "similar consonants (g/j/k, d/t/z, h dropped)": 0.004,
    "two consonants apart (names not in the variants table)": 0.019,
}


# (issue 28, eighth session) Levels a comparison has that its trained model lacks, with the m/u of the
# same level of another comparison of the same kind of name. The grandfather's name got the fuzzy
# levels of the other given names (settings.comparisons): before, a grandfather's name in a Latin
# spelling the variants table does not know (أزهر / Azhar, رضا / Reza) was "different" (−4.3 bits)
# and four- and five-part names across scripts waited for review at p ≈ 0.59. A grandfather is a
# man's given name like the father's: his comparison takes the father's fuzzy levels (the floors of
# CROSS_SCRIPT_SHARE and the cap at agreement below then apply to it as to every name).
BORROWED_LEVELS = {"grandfather_name": "father_name", "ancestor_name": "father_name"}


# Below this many reports, name frequencies from the batch itself mean little: no TF.
TF_MIN_ROWS = 1000


def build_settings(populated: set[str], dialect: str, model: LinkageModel | None,
                   *, retain: bool = True, n_rows: int = 0) -> dict[str, Any]:
    """Splink settings in the engine's SQL dialect, with the model's parameters filled in."""
    spec = settings_dict(populated, retain=retain, n_rows=n_rows)
    plain = SettingsCreator(**spec).create_settings_dict(dialect)
    if 0 < n_rows < TF_MIN_ROWS:
        for comp in plain["comparisons"]:
            for level in comp["comparison_levels"]:
                level.pop("tf_adjustment_column", None)
                level.pop("tf_adjustment_weight", None)
    if model is None:
        return plain
    plain["probability_two_random_records_match"] = model.prior_for(n_rows) if n_rows else model.probability_two_random_records_match
    parameters = effective_parameters(model)
    for comp in plain["comparisons"]:
        trained = parameters.get(comp["output_column_name"])
        if trained is None:
            raise ValueError(f"model has no parameters for comparison {comp['output_column_name']!r}")
        for level in comp["comparison_levels"]:
            if level.get("is_null_level"):
                continue
            values = trained.get(level["label_for_charts"])
            if values is None:
                raise ValueError(f"model has no level {level['label_for_charts']!r} in {comp['output_column_name']!r}")
            if values["m"] is not None:
                level["m_probability"] = values["m"]
            elif values["u"] is not None:  # never observed in training: a neutral weight (m = u)
                level["m_probability"] = values["u"]
            if values["u"] is not None:
                level["u_probability"] = values["u"]
    return plain
