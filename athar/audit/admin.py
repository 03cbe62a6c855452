from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from athar.audit.models import AuditEvent


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """The audit chain is read-only everywhere."""

    list_display = ("seq", "at", "actor", "action", "object_type", "object_id")
    list_filter = ("action",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
