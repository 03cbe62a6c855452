"""``athar candidates``: the ranked, explained list for a person or a report, stored with its version."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from athar.identification.models import Ranking
from athar.matching.scoring import load_algorithm


def run_json(capsys: Any, name: str, *args: str) -> dict[str, Any]:
    """Run an athar command with --json; the last line of standard output is the result."""
    capsys.readouterr()
    call_command(name, *args, "--json")
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


@pytest.fixture
def candidates(capsys: Any) -> Any:
    return lambda *args: run_json(capsys, "candidates", *args)


def test_by_report_ranks_the_matching_case_first_with_reasons(world: Any, candidates: Any) -> None:
    world.report(report_id="F-1")
    result = candidates("--report", "F-1", "--limit", "3")
    top = result["candidates"][0]
    assert top["case"] == world.cases["palestine"].pk
    assert top["facility"] == "215" and top["detainee_number"] == "3412"
    details = " ".join(r["detail"] for r in top["reasons"])
    assert "map of palestine" in details and "same facility" in details
    assert result["algorithm"] == "athar-ident" and result["algorithm_version"] == load_algorithm().version
    assert result["cases"] == 5 and len(result["candidates"]) == 3
    assert result["decision"] in ("likely_match", "no_likely_match")
    assert result["has_photo"] is False and "to_look_at_first" in result


def test_by_person_merges_reports_and_stores_one_current_ranking(world: Any, candidates: Any) -> None:
    person = world.person()
    world.report(person, distinguishing_marks="", extra={"detainee_number": "3412"})
    first = candidates("--person", str(person.pk))
    again = candidates("--person", str(person.pk), "--refresh")
    assert first["candidates"][0]["case"] == again["candidates"][0]["case"] == world.cases["palestine"].pk
    assert Ranking.objects.filter(person=person, is_current=True).count() == 1


def test_contradictions_lower_but_keep_every_case(world: Any, candidates: Any) -> None:
    world.report(report_id="F-2", sex="F", birth_year=1950, arresting_agency="فرع الخطيب")
    result = candidates("--report", "F-2", "--limit", "50")
    assert len(result["candidates"]) == 5


def test_unknown_person_or_report_is_a_clear_error(world: Any) -> None:
    with pytest.raises(SystemExit):
        call_command("candidates", "--report", "nope", "--json", stdout=StringIO())


def test_human_output_states_a_comparison_not_a_death(world: Any) -> None:
    world.report(report_id="F-3")
    out = StringIO()
    call_command("candidates", "--report", "F-3", stdout=out)
    text = out.getvalue()
    assert "to look at first" in text and "dead" not in text.lower()


def test_a_detainee_number_on_the_report_counts_as_evidence(world: Any, candidates: Any) -> None:
    """The family's number, in Arabic digits, points at the case carrying it."""
    world.report(report_id="N-1", distinguishing_marks="", arresting_agency="", detainee_number="٣٤١٣")
    top = candidates("--report", "N-1", "--limit", "5")["candidates"][0]
    assert top["case"] == world.cases["scar"].pk
    assert any(r["feature"] == "number" for r in top["reasons"]), top["reasons"]


def test_a_number_archivists_confirmed_in_a_photo_is_strong_evidence(world: Any, candidates: Any,
                                                                   make_user: Any) -> None:
    """The family's number matches no recorded number, but archivists confirmed it in a photo of a
    case: that case comes first, with the reason; a mismatch elsewhere does not remove any case."""
    from athar.archive import number_review
    from athar.archive.models import Case
    from tests.archive.numbers_world import reading_on_new_photo

    first, second = make_user("archivist"), make_user("archivist")
    world.report(report_id="N-2", distinguishing_marks="", arresting_agency="", detainee_number="٩٠٢١")
    before = candidates("--report", "N-2", "--limit", "50")
    target = Case.objects.get(pk=before["candidates"][1]["case"])  # second before any number is confirmed
    reading = reading_on_new_photo(target, "9021", seed=1, kind="detainee")
    number_review.confirm(first, reading.pk)
    assert candidates("--report", "N-2", "--limit", "50", "--refresh")["candidates"][0]["case"] != target.pk
    number_review.confirm(second, reading.pk)  # one archivist was not enough: it changes the case
    after = candidates("--report", "N-2", "--limit", "50", "--refresh")
    assert after["algorithm_version"] == "1.3"
    top = after["candidates"][0]
    assert top["case"] == target.pk
    reason = next(r for r in top["reasons"] if r["feature"] == "number")
    assert reason["level"] == "confirmed_same_number" and "confirmed" in reason["detail"]
    assert len(after["candidates"]) == len(before["candidates"])  # every case kept
