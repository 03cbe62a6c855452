"""A second reading of a report's given names, tried per pair (issue 28).

Syrian given names are often the compound "Muhammad X" (محمد عمار، محمد وائل، Mohammad Amer), and the
person is called by X alone: one list writes "SAATI, Mohammad Ammar", another "SAATI, Ammar". Read as
written, the first is Muhammad son of Ammar, and against "Ammar" the own given names differ (the guard
and the constraint keep the two apart, as they must for brothers). Nothing in the one report settles
which reading is meant; the other report does. So a report whose full name begins with Muhammad and
a given name (`prepare.compound_first`) is scored twice: as written, and as "X", son of the name that
follows (the shadow row `<id>~c`, its given names shifted by one). Per pair of reports the better
reading counts, the second at a cost of ``READING_BITS`` (a reading that needs an assumption is weaker
evidence), and the explanation says which reading was used. The constraints accept a pair when one
reading of each report is compatible (`Constraints`); what tells brothers apart — a different own
given name under either reading — still does.

Not on the incremental path (incremental.py scores the report as written): the full run's persons
may differ for such names until the next full run.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from athar.matching.linkage.prepare import COMPOUND_COLUMN, KEY_NAMES
from athar.matching.names.phonetic import dotless

SHADOW = "~c"
READING_BITS = 3.0  # the second reading is an assumption: a pair read so weighs 3 bits less


def base_id(uid: str) -> str:
    """The report a (possibly shadow) row belongs to."""
    return uid[: -len(SHADOW)] if uid.endswith(SHADOW) else uid


def with_readings(table: pd.DataFrame) -> pd.DataFrame:
    """The prepared table plus one shadow row per report with a second reading (given names shifted:
    the father's name read as the own given name, the grandfather's as the father's)."""
    if COMPOUND_COLUMN not in table.columns or not table[COMPOUND_COLUMN].any():
        return table
    shadow = table[table[COMPOUND_COLUMN] == 1].copy()
    for k in KEY_NAMES:
        for target, source in (("first", "father"), ("father", "grandfather")):
            src = f"{source}_{k}"
            if f"{target}_{k}" in shadow.columns:
                shadow[f"{target}_{k}"] = shadow[src] if src in shadow.columns else None
        if f"grandfather_{k}" in shadow.columns:
            shadow[f"grandfather_{k}"] = 0 if k == "known" else None
    for part in ("first", "father"):
        if f"{part}_dblk" in shadow.columns:
            shadow[f"{part}_dblk"] = [
                (dotless(b) or None) if isinstance(b, str) else None for b in shadow[f"{part}_blk"]
            ]
    shadow["unique_id"] = shadow["unique_id"].astype(str) + SHADOW
    shadow[COMPOUND_COLUMN] = 2
    return pd.concat([table, shadow], ignore_index=True)


def penalise(pairs: pd.DataFrame) -> pd.DataFrame:
    """Pairs scored on a shadow row weigh ``READING_BITS`` less (match weight and probability)."""
    if pairs.empty:
        pairs["reading"] = ""
        return pairs
    shadow = (pairs["unique_id_l"].str.endswith(SHADOW) | pairs["unique_id_r"].str.endswith(SHADOW)).to_numpy()
    pairs["reading"] = np.where(shadow, "second", "")
    if shadow.any():
        weight = pairs["match_weight"].to_numpy(dtype=float) - np.where(shadow, READING_BITS, 0.0)
        pairs["match_weight"] = weight
        pairs.loc[shadow, "match_probability"] = 1.0 / (1.0 + np.power(2.0, -weight[shadow]))
    return pairs


def collapse(pairs: pd.DataFrame) -> pd.DataFrame:
    """One row per pair of reports: the reading with the highest probability (after the guards);
    a report against its own shadow is no pair."""
    if pairs.empty or "reading" not in pairs.columns or not (pairs["reading"] != "").any():
        return pairs
    left = pairs["unique_id_l"].map(base_id)
    right = pairs["unique_id_r"].map(base_id)
    pairs = pairs.assign(unique_id_l=left.where(left < right, right), unique_id_r=right.where(left < right, left))
    pairs = pairs[left != right]
    pairs = pairs.sort_values(["match_probability", "reading"], ascending=[False, True], kind="stable")
    pairs = pairs.drop_duplicates(["unique_id_l", "unique_id_r"])
    return pairs.sort_index().reset_index(drop=True)


READING_NOTE = f"given names read as the compound Muhammad X, called X ({-READING_BITS:+.1f})"
