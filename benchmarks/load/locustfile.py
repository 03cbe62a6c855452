"""Load test: every role's real flows (run through benchmarks/load/run.py: loopback only, bounded).

Each simulated person signs in with a real account (ATHAR_LOAD_ACCOUNTS, written by setup_data.py)
and then, with one second of think time between requests:
- a family (6 in 10) opens its home, its candidate list, one of its candidates (when it has a
  likely match: 3 families in 4), its report;
- a caseworker (2 in 10) its home, a report of one of its families, a report's ranked list;
- a reviewer (1 in 10) the review queue and a comparison;
- an API client (1 in 10; a family's, a caseworker's or a reviewer's token) the report and claim
  lists and a report's candidates.
Every page must answer 200 (redirects are not followed: a redirect to the sign-in page is an
error, as is any 403 or 404, which run.py reports as a broken flow).
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import threading
from pathlib import Path
from typing import Any

import gevent
from locust import HttpUser, constant, task
from locust.env import Environment

ACCOUNTS: dict[str, Any] = json.loads(Path(os.environ["ATHAR_LOAD_ACCOUNTS"]).read_text(encoding="utf-8"))
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
_lock = threading.Lock()
_counters = {role: itertools.count() for role in ("family", "caseworker", "reviewer", "api")}
_ready = itertools.count(1)
KEEP_RAMP = os.environ.get("ATHAR_LOAD_KEEP_RAMP") == "1"
MEASURE_SECONDS = float(os.environ.get("ATHAR_LOAD_SECONDS", "60"))
SIGN_IN_TRIES = 3


def _broken(what: str) -> None:
    """Kept apart from locust's figures (reset after the ramp): run.py fails the run."""
    with _lock, open(os.environ["ATHAR_LOAD_BROKEN"], "a", encoding="utf-8") as handle:
        handle.write(what + "\n")


def _signed_in(environment: Environment) -> None:
    """Once every simulated person has signed in (one Argon2 check each, a burst that says nothing
    of the pages), the figures start again from zero, unless the ramp is to be kept."""
    with _lock:
        everyone = next(_ready) == getattr(environment.runner, "target_user_count", 0)
    if everyone:
        if not KEEP_RAMP:
            environment.stats.reset_all()
        if os.environ.get("ATHAR_LOAD_MARK"):  # run.py reads the server's CPU time from here
            Path(os.environ["ATHAR_LOAD_MARK"]).touch()
        runner = environment.runner
        if runner is not None:  # the measured window is MEASURE_SECONDS, however long the ramp took
            gevent.spawn_later(MEASURE_SECONDS, runner.quit)


def _next(role: str, pool: list[Any]) -> Any:
    with _lock:
        return pool[next(_counters[role]) % len(pool)]


class _Person(HttpUser):
    abstract = True
    wait_time = constant(1)
    role = ""

    def on_start(self) -> None:
        self.account = _next(self.role, ACCOUNTS[self.role])
        for _attempt in range(SIGN_IN_TRIES):  # a person whose page did not load tries again
            status = self.sign_in()
            if status:
                break
        if status != 302:  # refused (wrong password, CSRF, rate limit) or never answered: no flow can run
            _broken(f"sign-in of a {self.role} failed: {status or 'no answer'}")
        _signed_in(self.environment)

    def sign_in(self) -> int:
        sign_in = ACCOUNTS["sign_in"]
        page = self.client.get(sign_in, name="sign-in page")
        token = CSRF.search(page.text or "")
        with self.client.post(sign_in, name="sign-in", allow_redirects=False, catch_response=True, data={
                "identifier": self.account["login"], "password": self.account["password"],
                "csrfmiddlewaretoken": token.group(1) if token else ""},
                headers={"Referer": self.host + "/"}) as response:
            if response.status_code != 302:
                response.failure(f"sign-in failed: {response.status_code or 'no answer'}")
            return int(response.status_code or 0)

    def page(self, path: str, name: str, headers: dict[str, str] | None = None) -> None:
        with self.client.get(path, name=name, allow_redirects=False, catch_response=True,
                             headers=headers) as response:
            if response.status_code == 0:  # no answer: refused, reset or timed out
                response.failure(f"no answer: {type(response.error).__name__}")
            elif response.status_code != 200:
                where = response.headers.get("Location", "")
                response.failure(f"{response.status_code}{' to ' + where if where else ''}")


class Family(_Person):
    weight = 6
    role = "family"

    @task(1)
    def home(self) -> None:
        self.page(self.account["home"], "family home")

    @task(2)
    def candidates(self) -> None:
        self.page(self.account["candidates"], "family candidate list")

    @task(2)
    def candidate(self) -> None:
        if self.account["candidate"]:  # 1 family in 4 has no likely match: its list says so
            self.page(random.choice(self.account["candidate"]), "family candidate")
        else:
            self.page(self.account["candidates"], "family candidate list")

    @task(1)
    def report(self) -> None:
        self.page(self.account["report"], "family report")


class Caseworker(_Person):
    weight = 2
    role = "caseworker"

    @task(2)
    def home(self) -> None:
        self.page(self.account["home"], "caseworker home")

    @task(2)
    def report(self) -> None:
        self.page(random.choice(self.account["reports"]), "caseworker report")

    @task(1)
    def ranked(self) -> None:
        self.page(random.choice(self.account["ranked"]), "caseworker ranked list")


class Reviewer(_Person):
    weight = 1
    role = "reviewer"

    @task(1)
    def queue(self) -> None:
        self.page(self.account["queue"], "reviewer queue")

    @task(1)
    def compare(self) -> None:
        self.page(random.choice(self.account["compare"]), "reviewer comparison")


class ApiClient(HttpUser):
    weight = 1
    wait_time = constant(1)

    def on_start(self) -> None:
        self.caller = _next("api", ACCOUNTS["api"])
        self.headers = {"Authorization": f"Bearer {self.caller['token']}"}
        _signed_in(self.environment)

    @task
    def read(self) -> None:
        path = random.choice(self.caller["paths"])
        name = "api " + re.sub(r"/reports/[^/]+/", "/reports/{id}/", path.split("?")[0])
        with self.client.get(path, name=name, allow_redirects=False, catch_response=True,
                             headers=self.headers) as response:
            if response.status_code != 200:
                response.failure(str(response.status_code) if response.status_code else
                                 f"no answer: {type(response.error).__name__}")
