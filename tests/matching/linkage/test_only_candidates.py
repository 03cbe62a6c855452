"""Names-only reports whose names agree and that are each other's only candidate in the table are
linked (link.lift_only_candidates); a name that two persons of the table share stays for review."""

from __future__ import annotations

import pandas as pd

from athar.matching.linkage import generate_reports, link_reports, template_to_linkage_input

# Two-part names of real_cross_parts (real Arab names, once in Arabic script, once in Latin letters)
# that waited for review at p ≈ 0.51 in a table of 800 reports: first and family name, nothing else.
ONLY = [("ماجد دياب", "Maged Diab"), ("ثنيان أسعد", "Thunayyan Asaad"), ("نديم خليل", "Nedim Khelil"),
        # a given name one consonant apart or of similar spelling (neither name in the variants table)
        ("حجي ريس", "Heggy Riess"), ("ياسر الحسني", "Yashir Hosny"), ("ماجد البشير", "Magid Béchir"),
        # three parts (Google transliteration corpus, eval split): the given name alike, the family name
        # two consonants apart (neither in the variants table), the father's the same
        ("أرتشولينا كيربونوس شتوكهاوزن", "Archuleta Kirponos Stockhausen")]
# Two persons named Ines Urabi, each once per script: four reports, every pair alike.
TWINS = [("t1", "إيناس عرابي"), ("t2", "Ines Urabi"), ("t3", "إيناس عرابي"), ("t4", "Ines Urabi")]
# "Ehab Asaad" and إيهاب الأسعد meet a third report, a four-part إيهاب سالم المثنى أسعد.
SHORT_AND_LONG = [("e1", "Ehab Asaad"), ("e2", "إيهاب الأسعد"), ("e3", "إيهاب سالم المثنى أسعد")]


def _table() -> pd.DataFrame:
    store = template_to_linkage_input(generate_reports(700, seed=4))
    rows = [{"unique_id": f"x{i}{side}", "full_name": name}
            for i, pair in enumerate(ONLY) for side, name in zip("al", pair)]
    rows += [{"unique_id": uid, "full_name": name} for uid, name in TWINS + SHORT_AND_LONG]
    return pd.concat([store, pd.DataFrame(rows)], ignore_index=True)


def test_names_only_pairs_each_others_only_candidate_are_linked() -> None:
    result = link_reports(_table())
    cluster = dict(zip(result.clusters["unique_id"], result.clusters["cluster_id"]))
    missed = [pair for i, pair in enumerate(ONLY) if cluster[f"x{i}a"] != cluster[f"x{i}l"]]
    assert not missed, missed
    pairs = result.pairs.set_index(["unique_id_l", "unique_id_r"])
    for i in range(len(ONLY)):
        key = tuple(sorted((f"x{i}a", f"x{i}l")))
        assert pairs.loc[key, "only_candidates"]
        assert pairs.loc[key, "model_probability"] < 0.9  # the model alone leaves it for review
        assert "only candidate" in pairs.loc[key, "explanation"]


def test_a_name_two_reports_share_with_a_third_stays_for_review() -> None:
    result = link_reports(_table())
    cluster = dict(zip(result.clusters["unique_id"], result.clusters["cluster_id"]))
    assert len({cluster[uid] for uid, _ in TWINS}) == 4
    assert len({cluster[uid] for uid, _ in SHORT_AND_LONG}) == 3
    ours = {uid for uid, _ in TWINS + SHORT_AND_LONG}
    mine = result.pairs[result.pairs["unique_id_l"].isin(ours) & result.pairs["unique_id_r"].isin(ours)]
    assert not mine["only_candidates"].any()
    assert (mine["status"] == "review").any()


def test_a_reviewers_different_keeps_an_only_candidate_pair_apart() -> None:
    result = link_reports(_table(), decisions=[("x0a", "x0l", "different")])
    cluster = dict(zip(result.clusters["unique_id"], result.clusters["cluster_id"]))
    assert cluster["x0a"] != cluster["x0l"]
    assert cluster["x1a"] == cluster["x1l"]
