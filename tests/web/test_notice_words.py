"""Notices speak words, not codes: every kind and status of a caseworker's notice, rendered from its
structured fields through gettext, in Arabic and English — no "(verified)", "(set_aside)", no
identifier in brackets, and publication is not "a review decision"."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from athar.identification.models import Notice
from tests.web.test_arabic_everywhere import ALLOWED_WORDS, catalogue_ids, english_left, visible_text

pytestmark = pytest.mark.django_db
STATUSES = ["under_review", "verified", "published", "rejected", "withdrawn", "set_aside"]


def _every_notice(world) -> None:
    user, report, case = world.caseworker, world.report, world.case
    rows = [Notice(user=user, kind="candidate", key="c", report=report, case=case),
            Notice(user=user, kind="inform", key="i", report=report, case=case, status="1")]
    rows += [Notice(user=user, kind="decision", key=f"d{s}", report=report, case=case, status=s) for s in STATUSES]
    rows += [Notice(user=user, kind="tell", key=f"t{s}", report=report, case=case, status=s) for s in STATUSES]
    Notice.objects.bulk_create(rows)


def _notices_and_tasks(client) -> str:
    page = client.get(reverse("web:caseworker_home")).content.decode()
    notices = re.search(r'<section class="card" aria-labelledby="notices-h">(.*?)</section>', page, re.DOTALL)
    tasks = re.search(r'<section class="card warning" aria-labelledby="tasks-h">(.*?)</section>', page, re.DOTALL)
    assert notices and tasks
    return notices.group(1) + tasks.group(1)


def test_notices_in_arabic_carry_no_code_and_no_english(client_for, world):
    _every_notice(world)
    shown = _notices_and_tasks(client_for(world.caseworker))
    text = visible_text(shown)
    for code in STATUSES:
        assert code not in text
    assert "(1)" not in text
    names = {w.lower() for w in re.findall(r"[A-Za-z]+", f"{world.report.full_name_latin} {world.report.report_id}")}
    assert english_left(text, catalogue_ids(), ALLOWED_WORDS | names) == []
    assert "نُشر" in text or "نشر" in text  # publication said as such


def test_notices_in_english_say_what_happened(client_for, world):
    _every_notice(world)
    with translation.override("en"):
        text = visible_text(_notices_and_tasks(client_for(world.caseworker)))
    for code in STATUSES:
        assert f"({code})" not in text and ("_" not in code or code not in text)
    assert "(1)" not in text and "review decision" not in text
    assert "An identification was published" in text and "Reviewers rejected an identification" in text
    assert "went back to review" in text
