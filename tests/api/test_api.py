"""The JSON API: per-user tokens, exactly the web's permissions, outsiders see nothing."""

from __future__ import annotations

import pytest
from django.test import Client

from athar.api.models import ApiToken
from athar.core.signed_ids import sign_id
from tests.accounts.otp import code_of, enrolled, wrong_code
from tests.web.conftest import world  # noqa: F401  (fixture)
from tests.web.factories import make_candidate


def _client(user=None, token=None):
    client = Client()
    if user is not None:
        _, token = ApiToken.issue(user, "test")
    if token:
        client.defaults["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    return client


@pytest.mark.django_db
def test_openapi_is_published(client):
    spec = client.get("/api/openapi.json").json()
    assert "/api/reports" in spec["paths"] and "/api/stats" in spec["paths"]


@pytest.mark.django_db
def test_stats_are_public(client, world):
    data = client.get("/api/stats").json()
    assert data["cases"] == 1 and data["facilities"][0]["facility"] == "215"


@pytest.mark.django_db
def test_without_or_with_a_bad_or_revoked_token_nothing(world):
    for client in (_client(), _client(token="athar_nonsense")):
        for url in ("/api/reports", f"/api/reports/{sign_id('report', world.report.pk)}", "/api/claims",
                    f"/api/candidates/{sign_id('candidate', 1)}"):
            assert client.get(url).status_code == 401
    row, token = ApiToken.issue(world.family, "x")
    row.revoked_at = row.created_at
    row.save()
    assert _client(token=token).get("/api/reports").status_code == 401


@pytest.mark.django_db
def test_last_use_is_kept_to_the_minute_without_a_write_per_request(world):
    from datetime import timedelta

    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    row, token = ApiToken.issue(world.family, "phone")
    client = _client(token=token)

    def updates() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get("/api/claims").status_code == 200
        return sum('UPDATE "api_apitoken"' in q["sql"] for q in captured.captured_queries)

    assert updates() == 1  # first use is recorded
    first = ApiToken.objects.get(pk=row.pk).last_used_at
    assert first is not None
    assert updates() == 0  # used again within the minute: no write
    ApiToken.objects.filter(pk=row.pk).update(last_used_at=timezone.now() - timedelta(minutes=2))
    assert updates() == 1
    assert ApiToken.objects.get(pk=row.pk).last_used_at > first


@pytest.mark.django_db
def test_family_sees_only_its_reports_and_candidates(world):
    candidate = make_candidate(world.report, world.case)
    report_id, candidate_id = sign_id('report', world.report.pk), sign_id('candidate', candidate.pk)
    mine = _client(world.family)
    assert [r["id"] for r in mine.get("/api/reports").json()["items"]] == [report_id]
    listed = mine.get(f"/api/reports/{report_id}/candidates").json()["items"]
    assert listed[0]["id"] == candidate_id and listed[0]["report"] == report_id
    assert mine.get(f"/api/candidates/{candidate_id}").status_code == 200
    outsider = _client(world.other_family)
    assert [r["id"] for r in outsider.get("/api/reports").json()["items"]] == [sign_id('report', world.other_report.pk)]
    assert outsider.get(f"/api/reports/{report_id}").status_code == 404
    assert outsider.get(f"/api/reports/{report_id}/candidates").status_code == 404
    assert outsider.get(f"/api/candidates/{candidate_id}").status_code == 404
    assert outsider.post(f"/api/candidates/{candidate_id}/claim", {"verdict": "yes"},
                         content_type="application/json").status_code == 404
    assert outsider.get("/api/claims").json()["items"] == []
    assert _client(world.archivist).get("/api/reports").json()["items"] == []


@pytest.mark.django_db
def test_row_ids_and_forged_ids_find_nothing(world):
    """Ids cannot be counted: the bare row id, an altered signature, or another row's signature
    under this row's number all answer 404, even to the family that owns the report."""
    candidate = make_candidate(world.report, world.case)
    mine = _client(world.family)
    good = sign_id('report', world.report.pk)
    number, signature = good.split(".", 1)
    forged = [str(world.report.pk), f"{number}.{signature[:-1]}{'A' if signature[-1] != 'A' else 'B'}",
              f"{number}.{sign_id('report', world.other_report.pk).split('.', 1)[1]}", "x" * 30]
    for bad in forged:
        assert mine.get(f"/api/reports/{bad}").status_code == 404, bad
        assert mine.get(f"/api/reports/{bad}/candidates").status_code == 404, bad
    assert mine.get(f"/api/candidates/{candidate.pk}").status_code == 404
    assert mine.get(f"/api/reports/{good}").status_code == 200


@pytest.mark.django_db
def test_family_claims_through_the_api(world):
    candidate = make_candidate(world.report, world.case)
    client = _client(world.family)
    response = client.post(f"/api/candidates/{sign_id('candidate', candidate.pk)}/claim", {"verdict": "yes"},
                           content_type="application/json")
    assert response.status_code == 201 and response.json()["verdict"] == "is_them"
    assert client.get("/api/claims").json()["count"] == 1
    assert _client(world.other_family).get("/api/claims").json()["items"] == []


@pytest.mark.django_db
def test_unlikely_candidates_are_not_listed_for_families(world):
    make_candidate(world.report, world.case, likely=False)
    assert _client(world.family).get(f"/api/reports/{sign_id('report', world.report.pk)}/candidates").json()["items"] == []


@pytest.mark.django_db
def test_staff_tokens_need_a_confirmed_second_factor_where_required(world, settings):
    """A reviewer's token must not be a way around two-factor sign-in."""
    settings.ATHAR_REQUIRE_TWO_FACTOR = True
    reviewer = world.reviewer
    _, token = ApiToken.issue(reviewer, "sync")
    assert _client(token=token).get("/api/claims").status_code == 401
    enrolled(reviewer)
    assert _client(token=token).get("/api/claims").status_code == 200
    assert _client(world.family).get("/api/reports").status_code == 200  # families: no second factor


@pytest.mark.django_db
def test_cli_issues_a_staff_token_only_against_a_current_code(world, settings):
    from athar.api.subcommands import api_token

    settings.ATHAR_REQUIRE_TWO_FACTOR = True
    reviewer = world.reviewer
    with pytest.raises(ValueError, match="complete the enrolment first"):
        api_token({"login": reviewer.login, "name": "sync", "totp_code": ""})
    device = enrolled(reviewer)
    with pytest.raises(ValueError, match="--totp-code"):
        api_token({"login": reviewer.login, "name": "sync", "totp_code": wrong_code(device)})
    device.refresh_from_db()
    device.throttle_reset()  # django-otp waits a second after a wrong code
    code = code_of(device)
    issued = api_token({"login": reviewer.login, "name": "sync", "totp_code": code})
    assert issued["token"].startswith("athar_")
    with pytest.raises(ValueError, match="--totp-code"):  # the CLI step has a replay guard too
        api_token({"login": reviewer.login, "name": "sync2", "totp_code": code})
    assert api_token({"login": world.family.login, "name": "app", "totp_code": ""})["token"]


@pytest.mark.django_db
def test_a_token_expires_and_its_lifetime_is_bounded(world, settings):
    from datetime import timedelta

    from django.utils import timezone

    row, token = ApiToken.issue(world.family, "phone", days=7)
    assert timedelta(days=6, hours=23) < row.expires_at - timezone.now() <= timedelta(days=7)
    assert _client(token=token).get("/api/reports").status_code == 200
    ApiToken.objects.filter(pk=row.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert _client(token=token).get("/api/reports").status_code == 401
    row.refresh_from_db()
    assert row.status == "expired"
    default_row, _ = ApiToken.issue(world.family, "default")
    assert abs((default_row.expires_at - timezone.now()) - timedelta(days=settings.ATHAR_API_TOKEN_DAYS)) < timedelta(minutes=1)
    for days in (0, -3, settings.ATHAR_API_TOKEN_MAX_DAYS + 1):
        with pytest.raises(ValueError, match="valid for 1 to"):
            ApiToken.issue(world.family, "bad", days=days)


@pytest.mark.django_db
def test_listing_shows_status_never_the_token_and_revoking_stops_it_at_once(world):
    from athar.api.subcommands import api_revoke, api_token, api_tokens
    from athar.audit.models import AuditEvent

    first = api_token({"login": world.family.login, "name": "phone", "totp_code": "", "days": 30})
    second = api_token({"login": world.family.login, "name": "laptop", "totp_code": ""})
    listed = api_tokens({"login": world.family.login})
    assert {t["name"]: t["status"] for t in listed["tokens"]} == {"phone": "active", "laptop": "active"}
    assert first["token"] not in repr(listed) and second["token"] not in repr(listed)

    assert api_revoke({"token_id": first["token_id"], "login": None})["revoked"] == [first["token_id"]]
    assert _client(token=first["token"]).get("/api/reports").status_code == 401
    assert _client(token=second["token"]).get("/api/reports").status_code == 200
    again = api_revoke({"token_id": first["token_id"], "login": None})
    assert again == {"revoked": [], "already_revoked": [first["token_id"]]}

    everything = api_revoke({"token_id": None, "login": world.family.login})
    assert everything["revoked"] == [second["token_id"]]
    assert _client(token=second["token"]).get("/api/reports").status_code == 401
    assert {t["status"] for t in api_tokens({"login": world.family.login})["tokens"]} == {"revoked"}
    assert AuditEvent.objects.filter(action="api.token_revoked").count() == 2
    with pytest.raises(ValueError, match="no API token"):
        api_revoke({"token_id": 987654, "login": None})


@pytest.mark.django_db
def test_the_schema_documents_every_answer_and_the_machine_values(client):
    """Clients can rely on the schema: every status an endpoint can answer, statuses and verdicts as
    enums (the same values the domain uses), lists paginated."""
    from athar.identification.models import Verdict
    from athar.identification.services import SEARCH_STATUS_TEXT

    spec = client.get("/api/openapi.json").json()
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            answers = set(operation["responses"])
            assert "429" in answers, (method, path)
            if path != "/api/stats":
                assert {"401", "404", "422"} <= answers, (method, path)
    schemas = spec["components"]["schemas"]
    assert set(schemas["SearchStatus"]["enum"]) == set(SEARCH_STATUS_TEXT)
    assert set(schemas["Verdict"]["enum"]) == set(Verdict.values)
    assert set(schemas["VerdictIn"]["enum"]) == {"yes", "no", "unsure"}
    for paged in ("PagedReportOut", "PagedCandidateOut", "PagedClaimOut"):
        assert {"items", "count"} <= set(schemas[paged]["properties"])


@pytest.mark.django_db
def test_lists_come_a_page_at_a_time_never_cut_silently(world):
    from tests.web.factories import make_report

    extra = [make_report(world.family, name=f"محمد {i}") for i in range(3)]
    mine = _client(world.family)
    whole = mine.get("/api/reports").json()
    assert whole["count"] == 1 + len(extra) and len(whole["items"]) == whole["count"]
    first = mine.get("/api/reports?limit=2&offset=0").json()
    rest = mine.get("/api/reports?limit=2&offset=2").json()
    assert first["count"] == rest["count"] == whole["count"]
    assert [r["id"] for r in first["items"] + rest["items"]] == [r["id"] for r in whole["items"]]
    assert mine.get("/api/reports?limit=-1").status_code == 422


@pytest.mark.django_db
def test_statuses_come_as_values_with_labels_in_the_requested_language(world):
    make_candidate(world.report, world.case)
    report_id = sign_id("report", world.report.pk)
    client = _client(world.family)
    english = client.get(f"/api/reports/{report_id}", HTTP_ACCEPT_LANGUAGE="en").json()
    arabic = client.get(f"/api/reports/{report_id}", HTTP_ACCEPT_LANGUAGE="ar").json()
    assert english["status"] == arabic["status"] == "to_look_at"
    assert english["status_label"].startswith("Compared with the archives")
    assert any("\u0600" <= ch <= "\u06ff" for ch in arabic["status_label"])


@pytest.mark.django_db
def test_a_wrong_verdict_is_refused_with_422_and_nothing_is_recorded(world):
    from athar.identification.models import Claim

    candidate = make_candidate(world.report, world.case)
    response = _client(world.family).post(f"/api/candidates/{sign_id('candidate', candidate.pk)}/claim",
                                          {"verdict": "maybe"}, content_type="application/json")
    assert response.status_code == 422 and "detail" in response.json()
    assert not Claim.objects.exists()


@pytest.mark.django_db
def test_staff_get_reasons_as_structured_data_with_labels(world):
    candidate = make_candidate(world.report, world.case)
    candidate.reasons = [{"feature": "sex", "level": "same", "weight": 1.5, "detail": "sex matches"},
                         {"feature": "face", "level": "similarity", "weight": 3.0, "detail": "face 0.61"}]
    candidate.save()
    url = f"/api/candidates/{sign_id('candidate', candidate.pk)}"
    reasons = _client(world.reviewer).get(url, HTTP_ACCEPT_LANGUAGE="en").json()["reasons"]
    assert [(r["feature"], r["level"], r["weight"]) for r in reasons] == [("sex", "same", 1.5), ("face", "similarity", 3.0)]
    assert reasons[0]["label"] == "Sex: the same"
    arabic = _client(world.reviewer).get(url, HTTP_ACCEPT_LANGUAGE="ar").json()["reasons"]
    assert arabic[0]["label"] != "Sex: the same"  # translated (the catalogue has it)
    assert _client(world.family).get(url).json()["reasons"] == []  # families never get reasons
