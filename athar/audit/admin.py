from django.contrib import admin

from athar.audit.models import AuditEvent
from athar.core.admin import ReadOnlyAdmin


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    """The audit chain is read-only everywhere."""

    list_display = ("seq", "at", "actor", "action", "object_type", "object_id")
    list_filter = ("action",)
