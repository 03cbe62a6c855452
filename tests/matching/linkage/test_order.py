"""Family name first without a comma: the table being linked says which word is the family name."""

from __future__ import annotations

import pandas as pd

from athar.matching.linkage import link_reports
from athar.matching.linkage.order import OrderVotes, written_order
from athar.matching.linkage.prepare import prepare_reports

# A family (Qassab) written in the usual order in most reports, and a few other families.
USUAL = ["بلال مشعل هلال قصاب", "هلال مشعل قصاب", "سامر هلال قصاب", "نورا هلال قصاب", "مشعل هلال قصاب",
         "Bilal Mashal Qassab",
         "أماني عثمان النجار", "رضا عثمان النجار", "يمني رضا خليل", "هلال أحمد خليل", "خليل أحمد الحسني"]


def _votes(names: list[str]) -> OrderVotes:
    votes = OrderVotes()
    for name in names:
        votes.count_full(written_order(name))
    return votes


def test_a_family_name_written_first_is_read_as_the_family_name() -> None:
    votes = _votes(USUAL)
    assert votes.family_first(written_order("قصاب بلال مشعل هلال"))  # Qassab, Bilal Mashal Hilal
    assert not votes.family_first(written_order("بلال مشعل هلال قصاب"))


def test_the_table_overrules_a_guess_from_the_word() -> None:
    """أماني ends in ي like a nisba; the rules alone read it as a family name written first."""
    order = written_order("أماني هلال خليل")
    assert order.in_doubt and order.rules_say_family_first and order.text == "أماني هلال خليل"
    assert not _votes(USUAL + ["أماني سامي خليل", "أماني خليل"]).family_first(order)


def test_without_evidence_the_rules_decide() -> None:
    votes = _votes(["Zorka Omar"])
    assert not votes.family_first(written_order("Zorka Omar"))
    assert OrderVotes().family_first(written_order("السالم محمد أحمد"))  # the article rule
    assert not OrderVotes().family_first(written_order("al-Miqdad, Ahmad Mahmud"))  # settled by the comma


def test_reports_written_both_ways_link() -> None:
    rows = [{"unique_id": f"u{i}", "full_name": n, "birth_year": "1976", "governorate": "Idlib"}
            for i, n in enumerate(USUAL)]
    rows.append({"unique_id": "rotated", "full_name": "قصاب بلال مشعل هلال", "birth_year": "1976", "governorate": "إدلب"})
    table = pd.DataFrame(rows)
    prepared = prepare_reports(table)
    row = prepared.set_index("unique_id").loc["rotated"]
    assert (row["first_id"], row["family_id"]) == tuple(prepared.set_index("unique_id").loc["u0", ["first_id", "family_id"]])
    clusters = link_reports(table, prepared=prepared).clusters.set_index("unique_id")["cluster_id"]
    assert clusters["rotated"] == clusters["u0"]


def test_titles_and_a_glued_place_are_weak_evidence_where_the_report_says_nothing() -> None:
    table = pd.DataFrame([
        {"unique_id": "a", "full_name": "الطالبة أماني عثمان النجار - خناصر"},
        {"unique_id": "b", "full_name": "Mr. Samer Ali", "sex": "F", "city": "Douma"},  # the columns win
        {"unique_id": "c", "full_name": "Lt. Samer Ali"},  # a rank says nothing
    ])
    prepared = prepare_reports(table).set_index("unique_id")
    assert prepared.loc["a", "sex"] == "F" and prepared.loc["a", "city_key"] == prepare_reports(
        pd.DataFrame([{"unique_id": "x", "city": "Khanasser"}])).loc[0, "city_key"]
    assert prepared.loc["b", "sex"] == "F" and prepared.loc["c", "sex"] is None


def test_a_family_name_first_before_a_garbled_given_name() -> None:
    """"الحمصي سامر جال": the father's name جمال lost a letter, so the last word is no known given
    name; the first word is a family name in every other report of the table."""
    names = [f"{first} {father} الحمصي" for first, father in [("سامر", "جمال"), ("علي", "جمال"), ("خالد", "أحمد"),
                                                              ("محمد", "سعيد"), ("رامي", "حسن"), ("نور", "خالد"),
                                                              ("عمر", "جمال"), ("فادي", "محمود"), ("هبة", "علي")]]
    votes = _votes(names)
    assert votes.family_first(written_order("الحمصي سامر جال"))
    assert not votes.family_first(written_order("سامر جال الحمصي"))


def test_a_family_name_with_the_article_is_judged_apart_from_the_given_name() -> None:
    """علي is a given name, العلي a family name: "العلي محمد رشيد" is Muhammad Rashid al-Ali."""
    names = ["علي أحمد الخطيب", "علي محمود السالم", "علي حسن النجار", "علي خالد الحمصي", "محمد علي الشامي",
             "سامر خالد العلي", "رامي رشيد العلي", "هبة محمد العلي", "خالد رشيد العلي", "رشيد سامر الحلبي"]
    votes = _votes(names)
    assert votes.family_first(written_order("العلي محمد رشيد"))
    assert not votes.family_first(written_order("علي محمد رشيد"))


def test_a_family_name_without_the_article_first_counts_the_reports_with_it() -> None:
    """"بشير حمدي حيدره": the family al-Bashir, written first without its article."""
    names = ["حمدي حيدره البشير", "سامر حيدره البشير", "نور حيدره البشير", "محمد علي البشير", "خالد حسن البشير",
             "رامي حمدي الحلبي", "سعيد حيدره الخطيب", "أحمد حيدره العلي"]
    assert _votes(names).family_first(written_order("بشير حمدي حيدره"))


def test_a_given_name_written_with_a_hamza_on_its_alef_is_no_article() -> None:
    # أليفة، ألماظ: the article's alef carries no hamza (names/written._has_article). "أليفة جمال خليل"
    # was read family name first — Jamal son of Khalil, of the family Alifa — and never met its Latin
    # report "Alifa Jamel Khalil" (real_cross_parts, issue 28)
    assert not written_order("أليفة جمال خليل").rules_say_family_first
    assert not written_order("ألماظ علي حسن").rules_say_family_first
    assert written_order("الحلبي محمد أحمد").rules_say_family_first  # the article, no hamza
    parts = prepare_reports(pd.DataFrame([{"unique_id": "1", "full_name": "أليفة جمال خليل"}]))
    assert (parts.loc[0, "first_id"], parts.loc[0, "family_id"]) == ("alifa", "khalil")


def test_a_name_does_not_vote_on_its_own_order() -> None:
    """(thirteenth session, fresh set) "دروبي ابراهيم" is Ibrahim of the Droubi family, whom three
    reports write in the usual order; its own vote (as written: دروبي a given name) kept it under the
    margin, and it was read as a man called Droubi, son of no one, of a family Ibrahim."""
    droubi = ["إبراهيم عمران الدروبي", "Ibrahim Imran Al Droubi", "إبراهيم الدروبي", "عمر إبراهيم خليل"]
    written = "دروبي ابراهيم"
    votes = _votes([*droubi, written])
    assert votes.family_first(written_order(written))
    assert not votes.family_first(written_order("ابراهيم دروبي"))
    # what the old count said: the name's own vote left in
    assert votes.lean("drubi") < votes.lean("drubi", written_order(written))
