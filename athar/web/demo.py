"""Demo steps: the organisation's contact, and an invitation code to try a family's first visit
as a mother would."""

from __future__ import annotations

from athar.accounts.models import Invitation, User, format_code
from athar.config import ORGANISATION_CONTACT_FILE, organisation_contact
from athar.core.demo import DemoContext, demo_step

DEMO_CONTACT = ("منظمة تجريبية — Demo organisation\n"
                "هاتف / Phone: +963 11 000 0000 (السبت–الخميس، ٩–١٧ / Sat–Thu, 9–17)\n"
                "support@demo.athar.invalid")


@demo_step(5, "contact")
def organisation_contact_for_the_demo(context: DemoContext) -> None:
    """A family that registers itself has no caseworker yet: the support page must name someone.
    The demo writes a (fictional) contact beside its data unless one is configured."""
    if organisation_contact(context.home):
        return
    path = context.home / ORGANISATION_CONTACT_FILE
    path.write_text(DEMO_CONTACT + "\n", encoding="utf-8")
    path.chmod(0o600)
    context.lines.append(f"Organisation contact shown to families (fictional): {path} — set "
                         "ATHAR_ORGANISATION_CONTACT for yours")


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
