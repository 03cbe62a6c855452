"""Load test: families reading their candidate pages, and the public statistics.

Each simulated user signs in with its own account (ATHAR_LOAD_ACCOUNTS, written by setup_data.py),
then, with one second of think time between requests, opens its candidate list, one candidate,
and the public statistics page. Run through benchmarks/load/run.py (loopback only, bounded).
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import threading
from pathlib import Path

from locust import HttpUser, constant, task

ACCOUNTS = json.loads(Path(os.environ["ATHAR_LOAD_ACCOUNTS"]).read_text(encoding="utf-8"))
_next = itertools.count()
_lock = threading.Lock()
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class Family(HttpUser):
    wait_time = constant(1)

    def on_start(self) -> None:
        with _lock:
            self.account = ACCOUNTS[next(_next) % len(ACCOUNTS)]
        page = self.client.get(self.account["sign_in"], name="sign-in page")
        token = CSRF.search(page.text)
        response = self.client.post(self.account["sign_in"], name="sign-in", allow_redirects=False, data={
            "identifier": self.account["login"], "password": self.account["password"],
            "csrfmiddlewaretoken": token.group(1) if token else ""}, headers={"Referer": self.host + "/"})
        if response.status_code != 302:
            response.failure(f"sign-in failed: {response.status_code}")

    @task(2)
    def candidates(self) -> None:
        self.client.get(self.account["candidates"], name="family candidates")

    @task(2)
    def candidate(self) -> None:
        self.client.get(random.choice(self.account["candidate"]), name="family candidate")

    @task(1)
    def statistics(self) -> None:
        self.client.get(self.account["stats"], name="public statistics")
