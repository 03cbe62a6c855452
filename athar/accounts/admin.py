"""Two-factor devices are not in the admin: django-otp's admin would show each key and its QR code
to every administrator. Enrolment goes through ``athar user enrol`` (athar.accounts.second_factor)."""

from django.contrib import admin
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

for model in (TOTPDevice, StaticDevice):
    if admin.site.is_registered(model):
        admin.site.unregister(model)
