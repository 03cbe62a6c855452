"""Reviewer decisions on linkage pairs from the command line, and their effect on the next run."""

import csv
import io
import sys
from unittest.mock import patch

import pytest

from athar.core.command import subcommands
from athar.registry.importing import import_reports
from athar.registry.linkage import link_all
from athar.registry.models import LinkDecision, Report

pytestmark = pytest.mark.django_db


PASSWORD = "a long test password\n"


def run(group: str, name: str, stdin: str = PASSWORD, **options):
    """The action as its operator runs it: the acting account's password on standard input."""
    with patch.object(sys, "stdin", io.StringIO(stdin)):
        return subcommands(group)[name].run(options)


def import_rows(folder, rows):
    path = folder / "reports.csv"
    header = sorted({k for row in rows for k in row})
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=header)
        writer.writeheader()
        writer.writerows(rows)
    import_reports(path, source="test")


def test_decide_different_keeps_reports_apart_and_undecide_restores_the_model(tmp_path, make_user):
    reviewer = make_user("reviewer")
    import_rows(tmp_path, [
        {"report_id": "1", "full_name_ar": "محمود أحمد السالم", "birth_year": "1985", "governorate": "حمص"},
        {"report_id": "2", "full_name_latin": "Mahmoud Ahmad al-Salem", "birth_year": "1985", "governorate": "Homs"},
    ])
    a, b = Report.objects.order_by("pk")
    link_all("duckdb")
    together = a.links.latest("run_id").person_id == b.links.latest("run_id").person_id
    result = run("registry", "decide", pair=None, reports=[a.pk, b.pk], verdict="different",
                 reason="different mothers", by=reviewer.login)
    link_all("duckdb")
    assert a.links.latest("run_id").person_id != b.links.latest("run_id").person_id
    run("registry", "undecide", decision=result["decision_id"], reason="mistake", by=reviewer.login)
    link_all("duckdb")
    assert (a.links.latest("run_id").person_id == b.links.latest("run_id").person_id) == together
    assert LinkDecision.objects.count() == 2  # the decision and its reversal, nothing deleted


def test_only_reviewers_decide_and_a_reason_is_required(tmp_path, make_user):
    family = make_user("family")
    reviewer = make_user("reviewer")
    import_rows(tmp_path, [{"report_id": "1", "full_name_latin": "Omar Khaled"},
                           {"report_id": "2", "full_name_latin": "Umar Khalid"}])
    a, b = Report.objects.order_by("pk")
    with pytest.raises(ValueError, match="only an active reviewer"):
        run("registry", "decide", pair=None, reports=[a.pk, b.pk], verdict="same", reason="x", by=family.login)
    with pytest.raises(ValueError, match="reason"):
        run("registry", "decide", pair=None, reports=[a.pk, b.pk], verdict="same", reason=" ", by=reviewer.login)


def test_decide_and_undecide_need_the_reviewers_own_password(tmp_path, make_user):
    """Whoever runs the command cannot record a link decision as another reviewer (issue 26)."""
    from athar.audit.models import AuditEvent

    reviewer = make_user("reviewer")
    import_rows(tmp_path, [{"report_id": "1", "full_name_latin": "Omar Khaled"},
                           {"report_id": "2", "full_name_latin": "Umar Khalid"}])
    a, b = Report.objects.order_by("pk")
    for stdin in ("", "wrong password\n"):
        with pytest.raises(ValueError, match="credentials"):
            run("registry", "decide", stdin=stdin, pair=None, reports=[a.pk, b.pk], verdict="same", reason="x",
                by=reviewer.login)
    assert not LinkDecision.objects.exists()
    assert AuditEvent.objects.filter(action="cli.actor_refused", object_id=str(reviewer.pk)).count() == 2
    decided = run("registry", "decide", pair=None, reports=[a.pk, b.pk], verdict="same", reason="x",
                  by=reviewer.login)
    with pytest.raises(ValueError, match="credentials"):
        run("registry", "undecide", stdin="wrong\n", decision=decided["decision_id"], reason="y", by=reviewer.login)
    assert LinkDecision.objects.count() == 1
