"""Claims, the two-reviewer rule, each conflict kind, evidence levels, reversal and the audit chain."""

from __future__ import annotations

from typing import Any

import pytest

from athar.archive.models import Case
from athar.audit.chain import verify_chain
from athar.audit.models import AuditEvent
from athar.identification import claims as rules
from athar.identification import conflicts
from athar.identification.models import Conflict, Identification


@pytest.fixture
def people(world: Any) -> dict[str, Any]:
    caseworker = world.make_user("caseworker")
    mother = world.make_user("family", caseworker=caseworker)
    brother = world.make_user("family")
    return {"mother": mother, "brother": brother, "caseworker": caseworker,
            "r1": world.make_user("reviewer"), "r2": world.make_user("reviewer"), "r3": world.make_user("reviewer"),
            "outsider": world.make_user("family"), "archivist": world.make_user("archivist"),
            "person": world.person(reporter=mother)}


def _claim(world: Any, p: dict[str, Any], case: str = "palestine", who: str = "mother", **kw: Any) -> Any:
    return rules.make_claim(p["person"], world.cases[case], kw.pop("verdict", "is_them"), p[who], **kw)


def _ident(p: dict[str, Any], world: Any, case: str = "palestine") -> Identification:
    return Identification.objects.get(person=p["person"], case=world.cases[case])


def _claimant_reviewer(world: Any, p: dict[str, Any]) -> Any:
    """An administrator who (by an old rule) made a claim on the pair: never its reviewer."""
    from athar.identification.models import Claim

    admin = world.make_user("admin")
    Claim.objects.create(person=p["person"], case=world.cases["palestine"], verdict="is_them", by=admin)
    return admin


def _inform_and_publish(p: dict[str, Any], ident: Identification) -> Identification:
    """The family is told by its caseworker, consents, and the caseworker publishes."""
    import datetime as dt

    from athar.registry.lookup import reports_of

    (report,) = reports_of(p["person"])
    report.consent = {"publication": True, "face_processing": True}
    report.save(update_fields=["consent"])
    rules.record_family_informed(ident, report, p["caseworker"], informed_on=dt.date.today(), method="in_person")
    rules.publish(ident, p["caseworker"])
    ident.refresh_from_db()
    return ident


def test_a_claim_opens_review_and_two_independent_reviewers_publish(world: Any, people: dict[str, Any]) -> None:
    _claim(world, people, relation="mother", certainty="certain")
    ident = _ident(people, world)
    assert ident.status == "under_review"
    assert Case.objects.get(pk=world.cases["palestine"].pk).status == "under_review"
    rules.review(ident, people["r1"], "approve")
    ident.refresh_from_db()
    assert ident.status == "under_review"  # one approval is not enough
    with pytest.raises(ValueError, match="already reviewed"):
        rules.review(ident, people["r1"], "approve")
    rules.review(ident, people["r2"], "approve")
    ident.refresh_from_db()
    assert ident.status == "verified" and ident.published_at is None  # verified, not yet public
    assert Case.objects.get(pk=world.cases["palestine"].pk).status == "under_review"
    ident = _inform_and_publish(people, ident)
    assert ident.status == "published" and ident.published_at is not None
    assert Case.objects.get(pk=world.cases["palestine"].pk).status == "identified"


def test_claimant_cannot_review_and_roles_are_enforced(world: Any, people: dict[str, Any]) -> None:
    with pytest.raises(rules.NotAllowed):
        _claim(world, people, who="outsider")  # a family that did not report this person
    with pytest.raises(rules.NotAllowed):
        _claim(world, people, who="archivist")
    admin = world.make_user("admin")
    with pytest.raises(rules.NotAllowed):  # an administrator is no family: it never claims
        rules.make_claim(people["person"], world.cases["palestine"], "is_them", admin)
    _claim(world, people)
    ident = _ident(people, world)
    with pytest.raises(rules.NotAllowed, match="not independent"):
        rules.review(ident, _claimant_reviewer(world, people), "approve")
    with pytest.raises(rules.NotAllowed):
        rules.review(ident, people["caseworker"], "approve")


def test_reversing_a_review_unpublishes_and_everything_is_audited(world: Any, people: dict[str, Any]) -> None:
    _claim(world, people)
    ident = _ident(people, world)
    rules.review(ident, people["r1"], "approve")
    second = rules.review(ident, people["r2"], "approve")
    with pytest.raises(ValueError, match="reason"):
        rules.reverse_review(second, people["r2"], "")
    with pytest.raises(rules.NotAllowed):
        rules.reverse_review(second, people["r1"], "not mine")
    rules.reverse_review(second, people["r2"], "the photo was of another body")
    ident.refresh_from_db()
    assert ident.status == "under_review"
    assert ident.reviews.count() == 2  # reversed, never deleted
    rules.review(ident, people["r3"], "approve")
    ident.refresh_from_db()
    assert ident.status == "verified"
    _inform_and_publish(people, ident)
    actions = list(AuditEvent.objects.order_by("seq").values_list("action", flat=True))
    for action in ("identification.claim", "identification.review", "identification.review_reversed",
                   "identification.verified", "identification.family_informed", "identification.published"):
        assert action in actions
    assert verify_chain().ok
    assert not any("photo was of another" in str(e.data) for e in AuditEvent.objects.all())  # no free text


def test_a_rejection_needs_a_reason_and_blocks(world: Any, people: dict[str, Any]) -> None:
    _claim(world, people)
    ident = _ident(people, world)
    with pytest.raises(ValueError, match="reason"):
        rules.review(ident, people["r1"], "reject")
    rules.review(ident, people["r1"], "reject", "the mark is on the other arm")
    rules.review(ident, people["r2"], "approve")
    ident.refresh_from_db()
    assert ident.status == "rejected"


def test_withdrawing_a_claim(world: Any, people: dict[str, Any]) -> None:
    claim = _claim(world, people)
    with pytest.raises(rules.NotAllowed):
        rules.withdraw_claim(claim, people["outsider"], "no")
    rules.withdraw_claim(claim, people["mother"], "we were wrong")
    claim.refresh_from_db()
    assert claim.withdrawn_at is not None and claim.withdrawn_by == people["mother"]
    with pytest.raises(ValueError, match="already"):
        rules.withdraw_claim(claim, people["mother"], "again")
    ident = _ident(people, world)
    assert ident.status == "withdrawn" and Case.objects.get(pk=ident.case_id).status == "unidentified"
    _claim(world, people, relation="mother")  # a new claim re-opens it
    ident.refresh_from_db()
    assert ident.status == "under_review"


def test_conflict_one_case_two_persons_blocks_until_resolved(world: Any, people: dict[str, Any]) -> None:
    other_family = world.make_user("family")
    other = world.person(reporter=other_family)
    _claim(world, people)
    rules.make_claim(other, world.cases["palestine"], "is_them", other_family)
    (conflict,) = Conflict.objects.filter(kind="case_two_persons")
    assert conflict.case == world.cases["palestine"] and conflict.claims.count() == 2
    ident = _ident(people, world)
    rules.review(ident, people["r1"], "approve")
    rules.review(ident, people["r2"], "approve")
    ident.refresh_from_db()
    assert ident.status == "under_review"  # blocked by the open conflict
    mine = people["person"].claims.get()
    with pytest.raises(rules.NotAllowed):
        conflicts.resolve(conflict, people["caseworker"], "x", keep=mine)
    with pytest.raises(ValueError, match="reason"):
        conflicts.resolve(conflict, people["r3"], " ", keep=mine)
    rules.withdraw_claim(other.claims.get(), other_family, "it was not him after all")
    conflicts.resolve(conflict, people["r3"], "the other family withdrew after seeing the mark", keep=mine)
    ident.refresh_from_db()
    assert ident.status == "verified"
    conflicts.reopen(conflict, people["r3"], "new information from the other family")
    ident.refresh_from_db()
    assert ident.status == "under_review"  # a reopened conflict blocks again


def test_conflict_one_person_two_cases(world: Any, people: dict[str, Any]) -> None:
    _claim(world, people, case="palestine")
    _claim(world, people, case="scar")
    (conflict,) = Conflict.objects.filter(kind="person_two_cases")
    assert conflict.person == people["person"] and conflict.detail["cases"] == sorted(
        [world.cases["palestine"].pk, world.cases["scar"].pk])


def test_conflict_against_the_evidence(world: Any, people: dict[str, Any]) -> None:
    _claim(world, people, case="woman")  # reported male, the body is female
    _claim(world, people, case="early")  # photographed 2011-06, reported arrest 2012-03
    kinds = {c.case_id: c.detail["problems"][0]["feature"] for c in Conflict.objects.filter(kind="against_evidence")}
    assert kinds == {world.cases["woman"].pk: "sex", world.cases["early"].pk: "time"}
    assert "BEFORE" in Conflict.objects.get(case=world.cases["early"]).detail["problems"][0]["detail"]


def test_negative_and_unsure_claims_open_nothing(world: Any, people: dict[str, Any]) -> None:
    _claim(world, people, verdict="not_them")
    _claim(world, people, case="scar", verdict="not_sure")
    assert not Identification.objects.exists() and not Conflict.objects.exists()


def test_evidence_levels(world: Any, people: dict[str, Any]) -> None:
    _claim(world, people, case="scar")
    ident = _ident(people, world, "scar")
    assert ident.evidence_level == "family"
    rules.make_claim(people["person"], world.cases["scar"], "is_them", people["caseworker"],
                     on_behalf_of="the detainee's brother")
    ident.refresh_from_db()
    assert ident.evidence_level == "corroborated"  # two independent relatives
    _claim(world, people, case="palestine")  # the reported tattoo matches the recorded one
    assert _ident(people, world).evidence_level == "corroborated"
    rules.record_forensic(people["person"], world.cases["palestine"], "dna", "match", people["r1"], "LAB-1")
    assert _ident(people, world).evidence_level == "forensic"


def test_forensic_exclusion_is_a_conflict(world: Any, people: dict[str, Any]) -> None:
    _claim(world, people)
    rules.record_forensic(people["person"], world.cases["palestine"], "dna", "exclusion", people["r1"])
    (conflict,) = Conflict.objects.filter(kind="against_evidence")
    assert conflict.detail["problems"][-1]["level"] == "exclusion"


def test_withdrawing_a_published_identification(world: Any, people: dict[str, Any]) -> None:
    _claim(world, people)
    ident = _ident(people, world)
    rules.review(ident, people["r1"], "approve")
    rules.review(ident, people["r2"], "approve")
    rules.withdraw_identification(ident, people["r1"], "a court asked for a DNA test first")
    ident.refresh_from_db()
    assert ident.status == "withdrawn" and Case.objects.get(pk=ident.case_id).status == "unidentified"
