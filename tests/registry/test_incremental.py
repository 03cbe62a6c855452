"""Incremental linkage (registry/incremental.py): a report joins, or opens, a person against the
block index, with the full run's model, slips, guards, constraints and decisions."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from django.db.models import Q

from athar.matching.linkage import evaluate_clusters, write_template_csv
from athar.registry import decisions
from athar.registry.importing import import_reports
from athar.registry.incremental import link_waiting, waiting
from athar.registry.linkage import link_all
from athar.registry.lookup import current_run
from athar.registry.models import LinkageKey, Report, ReportLink, ReviewPair
from athar.registry.privacy import erase_report

pytestmark = pytest.mark.django_db


def _import(tmp_path: Path, n: int, seed: int, name: str = "synthetic.csv") -> dict[str, str]:
    path = write_template_csv(tmp_path / name, n, seed=seed)
    import_reports(path, source="synthetic", ignore_columns={"person_id"})
    with path.open(encoding="utf-8") as handle:
        return {row["report_id"]: row["person_id"] for row in csv.DictReader(handle)}


def _persons() -> dict[int, int]:
    return dict(ReportLink.objects.filter(run__is_current=True, report__is_current=True)
                .values_list("report_id", "person_id"))


def _unlink(report_id: int) -> None:
    ReportLink.objects.filter(run__is_current=True, report_id=report_id).delete()
    LinkageKey.objects.filter(report_id=report_id).delete()


def test_each_report_linked_again_joins_the_person_of_the_full_run(tmp_path: Path) -> None:
    """Leave one out: a report taken out of the full run's assignment and linked incrementally
    joins the person the full run gave it (or opens one when it was alone)."""
    _import(tmp_path, 600, seed=11)
    link_all()
    before = _persons()
    sizes: dict[int, int] = {}
    for person in before.values():
        sizes[person] = sizes.get(person, 0) + 1
    sample = sorted(before)[::5]
    wrong = []
    for report_id in sample:
        _unlink(report_id)
        done = link_waiting()
        assert done is not None and done["reports"] == 1
        after = _persons()[report_id]
        alone = sizes[before[report_id]] == 1
        if (after != before[report_id]) if not alone else (after in sizes):
            wrong.append(report_id)
        if alone:  # its new person stands in for the old one in what follows
            ReportLink.objects.filter(run__is_current=True, report_id=report_id).update(person_id=before[report_id])
    assert not wrong, f"{len(wrong)} of {len(sample)} reports joined another person: {wrong[:10]}"


def test_reports_linked_in_turn_make_the_full_runs_persons(tmp_path: Path) -> None:
    """A full run on the first half, then each report of the second half linked in turn: the
    persons are those of a full run over all (pairwise F1 of one partition against the other)."""
    truth = _import(tmp_path, 200, seed=5, name="first.csv")
    link_all()
    truth.update(_import(tmp_path, 200, seed=6, name="second.csv"))  # other people, other ids
    done = link_waiting()
    assert done is not None and done["reports"] == 200 and not waiting(current_run())
    incremental = _persons()
    link_all()
    full = _persons()
    keys = sorted(full)
    agreement = evaluate_clusters([incremental[k] for k in keys], [full[k] for k in keys])
    assert agreement["pairwise_f1"] >= 0.99, agreement


def test_an_erased_report_leaves_the_block_index(tmp_path: Path) -> None:
    _import(tmp_path, 60, seed=3)
    link_all()
    report = Report.objects.current().first()
    assert LinkageKey.objects.filter(report=report).exists()
    erase_report(report)
    assert not LinkageKey.objects.filter(report=report).exists()


SAMER = ("r1", "سامر خالد العلي", "فاطمة", "1984", "حمص", "M", "2012-03-04")


def _file(write_csv: object, rows: list[tuple[str, ...]], name: str) -> Path:
    header = ["report_id", "full_name_ar", "mother_name", "birth_year", "city", "sex", "arrest_date"]
    return write_csv(header, [list(r) for r in rows], name=name)  # type: ignore[operator]


def test_a_new_report_joins_or_opens_a_person_and_respects_decisions(write_csv: object) -> None:
    import_reports(_file(write_csv, [SAMER, ("r2", "ريم حسن الأحمد", "سعاد", "1990", "درعا", "F", "2013-01-01")],
                         "a.csv"), source="s")
    link_all()
    one = Report.objects.get(report_id="r1")
    import_reports(_file(write_csv, [("r3", *SAMER[1:]), ("r4", "خالد عمر الحسن", "", "1970", "حماة", "M", "")],
                         "b.csv"), source="s")
    done = link_waiting()
    assert done is not None and done["reports"] == 2 and done["new_persons"] == 1 and done["joined"] == 1
    persons = _persons()
    three, four = Report.objects.get(report_id="r3"), Report.objects.get(report_id="r4")
    assert persons[three.pk] == persons[one.pk] != persons[four.pk]
    assert ReportLink.objects.get(run__is_current=True, report=three).explanation["linked_with"] == one.pk

    # a reviewer's "different" keeps the next copy apart, whatever the model says
    from django.contrib.auth import get_user_model

    reviewer = get_user_model().objects.create_user("rev", password="x" * 12)
    reviewer.role = "reviewer"
    reviewer.save()
    import_reports(_file(write_csv, [("r5", *SAMER[1:])], "c.csv"), source="s")
    five = Report.objects.get(report_id="r5")
    decisions.decide(five, one, "different", reviewer, "two men of one name")
    decisions.decide(five, three, "different", reviewer, "two men of one name")
    link_waiting()
    assert _persons()[five.pk] not in (persons[one.pk], persons[three.pk])
    assert not ReviewPair.objects.filter(left_report=five).exclude(status="decided").filter(
        right_report__in=[one, three]).exists()


def test_a_run_made_under_other_rules_is_not_extended(write_csv: object) -> None:
    """The persons in force were made by other linkage rules (an upgrade): a new report is not
    linked against them one by one; the worker runs the whole linkage again instead."""
    import_reports(_file(write_csv, [SAMER], "a.csv"), source="s")
    link_all()
    run = current_run()
    assert run is not None and run.algorithm_version.startswith("1, rules v")
    import_reports(_file(write_csv, [("r3", *SAMER[1:])], "b.csv"), source="s")
    type(run).objects.filter(pk=run.pk).update(algorithm_version="1")  # made before the rules' version was kept
    assert link_waiting() is None


@pytest.mark.parametrize("first", ["compound", "short"])
def test_a_second_reading_links_a_new_report_as_the_full_run_does(write_csv: object, first: str) -> None:
    """"Muhammad Ammar" is called Ammar (readings.py): whichever of the two reports comes later, the
    worker links it to the other through the second reading, as a full run over both does."""
    header = ["report_id", "full_name_ar", "full_name_latin", "birth_year", "city"]
    compound = ["m1", "محمد عمار الساعاتي", "", "1967", "دمشق"]
    short = ["m2", "", "Ammar Saati", "1967", "دمشق"]
    brother = ["b1", "خالد عمار الساعاتي", "", "1969", "دمشق"]
    early, late = (compound, short) if first == "compound" else (short, compound)
    import_reports(write_csv(header, [early, brother], name="a.csv"), source="s")  # type: ignore[operator]
    link_all()
    import_reports(write_csv(header, [late], name="b.csv"), source="s")  # type: ignore[operator]
    done = link_waiting()
    assert done is not None and done["reports"] == 1
    one, two, three = (Report.objects.get(report_id=r) for r in ("m1", "m2", "b1"))
    incremental = _persons()
    assert incremental[one.pk] == incremental[two.pk] != incremental[three.pk]
    link = ReportLink.objects.get(run__is_current=True, report=Report.objects.get(report_id=late[0]))
    assert "second reading" in json.dumps(link.explanation, ensure_ascii=False)
    link_all()
    full = _persons()
    assert full[one.pk] == full[two.pk] != full[three.pk]


FAMILY_FIRST = ("s101b", "s131b", "s146b")  # "يعقوب يعقوب عبد الحميد": the family name written first


def test_a_new_report_is_read_with_the_stores_order_votes(tmp_path: Path) -> None:
    """Whether "حداد عبد الرزاق أحمد" is written family-name-first is what the store says of حداد
    (order.py): the worker reads a new report with the votes the last full run counted, so the
    family-first copies of three men join them as a full run over everything does."""
    source = Path(__file__).parents[2] / "benchmarks" / "linkage" / "data" / "one_slip.csv"
    with source.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    header = [c for c in rows[0] if c not in ("person_id", "family_id", "slip")]
    for name, keep in (("store.csv", lambda r: r["report_id"] not in FAMILY_FIRST),
                       ("new.csv", lambda r: r["report_id"] in FAMILY_FIRST)):
        with (tmp_path / name).open("w", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=header, extrasaction="ignore")
            writer.writeheader()
            writer.writerows(r for r in rows if keep(r))
    import_reports(tmp_path / "store.csv", source="store")
    link_all()
    import_reports(tmp_path / "new.csv", source="new")
    done = link_waiting()
    assert done is not None and done["reports"] == len(FAMILY_FIRST)
    persons = _persons()
    pk = dict(Report.objects.current().values_list("report_id", "pk"))
    apart = [r for r in FAMILY_FIRST if persons[pk[r]] != persons[pk[r[:-1] + "a"]]]
    assert not apart, apart


SULTAN_HEADER = ["report_id", "full_name_ar", "full_name_latin", "first_name", "father_name", "family_name",
                 "mother_name", "sex", "birth_year", "birth_place", "governorate", "city", "arrest_date",
                 "arresting_agency"]
# Two men called Sultan Muhammad al-Zoubi from Hama (the independent Syrian dev set, P00107 and
# P02529): the first run, seeing one report of each, makes them one person; the reports that come
# later name two mothers.
SULTAN_FIRST = [
    ["LOC-005890", "سلطان محمد محمد الزعبي", "", "", "", "", "", "ذكر", "", "تل رفعت", "حماة", "", "2012",
     "فرع فلسطين"],
    ["INT-000238", "", "", "Sultan", "Mohammad", "El Zoabi", "", "Male", "1978", "", "Hama", "Salamieh",
     "2011-04-19", "248"],
]
SULTAN_LATER = [
    ["LOC-000237", "سلطان محمد الزعبي", "", "", "", "", "", "ذ", "1978-09-25", "", "حماة", "السلمية",
     "2011-04-19", "فرع 227"],
    ["FAM-000236", "", "", "سلطان", "محمد", "الزعبي", "زينب الزعبي", "M", "", "", "", "السلميه", "2011-04-19",
     "248"],
    ["FAM-005889", "سلطان محمد محمد الزعبي", "Sultan Muhammad Mhd. Al-Zubi", "", "", "", "", "", "1968-11-06",
     "", "", "", "2012-10-11", "فرع فلسطين (235)"],
    ["NGO-005891", "", "", "سلطان", "", "الزبي", "فاطمة الخلف", "ذكر", "1968-11-06", "حلب", "حماة", "السلمية",
     "2012-10-11", "فرع 235"],
]


def test_a_later_report_splits_two_namesakes_as_the_full_run_does(write_csv: object) -> None:
    """Two namesakes the first run joined (it saw nothing to keep them apart) are kept apart by the
    mothers' names of reports that come later: the worker clusters the persons a refused edge
    touches again, as a full run does, instead of keeping the first run's person and refusing the
    newcomer."""
    import_reports(write_csv(SULTAN_HEADER, SULTAN_FIRST, name="a.csv"), source="s")  # type: ignore[operator]
    link_all()
    pk = dict(Report.objects.current().values_list("report_id", "pk"))
    assert _persons()[pk["LOC-005890"]] == _persons()[pk["INT-000238"]]  # what the first run made
    import_reports(write_csv(SULTAN_HEADER, SULTAN_LATER, name="b.csv"), source="s")  # type: ignore[operator]
    pk = dict(Report.objects.current().values_list("report_id", "pk"))
    done = link_waiting()
    assert done is not None and done["reports"] == 4
    incremental = _persons()
    link_all()
    full = _persons()
    keys = sorted(full)
    assert evaluate_clusters([incremental[k] for k in keys], [full[k] for k in keys])["pairwise_f1"] == 1.0
    assert incremental[pk["LOC-005890"]] != incremental[pk["INT-000238"]]
    assert incremental[pk["LOC-005890"]] == incremental[pk["NGO-005891"]]


def test_past_the_neighbourhood_limit_the_worker_keeps_the_greedy_join(write_csv: object, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Clustering again costs the square of the reports at hand: past RECLUSTER_MAX_REPORTS the worker
    joins as before (the first run's person kept, the newcomer refused) and the next full run splits."""
    from athar.registry import incremental

    monkeypatch.setattr(incremental, "RECLUSTER_MAX_REPORTS", 3)
    import_reports(write_csv(SULTAN_HEADER, SULTAN_FIRST, name="a.csv"), source="s")  # type: ignore[operator]
    link_all()
    import_reports(write_csv(SULTAN_HEADER, SULTAN_LATER, name="b.csv"), source="s")  # type: ignore[operator]
    pk = dict(Report.objects.current().values_list("report_id", "pk"))
    done = link_waiting()
    assert done is not None and done["reports"] == 4 and done["reclustered"] == 0
    assert _persons()[pk["LOC-005890"]] == _persons()[pk["INT-000238"]]  # the first run's person kept


def test_a_merge_takes_the_review_pairs_inside_the_new_person_out_of_the_queue(write_csv: object) -> None:
    """The queue offers pairs of two persons, never two reports of one (link.review_queue): when a new
    report joins two persons, or moves a report, a pair left open between reports that are now one
    person is taken out (the reviewer would be asked about what is already decided)."""
    from athar.registry.bulk import create_persons

    import_reports(_file(write_csv, [SAMER, ("r3", *SAMER[1:])], "a.csv"), source="s")  # type: ignore[operator]
    link_all()
    one, three = Report.objects.get(report_id="r1"), Report.objects.get(report_id="r3")
    run = current_run()
    # the first run's persons made two (as an earlier run under a constraint would have), and a pair
    # between them offered for review
    ReportLink.objects.filter(run=run, report=three).update(person_id=create_persons(1)[0])
    ReviewPair.objects.create(run=run, left_report=one, right_report=three, probability=0.5,
                              explanation={"why": "test"})
    import_reports(_file(write_csv, [("r5", *SAMER[1:])], "b.csv"), source="s")  # type: ignore[operator]
    done = link_waiting()
    assert done is not None and done["reports"] == 1
    persons = _persons()
    assert persons[one.pk] == persons[three.pk]  # r5 joined both persons
    assert not ReviewPair.objects.filter(run=run, status="open", left_report=one, right_report=three).exists()


JUMAA_HEADER = ["report_id", "full_name_ar", "sex", "birth_year", "city", "arrest_date"]


def _jumaa(report_id: str, year: str, arrested: str) -> list[str]:
    return [report_id, "عبد الرحيم هاني جمعة", "M", year, "شهبا", arrested]


def _one_more_jumaa(write_csv: object, report_id: str, year: str, arrested: str) -> dict:
    """Import one more report of the Jumaa namesakes and let the worker link it."""
    import_reports(write_csv(JUMAA_HEADER, [_jumaa(report_id, year, arrested)], name=f"{report_id}.csv"),  # type: ignore[operator]
                   source="s")
    done = link_waiting()
    assert done is not None
    return done


def _as_a_full_run(linked: dict[int, int]) -> bool:
    """Does a full run now make the persons the worker made (``linked``)?"""
    link_all()
    full = _persons()
    keys = sorted(full)
    return evaluate_clusters([linked[k] for k in keys], [full[k] for k in keys])["pairwise_f1"] == 1.0


def test_a_person_holding_two_agreed_facts_is_clustered_again_as_the_full_run_does(write_csv: object) -> None:
    """Two namesakes of one town, one report each and a third with neither's date: the first run makes
    one person (nothing keeps them apart). Later reports of each give two of each side's facts; no
    edge of theirs is refused, but a full run keeps the two apart (constraints v14: facts two
    reports of each side agree on), so the worker clusters the person again."""
    first = [_jumaa("a1", "1966", "2013-05-12"), _jumaa("b1", "1969", "2014-06-27"), [
        "s", "عبد الرحيم هاني جمعة", "M", "", "شهبا", ""]]
    import_reports(write_csv(JUMAA_HEADER, first, name="a.csv"), source="s")  # type: ignore[operator]
    link_all()
    pk = dict(Report.objects.current().values_list("report_id", "pk"))
    assert _persons()[pk["a1"]] == _persons()[pk["b1"]]  # what the first run made
    _one_more_jumaa(write_csv, "a2", "1966", "2013-05")
    assert _one_more_jumaa(write_csv, "b2", "1969", "2014-06")["reclustered"] == 1
    pk = dict(Report.objects.current().values_list("report_id", "pk"))
    incremental = _persons()
    assert incremental[pk["a1"]] == incremental[pk["a2"]] and incremental[pk["b1"]] == incremental[pk["b2"]]
    assert incremental[pk["a1"]] != incremental[pk["b1"]]
    assert _as_a_full_run(incremental)


@pytest.mark.parametrize("limit", [None, 5])
def test_a_report_outvoted_by_four_of_its_person_is_clustered_apart_as_the_full_run_does(
        write_csv: object, monkeypatch, limit: int | None) -> None:  # type: ignore[no-untyped-def]
    """A namesake's one report (arrested 2013-04) and two of another man's (2013-06): the first run
    makes one person (no side has four reports that agree). Two more reports of 2013-06 arrive one
    by one; no edge of theirs is refused, but a full run, taking the four alike first, refuses the
    namesake's (constraints.AGREED_BY_MANY), so the worker clusters the person again when the
    fourth arrives (constraints.holds_outvoted_report). With more reports at hand than the worker
    clusters again (``limit``: a brother of the same town meets them too), it clusters again the
    reports of the person the fourth would join."""
    from athar.registry import incremental

    if limit is not None:
        monkeypatch.setattr(incremental, "RECLUSTER_MAX_REPORTS", limit)
    brother = ["c1", "محمد هاني جمعة", "M", "1990", "شهبا", "2014-02-01"]
    first = [_jumaa("a1", "1980", "2013-06-10"), _jumaa("a2", "1980", "2013-06"), _jumaa("b1", "1980", "2013-04-02"),
             brother]
    import_reports(write_csv(JUMAA_HEADER, first, name="a.csv"), source="s")  # type: ignore[operator]
    link_all()
    pk = dict(Report.objects.current().values_list("report_id", "pk"))
    assert _persons()[pk["a1"]] == _persons()[pk["b1"]]  # what the first run made
    assert _one_more_jumaa(write_csv, "a3", "1980", "2013-06-20")["reclustered"] == 0  # three alike: kept
    assert _one_more_jumaa(write_csv, "a4", "1980", "2013-06")["reclustered"] == 1
    pk = dict(Report.objects.current().values_list("report_id", "pk"))
    linked = _persons()
    assert len({linked[pk[a]] for a in ("a1", "a2", "a3", "a4")}) == 1
    assert linked[pk["a1"]] != linked[pk["b1"]] and linked[pk["c1"]] not in (linked[pk["a1"]], linked[pk["b1"]])
    assert _as_a_full_run(linked)


def test_names_only_reports_each_others_only_candidate_link_in_the_worker_as_in_a_full_run(
        write_csv: object, tmp_path: Path) -> None:
    """link.lift_only_candidates in the worker: the new report's one candidate meets no other report.
    Among 700 other reports the model alone leaves "Maged Diab" / ماجد دياب for review (p ≈ 0.5)."""
    _import(tmp_path, 700, seed=4)
    header = ["report_id", "full_name_ar", "full_name_latin"]
    import_reports(write_csv(header, [["a1", "ماجد دياب", ""]], name="a.csv"), source="s")  # type: ignore[operator]
    link_all()
    import_reports(write_csv(header, [["a2", "", "Maged Diab"]], name="b.csv"), source="s")  # type: ignore[operator]
    done = link_waiting()
    assert done is not None and done["reports"] == 1
    one, two = Report.objects.get(report_id="a1"), Report.objects.get(report_id="a2")
    assert _persons()[one.pk] == _persons()[two.pk]
    link_all()
    assert _persons()[one.pk] == _persons()[two.pk]


def test_a_name_two_reports_of_the_store_share_links_in_the_worker_as_in_a_full_run(write_csv: object) -> None:
    header = ["report_id", "full_name_ar", "full_name_latin"]
    import_reports(write_csv(header, [["a1", "ماجد دياب", ""], ["b1", "سامر خالد العلي", ""],  # type: ignore[operator]
                                      ["a3", "ماجد دياب", ""]], name="a.csv"), source="s")
    link_all()
    import_reports(write_csv(header, [["a2", "", "Maged Diab"]], name="b.csv"), source="s")  # type: ignore[operator]
    link_waiting()
    ids = [Report.objects.get(report_id=r).pk for r in ("a1", "a2", "a3")]
    worker = _persons()
    link_all()
    full = _persons()
    assert [worker[a] == worker[b] for a in ids for b in ids] == [full[a] == full[b] for a in ids for b in ids]
    assert ReportLink.objects.filter(run__is_current=True, report_id=ids[1]).exists()


NAMES_ONLY = ["report_id", "full_name_ar", "full_name_latin"]


def _lifted_pair(write_csv: object, tmp_path: Path, by: str) -> tuple[Report, Report]:
    """ماجد دياب / Maged Diab among 700 other reports, linked by link.lift_only_candidates: by a full
    run over both, or by the worker when the Latin copy comes later."""
    _import(tmp_path, 700, seed=4)
    first = [["a1", "ماجد دياب", ""]] + ([["a2", "", "Maged Diab"]] if by == "full" else [])
    import_reports(write_csv(NAMES_ONLY, first, name="a.csv"), source="s")  # type: ignore[operator]
    link_all()
    if by == "worker":
        import_reports(write_csv(NAMES_ONLY, [["a2", "", "Maged Diab"]], name="b.csv"), source="s")  # type: ignore[operator]
        assert link_waiting() is not None
    one, two = Report.objects.get(report_id="a1"), Report.objects.get(report_id="a2")
    assert _persons()[one.pk] == _persons()[two.pk]  # the lift
    return one, two


def _same_partition(ids: list[int]) -> tuple[list[bool], list[bool]]:
    worker = _persons()
    link_all()
    full = _persons()
    return ([worker[a] == worker[b] for a in ids for b in ids], [full[a] == full[b] for a in ids for b in ids])


@pytest.mark.parametrize(("by", "limit"), [("full", None), ("worker", None), ("full", 2)])
def test_a_third_report_close_to_a_lifted_pair_undoes_the_lift_as_a_full_run_does(
        write_csv: object, tmp_path: Path, monkeypatch, by: str, limit: int | None) -> None:  # type: ignore[no-untyped-def]
    """ماجد دياب and Maged Diab were each other's only candidate, and linked for it (by a full run or
    by the worker); "Majed Diab" comes later: each now has two candidates, and a full run leaves them
    for review. The worker splits the person again (by clustering the reports at hand again, or,
    past RECLUSTER_MAX_REPORTS (``limit``), by splitting the two-report person), offers the pair for
    review and places the newcomer by its own scores."""
    from athar.registry import incremental

    one, two = _lifted_pair(write_csv, tmp_path, by)
    if limit is not None:
        monkeypatch.setattr(incremental, "RECLUSTER_MAX_REPORTS", limit)
    import_reports(write_csv(NAMES_ONLY, [["x1", "", "Majed Diab"]], name="c.csv"), source="s")  # type: ignore[operator]
    done = link_waiting()
    assert done is not None and done["reports"] == 1 and done["lifts_undone"] == 1
    assert done["reclustered"] == int(limit is None)
    x = Report.objects.get(report_id="x1")
    persons = _persons()
    assert persons[one.pk] != persons[two.pk]
    run = current_run()
    assert ReviewPair.objects.filter(run=run, status="open", left_report=min(one, two, key=lambda r: r.pk),
                                     right_report=max(one, two, key=lambda r: r.pk)).exists()
    review = ReviewPair.objects.get(run=run, left_report=min(one, two, key=lambda r: r.pk),
                                    right_report=max(one, two, key=lambda r: r.pk))
    assert 0.2 <= review.probability < 0.9 and "only candidate" not in review.explanation["why"]
    for report in (one, two):  # neither explanation still speaks of the undone lift
        link = ReportLink.objects.get(run=run, report=report)
        assert "only candidate" not in json.dumps(link.explanation, ensure_ascii=False)
    worker, full = _same_partition([one.pk, two.pk, x.pk])
    assert worker == full


def test_a_reviewers_same_on_a_lifted_pair_outlives_a_third_report(write_csv: object, tmp_path: Path, make_user) -> None:  # type: ignore[no-untyped-def]
    one, two = _lifted_pair(write_csv, tmp_path, "full")
    """A reviewer judged the lifted pair one man: a later "Majed Diab" does not undo the decision (nor
    is the person clustered again for it), and the pair is not offered again."""
    decisions.decide(one, two, "same", make_user("reviewer"), "one man")
    import_reports(write_csv(NAMES_ONLY, [["x1", "", "Majed Diab"]], name="c.csv"), source="s")  # type: ignore[operator]
    done = link_waiting()
    assert done is not None and done["lifts_undone"] == 0 and done["reclustered"] == 0
    x = Report.objects.get(report_id="x1")
    assert _persons()[one.pk] == _persons()[two.pk]
    assert not ReviewPair.objects.filter(run=current_run(), status="open", left_report__in=[one, two],
                                         right_report__in=[one, two]).exists()
    worker, full = _same_partition([one.pk, two.pk, x.pk])
    assert worker == full


@pytest.mark.parametrize("again", [False, True])
def test_a_third_report_far_from_a_lifted_pair_leaves_it_linked(write_csv: object, tmp_path: Path, monkeypatch,  # type: ignore[no-untyped-def]
                                                                again: bool) -> None:
    """مجد دياب (Majd Diab) shares a block with both reports but meets neither at the review floor: the
    lift stands, nothing is clustered again; and when the persons at hand are clustered again for
    another reason (``again``: as if its person would hold two agreed facts), the lift is kept."""
    from athar.registry import incremental

    one, two = _lifted_pair(write_csv, tmp_path, "full")
    monkeypatch.setattr(incremental, "_holds_two_agreed_facts", lambda *args: again)
    import_reports(write_csv(NAMES_ONLY, [["x1", "مجد دياب", ""]], name="c.csv"), source="s")  # type: ignore[operator]
    done = link_waiting()
    assert done is not None and done["reports"] == 1 and done["reclustered"] == int(again) and done["moved"] == 0
    x = Report.objects.get(report_id="x1")
    persons = _persons()
    assert persons[one.pk] == persons[two.pk] != persons[x.pk]
    worker, full = _same_partition([one.pk, two.pk, x.pk])
    assert worker == full


HADDAD_HEADER = ["report_id", "full_name_ar", "mother_name", "sex", "birth_year", "city", "arrest_date"]
HADDADS = [(f"h{n}", f"محمد {father} الحداد", mother, "M", year, "داريا", date) for n, (father, mother, year, date) in
           enumerate((("فايز", "خديجة", "1975", "2012-04-14"), ("خالد", "زينب", "1980", "2012-03-20"),
                      ("أحمد", "فاطمة", "1985", "2013-01-05"), ("سليم", "هيام", "1970", "2012-08-30"),
                      ("عمر", "سعاد", "1990", "2013-06-11")))]


def _open_pairs_of(report: Report) -> int:
    return ReviewPair.objects.filter(run=current_run(), status="open").filter(
        Q(left_report=report) | Q(right_report=report)).count()


def test_a_bare_name_is_offered_against_its_three_strongest_namesakes_as_in_a_full_run(write_csv: object) -> None:
    """"محمد الحداد", Darayya, and nothing else, meets five Muhammad al-Haddad of Darayya: offered
    against three of them (settings.REVIEW_PER_REPORT), the strongest. The worker links the last two
    namesakes after a full run offered it against the first three: a pair beyond the cap leaves the
    queue, as a full run leaves it out."""
    from athar.matching.linkage.settings import REVIEW_PER_REPORT

    bare = ("t", "محمد الحداد", "", "M", "", "داريا", "2012")
    import_reports(write_csv(HADDAD_HEADER, [bare, *HADDADS[:3]], name="a.csv"), source="s")  # type: ignore[operator]
    link_all()
    import_reports(write_csv(HADDAD_HEADER, HADDADS[3:], name="b.csv"), source="s")  # type: ignore[operator]
    link_waiting()
    report = Report.objects.get(report_id="t")
    assert len(set(_persons().values())) == 6  # the bare name set aside, as a full run sets it aside
    by_worker = _open_pairs_of(report)
    link_all()
    assert by_worker == _open_pairs_of(report) == REVIEW_PER_REPORT
