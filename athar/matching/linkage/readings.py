"""A second reading of a report's name, tried per pair (issue 28).

Syrian given names are often the compound "Muhammad X" (محمد عمار، محمد وائل، Mohammad Amer), and the
person is called by X alone: one list writes "SAATI, Mohammad Ammar", another "SAATI, Ammar". Read as
written, the first is Muhammad son of Ammar, and against "Ammar" the own given names differ (the guard
and the constraint keep the two apart, as they must for brothers). Likewise a family name that is also
a given name, written first without a comma ("يعقوب يعقوب عبد الحميد": Yaqub son of Yaqub, family Abd
al-Hamid, or Yaqub Abd al-Hamid of the family Yaqub), is read one way only. Nothing in the one report
settles which reading is meant; the other report does. So a report with a second reading
(`prepare.second_reading`: COMPOUND, FAMILY_FIRST, AS_WRITTEN) is scored twice: as read, and as its
shadow row `<id>~c` whose name parts are moved (``SHIFTS``). Per pair of reports the better reading
counts, the second at a cost of ``READING_BITS`` (a reading that needs an assumption is weaker
evidence), and the explanation says so. The constraints accept a pair when one reading of each report
is compatible (`Constraints.readings`); what tells brothers apart — a different own given name under
either reading — still does.

The incremental step (incremental.py) reads a new report and its candidates the same way: their
shadow rows are blocked (``block_keys_by_report``) and scored, and the pairs collapse as here, so
a report linked by the worker joins the person a full run gives it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from athar.matching.linkage.prepare import AS_WRITTEN, COMPOUND, FAMILY_FIRST, KEY_NAMES, READING_COLUMN, derived_keys

SHADOW = "~c"
READING_BITS = 3.0  # the second reading is an assumption: a pair read so weighs 3 bits less
# A pair that meets only when BOTH reports are read otherwise rests on two assumptions, one per report:
# it weighs 2 × READING_BITS less and is never linked by the model, only offered for review. The
# brothers محمد رامي الأحمد (Muhammad son of Rami) and AHMAD RAMI AHMED (Ahmad son of Rami) met as
# "Rami al-Ahmad" twice — the first read "Muhammad Rami called Rami", the second read family name
# first — and were one person at 0.996 (issue 28's fresh set, seed 22; no true pair of any dev set
# was linked only so).
TWO_READINGS_CAP = 0.89  # below the link threshold, above the review floor (as link.SIBLING_CAP)


def base_id(uid: str) -> str:
    """The report a (possibly shadow) row belongs to."""
    return uid[: -len(SHADOW)] if uid.endswith(SHADOW) else uid


def with_readings(table: pd.DataFrame) -> pd.DataFrame:
    """The prepared table plus one shadow row per report with a second reading: given names shifted
    (the father's name read as the own given name, the grandfather's as the father's), or the name
    read in the other order (the first word as the family name, or as written)."""
    if READING_COLUMN not in table.columns or not (table[READING_COLUMN] > 0).any():
        return table
    shadows = []
    for code, moves in SHIFTS.items():
        rows = table[table[READING_COLUMN] == code]
        if not rows.empty:
            with_gf = rows["grandfather_id"].notna() if "grandfather_id" in rows.columns else rows["unique_id"].isna()
            two = rows["father_id"].isna() & ~with_gf if code in TWO_WORDS else rows["unique_id"].isna()
            shadows += [_moved(rows[with_gf], moves[1]), _moved(rows[~with_gf & ~two], moves[0]),
                        _moved(rows[two], TWO_WORDS.get(code, {}))]
    shadow = pd.concat([s for s in shadows if not s.empty], ignore_index=True)
    shadow["unique_id"] = shadow["unique_id"].astype(str) + SHADOW
    shadow[READING_COLUMN] = -shadow[READING_COLUMN]
    return pd.concat([table, shadow], ignore_index=True)


# part ← part of the report as read, per second reading (prepare.COMPOUND, FAMILY_FIRST, AS_WRITTEN),
# for names without, then with a grandfather's name
# Parts a second reading leaves empty: the fourth name of a lineage stands elsewhere once the
# given names shift or the order turns (issue 28, eleventh session)
UNREAD_PARTS = ("ancestor",)
SHIFTS: dict[int, tuple[dict[str, str | None], dict[str, str | None]]] = {
    COMPOUND: (
        {"first": "father", "father": "grandfather", "grandfather": None},
        {"first": "father", "father": "grandfather", "grandfather": None},
    ),
    FAMILY_FIRST: (
        {"first": "father", "father": "family", "family": "first"},
        {"first": "father", "father": "grandfather", "grandfather": "family", "family": "first"},
    ),
    AS_WRITTEN: (
        {"first": "family", "father": "first", "family": "father"},
        {"first": "family", "father": "first", "grandfather": "father", "family": "grandfather"},
    ),
}


# A name of two words read in the other order (thirteenth session): the given and family names trade
# places ("عثمان حسام": Uthman of the Husam family, or Husam of the Uthman family).
TWO_WORDS: dict[int, dict[str, str | None]] = {
    FAMILY_FIRST: {"first": "family", "family": "first"},
    AS_WRITTEN: {"first": "family", "family": "first"},
}


def _moved(rows: pd.DataFrame, moves: dict[str, str | None]) -> pd.DataFrame:
    """The rows with their name parts moved (a key a part does not keep — family names keep no
    letters without dots — is left empty)."""
    if rows.empty:
        return rows
    out = rows.copy()
    moves = {**moves, **dict.fromkeys(UNREAD_PARTS)}
    for k in KEY_NAMES:
        for target, source in moves.items():
            col, src = f"{target}_{k}", f"{source}_{k}" if source else ""
            if col in out.columns:
                out[col] = rows[src].to_numpy() if src in rows.columns else (0 if k == "known" else None)
    for name, values in derived_keys(out).items():
        if name in out.columns:
            out[name] = values
    return out


def penalise(pairs: pd.DataFrame) -> pd.DataFrame:
    """Pairs scored on a shadow row weigh ``READING_BITS`` less per shadow side (match weight and
    probability); a pair of two shadow rows is capped at ``TWO_READINGS_CAP`` (``reading``: "two")."""
    if pairs.empty:
        pairs["reading"] = ""
        return pairs
    sides = (pairs["unique_id_l"].str.endswith(SHADOW).astype(int)
             + pairs["unique_id_r"].str.endswith(SHADOW).astype(int)).to_numpy()
    shadow = sides > 0
    pairs["reading"] = np.select([sides == 2, sides == 1], ["two", "second"], "")
    if shadow.any():
        weight = pairs["match_weight"].to_numpy(dtype=float) - READING_BITS * sides
        pairs["match_weight"] = weight
        pairs.loc[shadow, "match_probability"] = 1.0 / (1.0 + np.power(2.0, -weight[shadow]))
        both = sides == 2
        if both.any():
            pairs.loc[both, "match_probability"] = pairs.loc[both, "match_probability"].clip(upper=TWO_READINGS_CAP)
    return pairs


def collapse(pairs: pd.DataFrame, *, keep_sides: bool = False) -> pd.DataFrame:
    """One row per pair of reports: the reading with the highest probability (after the guards);
    a report against its own shadow is no pair. ``keep_sides``: each report stays on its side (the
    incremental step keeps the new report on the left), instead of the smaller id on the left."""
    if pairs.empty or "reading" not in pairs.columns or not (pairs["reading"] != "").any():
        return pairs
    left = pairs["unique_id_l"].map(base_id)
    right = pairs["unique_id_r"].map(base_id)
    if keep_sides:
        pairs = pairs.assign(unique_id_l=left, unique_id_r=right)
    else:
        pairs = pairs.assign(unique_id_l=left.where(left < right, right), unique_id_r=right.where(left < right, left))
    pairs = pairs[left != right]
    pairs = pairs.sort_values(["match_probability", "reading"], ascending=[False, True], kind="stable")
    pairs = pairs.drop_duplicates(["unique_id_l", "unique_id_r"])
    return pairs.sort_index().reset_index(drop=True)


READING_NOTE = (
    f"second reading of the name: Muhammad X called X, or the family name written first ({-READING_BITS:+.1f})"
)
TWO_READINGS_NOTE = (
    f"second readings of both names: each report read otherwise, to review ({-2 * READING_BITS:+.1f})"
)
