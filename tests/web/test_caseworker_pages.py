"""Caseworkers: the staff candidate list of a report, families linked to their reports, invitations
labelled and revocable. Each page as the caseworker, every other role and a signed-out visitor."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.urls import reverse
from django.utils import translation

from athar.accounts.enrolment import InvitationUnusable, redeem_invitation
from athar.accounts.models import Invitation
from athar.audit.models import AuditEvent
from athar.identification.models import Candidate, Ranking
from tests.web.factories import make_case

pytestmark = pytest.mark.django_db


def _ranking(world):
    """The report's own ranking: three cases, the first a likely match, the others not."""
    world.report.sex, world.report.detainee_number, world.report.arresting_agency = "M", "4411", "فرع فلسطين"
    world.report.arrest_place = "داريا"
    world.report.save()
    ranking = Ranking.objects.create(report=world.report, algorithm="athar-ident", algorithm_version="1.2",
                                     cases=120, likely_match=True, shortlist=3)
    second = make_case("C2", facility_code="227")
    second.photographed, second.photographed_precision = date(2013, 5, 1), "day"
    second.sex, second.age_min, second.age_max = "F", 20, 30
    second.save()
    third = make_case("C3", facility_code="227")
    world.case.detainee_number = "4411"
    world.case.save()
    reasons = [{"feature": "number", "level": "same_number_same_facility", "weight": 4.2,
                "detail": "detainee number: reported 4411, case 4411 (same number in the same branch)"},
               {"feature": "sex", "level": "different", "weight": -3.0, "detail": "sex differs"}]
    rows = [Candidate.objects.create(ranking=ranking, case=case, rank=n, score=9.0 - n, probability=p,
                                     likely_match=n == 1, reasons=reasons)
            for n, (case, p) in enumerate([(world.case, 0.874), (second, 0.06), (third, 0.012)], start=1)]
    return rows


def _url(world):
    return reverse("web:staff_candidates", kwargs={"report_id": world.report.pk})


def _listed(html):
    return [int(pk) for pk in re.findall(r'data-candidate="(\d+)"', html)]


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_the_caseworker_sees_every_ranked_case_with_its_scale_reasons_and_facts(client_for, world, lang):
    rows = _ranking(world)
    with translation.override(lang):
        html = client_for(world.caseworker).get(_url(world)).content.decode()
    assert _listed(html) == [c.pk for c in rows]  # every ranked case, best first, likely or not
    assert re.findall(r'<bdi dir="ltr" class="percent">(\d+%)</bdi>', html) == ["87%", "6%", "1%"]
    assert "66%" in html  # the likely-match threshold of the algorithm, stated
    same_number = "the same number in the same branch" if lang == "en" else "الرقم نفسه في الفرع نفسه"
    against = "counts against this case" if lang == "en" else "يُضعف هذه الحالة"
    assert same_number in html and against in html
    first = html.split(f'data-candidate="{rows[0].pk}"')[1].split("</section>")[0]
    number_row = re.search(r'<tr data-feature="number">(.*?)</tr>', first, re.DOTALL).group(1)
    assert number_row.count("4411") == 2  # reported and recorded, side by side
    assert "داريا" in re.search(r'<tr data-feature="place">(.*?)</tr>', first, re.DOTALL).group(1)
    second = html.split(f'data-candidate="{rows[1].pk}"')[1].split("</section>")[0]
    assert '<bdi dir="ltr">20–30</bdi>' in second and "2013" in second
    assert reverse("web:candidate", kwargs={"candidate_id": rows[2].pk}) in html
    assert "<img" not in html  # no photo on the list: each case opens behind the warning


def test_the_list_filters_by_facility_dates_and_sex(client_for, world):
    rows = _ranking(world)
    client = client_for(world.caseworker)
    assert _listed(client.get(_url(world), {"facility": "227"}).content.decode()) == [rows[1].pk, rows[2].pk]
    assert _listed(client.get(_url(world), {"sex": "F"}).content.decode()) == [rows[1].pk]
    dated = client.get(_url(world), {"since": "2013-01-01", "until": "2013-12-31"}).content.decode()
    assert _listed(dated) == [rows[1].pk]


def test_an_unlikely_case_opens_behind_the_careful_reveal_for_the_caseworker_only(client_for, world):
    rows = _ranking(world)
    url = reverse("web:candidate", kwargs={"candidate_id": rows[2].pk})
    caseworker = client_for(world.caseworker)
    first = caseworker.get(url).content.decode()
    assert "<img" not in first and "?ready=1" in first  # the warning first
    ready = caseworker.get(url + "?ready=1").content.decode()
    assert 'data-kind="face_blur"' in ready and 'data-kind="face"' not in ready
    assert client_for(world.family).get(url).status_code == 404  # families: likely matches only
    family_list = client_for(world.family).get(reverse("web:candidates", kwargs={"report_id": world.report.pk}))
    assert url not in family_list.content.decode()
    caseworker_family_list = caseworker.get(reverse("web:candidates", kwargs={"report_id": world.report.pk}))
    assert url not in caseworker_family_list.content.decode()  # the family's page stays likely-only


@pytest.mark.parametrize("role", ["family", "reviewer", "archivist", "other_caseworker"])
def test_the_staff_list_is_refused_to_everyone_else(client_for, world, role):
    _ranking(world)
    response = client_for(getattr(world, role)).get(_url(world))
    assert response.status_code in (403, 404)
    assert "87%" not in response.content.decode()


def test_a_signed_out_visitor_is_sent_to_sign_in(client_for, world):
    _ranking(world)
    response = client_for(None).get(_url(world))
    assert response.status_code == 302 and reverse("accounts:login") in response["Location"]


def test_an_admin_sees_the_staff_list(client_for, world):
    rows = _ranking(world)
    assert _listed(client_for(world.admin).get(_url(world)).content.decode()) == [c.pk for c in rows]


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_families_link_to_their_reports_and_reports_to_their_ranked_cases(client_for, world, lang):
    with translation.override(lang):
        html = client_for(world.caseworker).get(reverse("web:caseworker_home")).content.decode()
        report_url = reverse("web:report", kwargs={"report_id": world.report.pk})
        staff_url = reverse("web:staff_candidates", kwargs={"report_id": world.report.pk})
    families = re.search(r'<ul class="families">(.*?)</ul>', html, re.DOTALL).group(1)
    assert report_url in families and world.report.full_name_ar in families
    assert staff_url in html


def test_report_status_reads_for_staff_not_for_a_family(client_for, world):
    """The caseworker's list says where each report stands in staff words; a family's gentle sentence
    ("when you are ready") stays on the family's own page."""
    from athar.identification.services import search_status

    code = search_status(world.report)
    html = client_for(world.caseworker).get(reverse("web:caseworker_home")).content.decode()
    family_page = client_for(world.family).get(reverse("web:family_home")).content.decode()
    with translation.override("ar"):
        from athar.identification.services import SEARCH_STATUS_TEXT, STAFF_STATUS_TEXT

        staff, gentle = str(STAFF_STATUS_TEXT[code]), str(SEARCH_STATUS_TEXT[code])
    assert staff in html and gentle not in html
    assert gentle in family_page


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_invitations_are_labelled_and_revocable(client_for, world, lang):
    client = client_for(world.caseworker)
    with translation.override(lang):
        made = client.post(reverse("web:invite"), {"label": "Umm Khaled (Daraya)"}).content.decode()
        code = re.search(r'id="invitation-code">([A-Z0-9-]+)<', made).group(1)
        invitation = Invitation.objects.get(caseworker=world.caseworker)
        assert invitation.label == "Umm Khaled (Daraya)" and "Umm Khaled (Daraya)" in made
        assert client_for(world.other_caseworker).post(
            reverse("web:invite_revoke", args=[invitation.pk])).status_code == 404
        client.post(reverse("web:invite_revoke", args=[invitation.pk]))
        page = client.get(reverse("web:invite")).content.decode()
    invitation.refresh_from_db()
    assert invitation.revoked_at is not None
    row = re.search(rf'data-invitation="{invitation.pk}">(.*?)</tr>', page, re.DOTALL).group(1)
    assert ("revoked" if lang == "en" else "أُلغي") in row and "web:invite_revoke" not in row
    event = AuditEvent.objects.get(action="invitation.revoked")
    assert event.object_id == str(invitation.pk) and "Umm" not in str(event.data)
    with pytest.raises(InvitationUnusable):
        redeem_invitation(code, "a long family password")


@pytest.mark.parametrize("role", ["family", "reviewer", "archivist"])
def test_revoking_is_refused_to_other_roles(client_for, world, role):
    invitation, _ = Invitation.issue(world.caseworker, "x")
    assert client_for(getattr(world, role)).post(reverse("web:invite_revoke", args=[invitation.pk])).status_code == 403
    assert client_for(None).post(reverse("web:invite_revoke", args=[invitation.pk])).status_code == 302
    invitation.refresh_from_db()
    assert invitation.revoked_at is None
