"""Two-factor moves to django-otp (issue 17): each TOTP secret becomes a TOTPDevice (confirmed as
it was), then the hand-written columns go. Staff accounts that had no secret get none: an
administrator starts their enrolment (``athar user enrol``), never whoever signs in first."""

from base64 import b32decode
from binascii import hexlify

from django.db import migrations


def secrets_to_devices(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    TOTPDevice = apps.get_model("otp_totp", "TOTPDevice")
    for user in User.objects.exclude(totp_secret=""):
        secret = user.totp_secret.strip().upper()
        key = hexlify(b32decode(secret + "=" * (-len(secret) % 8))).decode()
        TOTPDevice.objects.create(user_id=user.pk, name="authenticator", key=key, confirmed=user.totp_confirmed,
                                  step=30, t0=0, digits=6, tolerance=1, drift=0, last_t=-1)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_phone_logins_e164"),
        ("otp_totp", "0003_add_timestamps"),
        ("otp_static", "0003_add_timestamps"),
    ]
    operations = [
        migrations.RunPython(secrets_to_devices, migrations.RunPython.noop),
        migrations.RemoveField(model_name="user", name="totp_secret"),
        migrations.RemoveField(model_name="user", name="totp_confirmed"),
    ]
