"""Demo step: one account per role, with a fresh random password each run."""

from __future__ import annotations

import secrets

from athar.accounts.models import Role, User
from athar.core.demo import DemoContext, demo_step

DEMO_DOMAIN = "demo.athar.invalid"
DEMO_ACCOUNTS = [(role, f"{role.value}@{DEMO_DOMAIN}") for role in
                 (Role.CASEWORKER, Role.FAMILY, Role.REVIEWER, Role.ARCHIVIST, Role.ADMIN)]
DEMO_ACCOUNTS.insert(3, (Role.REVIEWER, f"reviewer2@{DEMO_DOMAIN}"))


@demo_step(20, "accounts")
def build_accounts(context: DemoContext) -> None:
    accounts = []
    caseworker = None
    # Two reviewers: an identification needs two different people to approve it.
    for role, login in DEMO_ACCOUNTS:
        password = secrets.token_urlsafe(9)
        user, _ = User.objects.get_or_create(login=login, defaults={"email": login, "role": role.value})
        user.set_password(password)
        user.is_staff = user.is_superuser = role == Role.ADMIN
        if role == Role.FAMILY:
            user.caseworker = caseworker
        user.save()
        if role == Role.CASEWORKER:
            caseworker = user
        accounts.append({"role": role.value, "login": login, "password": password})
    context.made["accounts"] = accounts
    users: dict[str, int] = {}
    for account in accounts:  # the first account of each role; "reviewers" lists both
        users.setdefault(account["role"], User.objects.get(login=account["login"]).pk)
    context.made["users"] = users
    context.made["reviewers"] = [a["login"] for a in accounts if a["role"] == Role.REVIEWER.value]
