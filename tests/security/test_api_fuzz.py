"""schemathesis against the API's own OpenAPI schema: no input makes the server fail (5xx).

Bounded (``max_examples``) so CI runs it in seconds; marked ``api_fuzz`` to run it alone:
``pytest -m api_fuzz``. Calls go through WSGI in-process, as a signed-in reviewer's API token
and without a token.
"""

from __future__ import annotations

import pytest

schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402

from athar.wsgi import application  # noqa: E402

schema = schemathesis.openapi.from_wsgi("/api/openapi.json", application)

pytestmark = [pytest.mark.api_fuzz, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def token(make_user):
    from athar.api.models import ApiToken

    return ApiToken.issue(make_user("reviewer"), "fuzz")[1]


@schema.parametrize()
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_errors_with_a_token(case, token):
    case.call_and_validate(headers={"Authorization": f"Bearer {token}"}, checks=[not_a_server_error])


@schema.parametrize()
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_errors_without_a_token(case):
    response = case.call_and_validate(checks=[not_a_server_error])
    if not case.operation.path.endswith("/stats"):
        assert response.status_code in (401, 403, 404, 405, 422, 429), (case.method, case.operation.path)
