"""A password hasher for tests only: Argon2id, the production algorithm, at its smallest cost.

The production cost (64 MiB, three passes, four lanes) is the point in production and a waste in
tests, which create thousands of accounts: a world of seven users cost seconds of hashing.
``tests/security/test_deploy.py`` checks the real setting (marked ``real_password_hashing``)."""

from __future__ import annotations

from django.contrib.auth.hashers import Argon2PasswordHasher


class CheapArgon2PasswordHasher(Argon2PasswordHasher):
    time_cost = 1
    memory_cost = 8  # KiB: argon2's minimum for one lane
    parallelism = 1
