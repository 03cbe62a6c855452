"""Admin for the editable reference data (agencies, facilities) and read-only evidence rows."""

from django.contrib import admin

from athar.archive.models import Agency, Archive, Case, Facility, IngestRun, Photo
from athar.core.admin import ReadOnlyAdmin


@admin.register(Agency)
class AgencyAdmin(admin.ModelAdmin):
    list_display = ("code", "name_en", "name_ar")
    search_fields = ("code", "name_en", "name_ar")


@admin.register(Facility)
class FacilityAdmin(admin.ModelAdmin):
    list_display = ("code", "number", "name_en", "name_ar", "agency", "kind", "place")
    list_filter = ("kind", "agency")
    search_fields = ("code", "name_en", "name_ar")


@admin.register(Archive)
class ArchiveAdmin(admin.ModelAdmin):
    list_display = ("name", "custodian", "received_date")


@admin.register(Case)
class CaseAdmin(admin.ModelAdmin):
    list_display = ("label", "facility", "archive", "detainee_number", "sex", "status")
    list_filter = ("archive", "facility", "status")
    readonly_fields = ("public_id", "archive", "facility", "label")


@admin.register(Photo)
class PhotoAdmin(ReadOnlyAdmin):
    list_display = ("sha256", "archive", "case", "original_name", "format", "viewable", "kind")
    list_filter = ("archive", "viewable", "kind")


@admin.register(IngestRun)
class IngestRunAdmin(ReadOnlyAdmin):
    list_display = ("archive", "started_at", "finished_at", "status")
