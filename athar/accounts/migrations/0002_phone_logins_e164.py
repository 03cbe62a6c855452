"""Phone logins to E.164 (issue 17): '0944321765' and '+963944321765' were two logins.

An account whose login reads as a phone number gets the E.164 form (read in ATHAR_PHONE_REGION);
when two accounts would end on one login, the older keeps it and the other is left unchanged
(reported on stderr) for an administrator to merge: nothing is dropped.
"""

import sys

from django.db import migrations


def _looks_like_phone(login: str) -> bool:
    return "@" not in login and not login.startswith("code:")


def forwards(apps, schema_editor):
    from athar.accounts.phones import try_normalise_phone

    User = apps.get_model("accounts", "User")
    taken = set(User.objects.values_list("login", flat=True))
    for user in User.objects.order_by("date_joined", "pk"):
        fields = []
        if user.phone:
            phone = try_normalise_phone(user.phone)
            if phone and phone != user.phone:
                user.phone = phone
                fields.append("phone")
        if _looks_like_phone(user.login):
            login = try_normalise_phone(user.login)
            if login and login != user.login:
                if login in taken:
                    print(f"accounts: user {user.pk} keeps its login: another account already has this number",
                          file=sys.stderr)
                else:
                    taken.discard(user.login)
                    taken.add(login)
                    user.login = login
                    fields.append("login")
        if fields:
            user.save(update_fields=fields)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]
    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
