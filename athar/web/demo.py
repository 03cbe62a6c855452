"""Demo step: an invitation code, to try a family's first visit as a mother would."""

from __future__ import annotations

from athar.accounts.models import Invitation, User, format_code
from athar.core.demo import DemoContext, demo_step


@demo_step(25, "web")
def invitation_code(context: DemoContext) -> None:
    caseworker_id = context.made.get("users", {}).get("caseworker")
    caseworker = User.objects.filter(pk=caseworker_id).first() if caseworker_id else None
    if caseworker is None:
        return
    _, code = Invitation.issue(caseworker)
    context.made["invitation_code"] = format_code(code)
    context.lines.append(f"A new family's first visit: /accounts/invitation/ with the code {format_code(code)}")
    from django.conf import settings

    if getattr(settings, "ATHAR_OPEN_REGISTRATION", True):
        context.lines.append("Or without an invitation: /accounts/register/ with a phone number "
                             "(the account then waits for a caseworker to take it on)")
