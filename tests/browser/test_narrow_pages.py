"""At 360 × 740 in Arabic, the statistics, the identified list and a family's candidate page fit
the phone: nothing scrolls sideways, nothing is clipped, no word is cut across two lines and no
line holds only punctuation (a lone ")"). Screenshots go to artifacts/screenshots/narrow/."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.urls import reverse

from tests.browser.conftest import PHONE, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Elements whose box is wider than the screen, or that clip what they hold (a scroll container
# with more content than room), or that stand outside the screen; visually hidden ones excepted.
CLIPPED = """() => {
  const out = [], width = window.innerWidth;
  for (const el of document.querySelectorAll('main *')) {
    const style = getComputedStyle(el), rect = el.getBoundingClientRect();
    if (rect.width <= 1 || rect.height <= 1 || style.display === 'none' || style.visibility === 'hidden') continue;
    const clips = style.overflowX !== 'visible';
    if (clips && el.scrollWidth > el.clientWidth + 1) out.push(`clips: ${el.tagName}.${el.className} ${el.scrollWidth}>${el.clientWidth}`);
    if (rect.left < -1 || rect.right > width + 1) out.push(`outside: ${el.tagName}.${el.className} ${Math.round(rect.left)}..${Math.round(rect.right)}`);
  }
  return out;
}"""
# Per line of each text block: its characters (by the top of each character's box). A line of
# punctuation alone, or a word whose letters sit on two lines, is a layout that cut the text.
CUT_TEXT = """(selector) => {
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const lines = new Map();
    let node;
    while ((node = walker.nextNode())) {
      const text = node.data;
      let word = [], start = 0;
      const tops = [];
      for (let i = 0; i < text.length; i++) {
        const range = document.createRange(); range.setStart(node, i); range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        const top = rect ? Math.round(rect.top + rect.height / 2) : null;
        tops.push(top);
        if (top !== null) {
          const key = [...lines.keys()].find(k => Math.abs(k - top) < 4) ?? top;
          lines.set(key, (lines.get(key) || '') + text[i]);
        }
      }
      for (const m of text.matchAll(/[^\\s]+/gu)) {
        const seen = new Set();
        for (let i = m.index; i < m.index + m[0].length; i++) if (tops[i] !== null) seen.add(Math.round(tops[i] / 8));
        const spread = Math.max(...[...seen]) - Math.min(...[...seen]);
        if (seen.size > 1 && spread > 1) out.push(`word cut: ${JSON.stringify(m[0])} in ${JSON.stringify(el.textContent.trim().slice(0, 60))}`);
      }
    }
    for (const text of lines.values())
      if (text.trim() && /^[\\s\\p{P}\\p{S}]+$/u.test(text)) out.push(`punctuation alone: ${JSON.stringify(text)} in ${JSON.stringify(el.textContent.trim().slice(0, 60))}`);
  }
  return out;
}"""
TEXT_BLOCKS = "main th, main td, main dd, main dt, main li, main p, main h1, main h2, main figcaption"


def _archive() -> Any:
    """Facilities named as the table names them (long Arabic names, an English-only name with
    brackets), cases over several months, and a published identification whose family agreed."""
    from athar.archive.models import Agency, Case, Facility
    from tests.web.factories import make_case

    agency = Agency.objects.create(code="mi", name_en="Military Intelligence", name_ar="شعبة المخابرات العسكرية")
    names = {"215": ("فرع المداهمة والاقتحام التابع لشعبة المخابرات العسكرية", "Raids Branch"),
             "227": ("فرع المنطقة (فرع دمشق) التابع للمخابرات العسكرية", "Area Branch"),
             "235": ("", "Palestine Branch (military-intelligence)")}
    cases = []
    for i, (code, (ar, en)) in enumerate(names.items()):
        for j in range(1 + i):
            case = make_case(f"N{code}-{j}", facility_code=code)
            Case.objects.filter(pk=case.pk).update(photographed=dt.date(2012 + j, 3 + i, 1),
                                                   photographed_precision="month", age_min=25, age_max=35)
            cases.append(case)
        Facility.objects.filter(code=code).update(name_ar=ar, name_en=en, agency=agency)
    return cases


def _published(case: Any, make_user: Any) -> Any:
    """A family's report, claimed, approved by two reviewers, told in person, agreed and published."""
    from athar.identification import claims
    from athar.identification import services as ident
    from tests.web.factories import make_candidate, make_report, person_for

    caseworker = make_user("caseworker")
    family = make_user("family", caseworker=caseworker)
    report = make_report(family, caseworker, name="عبد الرحمن محمد خير الدين الحموي",
                         city="دير الزور", birth_year=1984, arrest_date=dt.date(2012, 2, 1),
                         arrest_date_precision="month", arresting_agency="215",
                         distinguishing_marks="ندبة طويلة فوق الحاجب الأيسر")
    candidate = make_candidate(report, case)
    claims.make_claim(person_for(candidate), case, "is_them", family, report=report)
    identification = case.identifications.get()
    for reviewer in (make_user("reviewer"), make_user("reviewer")):
        claims.review(identification, reviewer, "approve", "ok")
    report.consent = {**report.consent, "publication": True}
    report.save()
    ident.record_informed(identification.pk, report.pk, caseworker, dt.date.today(), "in_person")
    claims.publish(identification, caseworker)
    return family, report


def _check(page: Any, shot: Any, name: str) -> dict[str, list[str]]:
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("dir") == "rtl"
    shot(name)
    problems = page.evaluate(CLIPPED) + page.evaluate(CUT_TEXT, TEXT_BLOCKS)
    if page.evaluate("document.documentElement.scrollWidth") > page.evaluate("window.innerWidth"):
        problems.append(f"the page scrolls sideways: {page.evaluate('document.documentElement.scrollWidth')}")
    return {name: problems} if problems else {}


def test_statistics_identified_and_a_candidate_fit_a_phone_in_arabic(browser, live_server, make_user, shots) -> None:
    from athar.identification.models import Candidate
    from tests.web.test_arabic_everywhere import REAL_REASONS

    cases = _archive()
    family, report = _published(cases[0], make_user)
    other = make_user("family", caseworker=report.caseworker)
    from tests.web.factories import make_candidate, make_report

    waiting = make_report(other, report.caseworker, name="سامر الحلبي", birth_year=1980, arresting_agency="فرع 227",
                          distinguishing_marks="وشم نسر على الساعد الأيسر", arrest_date=dt.date(2013, 1, 1),
                          arrest_date_precision="month")
    candidate = make_candidate(waiting, cases[1])
    Candidate.objects.filter(pk=candidate.pk).update(reasons=REAL_REASONS)

    context = browser.new_context(viewport=PHONE, locale="ar", is_mobile=True, has_touch=True)
    page = context.new_page()
    shot = shots(page, "narrow")
    problems: dict[str, list[str]] = {}
    page.goto(live_server.url + reverse("web:stats"))
    assert page.locator("table.bars tr").count() >= 3
    problems |= _check(page, shot, "statistics")
    page.goto(live_server.url + reverse("web:identified"))
    assert page.locator("text=عبد الرحمن محمد خير الدين الحموي").count() == 1
    problems |= _check(page, shot, "identified")
    sign_in(page, live_server.url, other.login)
    page.goto(live_server.url + reverse("web:candidate", args=[candidate.pk]) + "?ready=1")
    assert page.locator("section.why").count() == 1
    problems |= _check(page, shot, "candidate")
    context.close()
    assert problems == {}
