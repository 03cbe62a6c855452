"""Every answer of the API is the one its OpenAPI schema documents: status code, content type, body.

schemathesis generates requests for every operation of ``/api/openapi.json`` (in-process, through
the WSGI application) and sends each one as a family, a caseworker, a reviewer and without a token,
then again with the ids of a real report and candidate in the path (generated ids only ever reach
the 404s). Each answer must pass schemathesis' ``not_a_server_error``, ``status_code_conformance``
(no undocumented status), ``content_type_conformance`` and ``response_schema_conformance``. The same
checks run against a live demo with the schemathesis command in docs/api.md.

Then targeted tests of what the first run against a demo found (docs/api.md, "Checked with
schemathesis").
"""

from __future__ import annotations

from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from schemathesis import GenerationMode  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from athar.api.models import ApiToken  # noqa: E402
from athar.core.signed_ids import sign_id  # noqa: E402
from athar.wsgi import application  # noqa: E402
from tests.web.conftest import world  # noqa: E402,F401  (fixture)
from tests.web.factories import make_candidate  # noqa: E402

schema = schemathesis.openapi.from_wsgi("/api/openapi.json", application)

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
EXAMPLES = 12  # per operation, each sent by three roles and none (twice with ids in the path): about 20 s
UNLIMITED = {"rate": "100000/m", "address_rate": "100000/m"}

pytestmark = [pytest.mark.django_db, pytest.mark.api_fuzz]  # in the normal suite too (about 30 s)


@pytest.fixture(autouse=True)
def connection_kept_open():
    """schemathesis calls the WSGI application itself, and Django closes the database connection at
    the end of each request — inside the test's transaction on PostgreSQL. Django's test client
    disconnects that handler for its requests; so do these tests."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


@pytest.fixture
def callers(world, settings) -> dict[str, Any]:  # noqa: F811
    """Tokens of three roles and none, and the ids of things they may see."""
    settings.ATHAR_RATE_LIMITS = {**settings.ATHAR_RATE_LIMITS, "api": UNLIMITED}  # 429 is tested on its own
    candidate = make_candidate(world.report, world.case)
    headers = {"anonymous": {}}
    for role in ("family", "caseworker", "reviewer"):
        headers[role] = {"Authorization": f"Bearer {ApiToken.issue(getattr(world, role), 'conformance')[1]}"}
    ids = {"report_id": sign_id("report", world.report.pk), "candidate_id": sign_id("candidate", candidate.pk)}
    return {"headers": headers, "ids": ids}


def test_every_answer_is_documented(callers):
    """One test over every operation (one set of fixtures: a few seconds instead of one per operation)."""
    for result in schema.get_all_operations():
        operation = result.ok()
        cases = st.one_of(operation.as_strategy(GenerationMode.POSITIVE), operation.as_strategy(GenerationMode.NEGATIVE))

        @given(case=cases)
        @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        def answers_as_documented(case: Any) -> None:
            generated = dict(case.path_parameters or {})
            real = {name: callers["ids"][name] for name in generated if name in callers["ids"]}
            for path_parameters in ([generated, {**generated, **real}] if real else [generated]):
                case.path_parameters = path_parameters
                for headers in callers["headers"].values():
                    case.call_and_validate(headers=headers, checks=CHECKS)

        answers_as_documented()
        for case in _edges(operation, callers["ids"]):
            for headers in callers["headers"].values():
                case.call_and_validate(headers=headers, checks=CHECKS)


def _edges(operation: Any, ids: dict[str, str]) -> list[Any]:
    """Cases at the edges of every integer query parameter (its bounds, one past them, a number no
    database integer holds), as schemathesis' coverage phase sends them: random examples rarely do."""
    path_parameters = {p["name"]: ids.get(p["name"], "0") for p in operation.definition.raw.get("parameters", [])
                       if p["in"] == "path"}
    cases = []
    for parameter in operation.definition.raw.get("parameters", []):
        bounds = parameter.get("schema", {})
        if parameter["in"] != "query" or bounds.get("type") != "integer":
            continue
        values = {2**70, -(2**70)}
        for bound in ("minimum", "maximum"):
            if bound in bounds:
                values |= {bounds[bound] - 1, bounds[bound], bounds[bound] + 1}
        for value in sorted(values):
            cases.append(operation.Case(path_parameters=path_parameters, query={parameter["name"]: value}))
    return cases


OPERATIONS = [(method, path, operation) for path, item in schema.raw_schema["paths"].items()
              for method, operation in item.items()]


@pytest.mark.parametrize(("method", "path", "operation"), OPERATIONS, ids=[f"{m} {p}" for m, p, _ in OPERATIONS])
def test_every_operation_documents_its_refusals(method, path, operation):
    """401, 404 and 422 wherever a token or a parameter is needed; 429 and 414 everywhere."""
    declared = set(operation["responses"])
    expected = {"414", "429"}
    if operation.get("security"):
        expected |= {"401", "404", "422"}
    assert expected <= declared, (method, path, sorted(declared))


def test_huge_page_numbers_are_refused_not_a_server_error(callers):
    """limit=4.8e23 reached SQLite as an integer it cannot hold (500); now 422 beyond the bounds."""
    from django.test import Client

    client = Client(headers=callers["headers"]["reviewer"])
    for query in ("limit=487078071352666108198912", "offset=487078071352666108198912", "limit=501",
                  "offset=1000000001", "limit=0", "offset=-1"):
        response = client.get(f"/api/claims?{query}")
        assert response.status_code == 422, query
        assert response["Content-Type"].startswith("application/json")
    page = client.get("/api/reports?limit=500&offset=1000000000")
    assert page.status_code == 200 and page.json() == {"items": [], "count": 2}


def test_a_path_the_routes_do_not_match_is_a_json_404(callers):
    """A report id with a slash in it matched no route and got the web's HTML 404 page."""
    from django.test import Client

    client = Client(headers=callers["headers"]["family"])
    for path in ("/api/reports/a%2Fb", "/api/reports/a%2Fb/candidates", "/api/nothing-here"):
        response = client.get(path)
        assert response.status_code == 404 and response.json() == {"detail": "Not Found"}, path
    assert Client().get("/no-such-page/")["Content-Type"].startswith("text/html")  # the web keeps its page


def test_an_unreadable_upload_is_a_json_400(callers):
    """A multipart body without a boundary got the web's HTML 400 page."""
    from django.test import Client

    client = Client(headers=callers["headers"]["family"])
    response = client.post(f"/api/reports/{callers['ids']['report_id']}/photos", data=b"x",
                           content_type="multipart/form-data")
    assert response.status_code == 400 and "detail" in response.json()


def test_over_the_rate_the_answer_is_documented(world, settings):  # noqa: F811
    """429 with ``Retry-After`` and a body the schema describes (``detail``, ``retry_after``)."""
    settings.ATHAR_RATE_LIMITS = {**settings.ATHAR_RATE_LIMITS, "api": {"rate": "2/m", "address_rate": "100/m"}}
    headers = {"Authorization": f"Bearer {ApiToken.issue(world.family, 'rate')[1]}"}
    case = schema["/api/reports"]["GET"].Case()
    answers = [case.call_and_validate(headers=headers, checks=CHECKS) for _ in range(4)]
    slowed = answers[-1]
    assert slowed.status_code == 429 and int(slowed.headers["retry-after"][0]) >= 1
    body = slowed.json()
    assert isinstance(body["detail"], str) and isinstance(body["retry_after"], int)
