"""A reviewer decides, in the browser, a pair of reports the linkage was unsure of (issue 28: the
review queue is part of the product). A list of 300 reports, each with its family's contact, is
imported and linked; the run offers the pairs it is unsure of; the reviewer, signed in with two
factors, sees the strongest one's reports side by side with the model's reasons and never a
family's contact, records a verdict with a reason, and the next full run keeps it: the pair is no
longer offered and the two reports are one person (or two). Screenshots under
artifacts/screenshots/flow-link-review-<language>/, axe-core checked, in Arabic and in English."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from athar.matching.linkage import write_template_csv
from athar.registry.importing import import_reports
from athar.registry.linkage import link_all
from athar.registry.lookup import person_of
from athar.registry.models import LinkDecision, Report, ReviewPair, Verdict
from tests.accounts.otp import enrolled
from tests.browser.conftest import needs_axe, page_path

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), needs_axe]


def _contact(index: int) -> str:
    return f"+963 944 {index:06d} / family{index}@example.org"




def _import_a_list(folder: Path) -> None:
    """300 synthetic reports (names in both scripts, dates, places), a family's contact on each."""
    path = write_template_csv(folder / "list.csv", 300, seed=11)
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=[*rows[0].keys(), "reporter_contact"])
        writer.writeheader()
        writer.writerows({**row, "reporter_contact": _contact(i)} for i, row in enumerate(rows))
    import_reports(path, source="a-list", ignore_columns={"person_id"})


def _name(report: Report) -> str:
    return report.full_name_ar or report.full_name_latin or " ".join(
        n for n in (report.first_name, report.father_name, report.family_name) if n)


@pytest.mark.parametrize("language", ["ar", "en"])
def test_a_reviewer_decides_the_strongest_unsure_pair_and_the_next_run_keeps_it(walk, make_user, two_factor,
                                                                                 tmp_path, language):
    _import_a_list(tmp_path)
    link_all()
    offered = ReviewPair.objects.filter(run__is_current=True, status=ReviewPair.Status.OPEN).order_by("-probability")
    assert offered.exists()
    first = offered.first()
    left, right = first.left_report, first.right_report
    assert person_of(left) != person_of(right)  # a guess is not a link
    reviewer = make_user("reviewer", login="reviewer@example.org")

    w = walk(f"flow-link-review-{language}", language)
    page = w.page
    w.sign_in(reviewer.login, enrolled(reviewer))
    w.go(page_path("web:link_review"))
    w.step("queue")
    assert page.locator("article.link-pair").first.get_attribute("id") == f"pair-{first.pk}"  # strongest first
    pair = page.locator(f"#pair-{first.pk}")
    sides = pair.locator(".side-by-side > section")
    assert sides.count() == 2
    assert _name(left) in sides.nth(0).inner_text() and _name(right) in sides.nth(1).inner_text()
    assert pair.locator("ul li").count() >= 1  # the model's reasons
    html = page.content()
    assert "@example.org" not in html and "+963 944" not in html  # never a family's contact

    pair.locator("input[name=verdict][value=different]").check()
    pair.locator("textarea[name=reason]").fill("different mothers: checked with both families")
    pair.locator("button[type=submit]").click()
    w.step("decided")
    assert page.locator(f"#pair-{first.pk}").count() == 0
    assert "different mothers" in page.locator("section[aria-labelledby=in-force]").inner_text()
    w.close()
    assert not w.problems, w.problems

    decision = LinkDecision.objects.get()
    assert decision.verdict == Verdict.DIFFERENT and decision.user == reviewer
    link_all()  # the next full run: the decision wins over the model and the pair is not offered again
    assert person_of(left) != person_of(right)
    still = ReviewPair.objects.filter(run__is_current=True, status=ReviewPair.Status.OPEN)
    assert not still.filter(left_report__in=[left, right], right_report__in=[left, right]).exists()
