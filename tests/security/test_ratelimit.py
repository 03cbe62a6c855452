"""Rate limits per account and per address, configured in settings, with a clear 429."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.urls import reverse
from django.utils import translation

from athar.core.ratelimit import Rate, bucket_for_view, hit, parse_bucket

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("text,limit,window", [("60/m", 60, 60), ("10/5m", 10, 300), ("5/s", 5, 1),
                                               ("1000/h", 1000, 3600), (" 3 / 2h ", 3, 7200)])
def test_rates_parse(text, limit, window):
    assert Rate.parse(text) == Rate(limit, window)


@pytest.mark.parametrize("text", ["60", "sixty/m", "60/x", "/m", ""])
def test_bad_rates_are_refused(text):
    with pytest.raises(ImproperlyConfigured):
        Rate.parse(text)


def test_bucket_forms():
    bucket = parse_bucket("login", {"rate": "10/5m", "address_rate": "30/5m", "methods": ["post"]})
    assert bucket.account == Rate(10, 300) and bucket.address == Rate(30, 300) and bucket.methods == {"POST"}
    with pytest.raises(ImproperlyConfigured):
        parse_bucket("x", {"limit": 3})


def test_fixed_window_counts_and_resets():
    rate = Rate(2, 60)
    assert [hit("t:k", rate, now=120.0)[0] for _ in range(3)] == [True, True, False]
    assert hit("t:k", rate, now=180.5)[0] is True  # next window


def test_views_map_to_buckets_by_name_and_namespace(settings):
    settings.ATHAR_RATE_LIMITED_VIEWS = {"web:candidates": "candidates", "api:*": "api"}
    assert bucket_for_view("web:candidates", "web") == "candidates"
    assert bucket_for_view("api:stats", "api") == "api"
    assert bucket_for_view("web:home", "web") is None


@pytest.fixture
def tight(settings):
    # Day-long windows: a slow machine never sees a window end in the middle of a test.
    settings.ATHAR_RATE_LIMITS = {"stats": {"rate": "2/d", "address_rate": "5/d"},
                                  "login": {"rate": "3/d", "address_rate": "100/d", "methods": ["POST"]}}
    settings.ATHAR_RATE_LIMITED_VIEWS = {"web:stats": "stats", "web:dashboard": "stats",
                                         "accounts:login": "login", "api:*": "stats"}


def test_over_the_limit_a_browser_gets_a_clear_page(client, tight):
    codes = [client.get(reverse("web:stats")).status_code for _ in range(6)]
    assert codes == [200] * 5 + [429]
    response = client.get(reverse("web:stats"))
    assert response.status_code == 429 and int(response["Retry-After"]) >= 1
    assert "طلبات كثيرة" in response.content.decode()  # Arabic by default
    with translation.override("en"):
        english = client.get(reverse("web:stats"))
    assert "too many requests" in english.content.decode().lower()
    assert "no-store" in response["Cache-Control"]


def test_the_api_gets_json(client, tight):
    for _ in range(5):
        client.get("/api/stats")
    response = client.get("/api/stats")
    assert response.status_code == 429
    assert response.json()["retry_after"] >= 1 and response.json()["detail"]


def test_limits_count_per_account_and_per_address(client, make_user, tight):
    alice, bob = make_user("family"), make_user("family")
    client.force_login(alice)
    assert [client.get(reverse("web:dashboard")).status_code != 429 for _ in range(3)] == [True, True, False]
    client.force_login(bob)  # same address, another account: its own allowance ...
    assert client.get(reverse("web:dashboard")).status_code != 429
    assert client.get(reverse("web:dashboard")).status_code != 429
    assert client.get(reverse("web:dashboard")).status_code == 429  # ... and the address total (5) is spent


def test_addresses_are_counted_apart(client, tight):
    for _ in range(5):
        client.get(reverse("web:stats"), REMOTE_ADDR="10.0.0.1")
    assert client.get(reverse("web:stats"), REMOTE_ADDR="10.0.0.1").status_code == 429
    assert client.get(reverse("web:stats"), REMOTE_ADDR="10.0.0.2").status_code == 200


def test_sign_in_guessing_is_limited_per_login_from_many_addresses(client, make_user, tight, settings):
    settings.AXES_FAILURE_LIMIT = 100  # show the rate limit on its own
    make_user("family", login="family.target@example.org")
    codes = [client.post(reverse("accounts:login"), {"identifier": "family.target@example.org", "password": "x" * 12},
                         REMOTE_ADDR=f"10.1.0.{n}").status_code for n in range(4)]
    assert codes[:3] != [429] * 3 and codes[3] == 429
    assert client.get(reverse("accounts:login")).status_code == 200  # reading the page is not counted


def test_behind_a_proxy_the_forwarded_address_counts(client, tight, settings):
    settings.ATHAR_PROXY_COUNT = 1
    for _ in range(5):
        client.get(reverse("web:stats"), HTTP_X_FORWARDED_FOR="198.51.100.7", REMOTE_ADDR="127.0.0.1")
    assert client.get(reverse("web:stats"), HTTP_X_FORWARDED_FOR="198.51.100.7").status_code == 429
    assert client.get(reverse("web:stats"), HTTP_X_FORWARDED_FOR="198.51.100.8").status_code == 200


def test_default_limits_cover_the_scraping_targets(settings):
    views = settings.ATHAR_RATE_LIMITED_VIEWS
    for name in ("accounts:login", "web:candidates", "web:candidate", "web:photo_reveal", "web:derivative",
                 "media_derivative", "api:*"):
        assert views[name] in settings.ATHAR_RATE_LIMITS, name


@pytest.mark.parametrize("remote,forwarded,proxies,expected", [
    ("203.0.113.5", "", 0, "203.0.113.5"),
    ("127.0.0.1", "198.51.100.7", 0, "127.0.0.1"),          # no proxy trusted: the header is ignored
    ("127.0.0.1", "198.51.100.7", 1, "198.51.100.7"),
    ("127.0.0.1", "6.6.6.6, 198.51.100.7", 1, "198.51.100.7"),  # a spoofed first entry is not believed
    ("127.0.0.1", "not-an-address", 1, "127.0.0.1"),
    ("", "", 0, None),                                       # e.g. force_login's request
])
def test_client_address(rf, settings, remote, forwarded, proxies, expected):
    from athar.core.security import client_address

    settings.ATHAR_PROXY_COUNT = proxies
    request = rf.get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)
    assert client_address(request) == expected
