"""The registry of the missing: places, reports as filed, missing persons, links and decisions.

Design (docs/registry.md):

- A ``Report`` is one submission as filed. Its content never changes: a changed row re-imported
  with the same ``source`` + ``report_id`` becomes a new row (``version`` + 1, ``supersedes`` the
  old one). ``is_current`` is the only bookkeeping flag flipped on an old version. The one
  exception is a family's erasure, which replaces personal fields by a tombstone.
- ``lineage`` names all versions of one report (a hash of source + report_id); reviewer
  decisions are kept per lineage so they survive new versions.
- A linkage run writes ``ReportLink`` rows (report → person, probability, explanation) for every
  current report; the run is made current in the same transaction, so readers see the old
  assignment or the new one, never half of one.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Place(models.Model):
    """A governorate, district or sub-district (built-in governorates or an imported gazetteer)."""

    class Level(models.TextChoices):
        GOVERNORATE = "governorate", _("governorate")
        DISTRICT = "district", _("district")
        SUBDISTRICT = "subdistrict", _("sub-district")
        COMMUNITY = "community", _("community")

    code = models.CharField(max_length=120, unique=True, verbose_name=_("code"))
    pcode = models.CharField(max_length=32, blank=True, db_index=True, verbose_name=_("P-code"))
    level = models.CharField(max_length=16, choices=Level.choices, verbose_name=_("level"))
    name_en = models.CharField(max_length=200, verbose_name=_("English name"))
    name_ar = models.CharField(max_length=200, blank=True, verbose_name=_("Arabic name"))
    aliases = models.JSONField(default=list, blank=True, verbose_name=_("other names"))
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="children", verbose_name=_("part of"))
    source = models.CharField(max_length=120, default="built-in", verbose_name=_("source"))

    class Meta:
        ordering = ["level", "name_en"]
        verbose_name = _("place")
        verbose_name_plural = _("places")

    def __str__(self) -> str:
        return self.name_en


class MissingPerson(models.Model):
    """The person sought: the reports linked to them say who they are."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("missing person")
        verbose_name_plural = _("missing persons")

    def __str__(self) -> str:
        return f"missing person {self.pk}"


class ImportBatch(models.Model):
    """One import of a file: its hash, counts, actor and how far it got.

    Rows go in by chunks, each committed with ``checkpoint`` (the last file row it covered), so a
    crash loses at most the chunk in hand and importing the same file again resumes after the
    checkpoint (docs/registry.md). ``runner`` names the process writing it: a resumer takes the
    batch over with a conditional update and the process it replaced stops at its next chunk.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting for the worker")
        RUNNING = "running", _("importing")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    source = models.CharField(max_length=200)
    file_name = models.CharField(max_length=512)
    file_sha256 = models.CharField(max_length=64, db_index=True)
    file_format = models.CharField(max_length=32)
    actor = models.CharField(max_length=64, default="system")
    counts = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.DONE)
    rows_total = models.PositiveIntegerField(null=True, blank=True)
    rows_done = models.PositiveIntegerField(default=0)
    checkpoint = models.PositiveIntegerField(default=0)
    runner = models.CharField(max_length=64, blank=True)
    updated_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # A file uploaded in the web, imported by the worker: where it waits, who sent it (their
    # caseworker reports), and what the import said (warnings, refused rows) for the progress page.
    upload_path = models.CharField(max_length=512, blank=True)
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    result = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)


class ReportedStatus(models.TextChoices):
    """What the reporter believes: recorded as reported, never athar's finding."""

    DETAINED = "detained", _("detained (as reported)")
    MISSING = "missing", _("missing (as reported)")
    RELEASED = "released", _("released (as reported)")
    DEAD = "dead", _("dead (as reported)")
    UNKNOWN = "unknown", _("not stated")


class Build(models.TextChoices):
    SLIM = "slim", _("slim")
    MEDIUM = "medium", _("medium")
    HEAVY = "heavy", _("heavy")


class ReportQuerySet(models.QuerySet["Report"]):
    def current(self) -> ReportQuerySet:
        """The current version of each report (older versions stay, flagged ``is_current=False``)."""
        return self.filter(is_current=True)

    def current_kept(self) -> ReportQuerySet:
        """Current and not erased at the family's request: what athar may still rank and show."""
        return self.filter(is_current=True, erased_at__isnull=True)


class Report(models.Model):
    """One report about a missing person, exactly as filed (a new version is a new row)."""

    source = models.CharField(max_length=200, verbose_name=_("source"))
    report_id = models.CharField(max_length=200, verbose_name=_("report id at the source"))
    lineage = models.CharField(max_length=64, db_index=True)
    version = models.PositiveIntegerField(default=1)
    supersedes = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT,
                                      related_name="superseded_by")
    is_current = models.BooleanField(default=True, db_index=True)
    content_hash = models.CharField(max_length=64)
    batch = models.ForeignKey(ImportBatch, null=True, blank=True, on_delete=models.SET_NULL, related_name="reports")
    row_number = models.PositiveIntegerField(null=True, blank=True)
    filed_at = models.DateTimeField(auto_now_add=True)

    # Who reported (contact details only encrypted: athar.core.crypto, owner "report-lineage:<lineage>").
    reporter_relation = models.CharField(max_length=120, blank=True, verbose_name=_("relation of the reporter"))
    reporter_contact = models.BinaryField(null=True, blank=True, editable=False)
    reporter_user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                      related_name="reports_filed")
    caseworker = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="reports_handled")
    consent = models.JSONField(default=dict, blank=True, verbose_name=_("consent choices"))

    # Who the person is.
    full_name_ar = models.CharField(max_length=300, blank=True)
    full_name_latin = models.CharField(max_length=300, blank=True)
    first_name = models.CharField(max_length=120, blank=True)
    father_name = models.CharField(max_length=120, blank=True)
    grandfather_name = models.CharField(max_length=120, blank=True)
    family_name = models.CharField(max_length=120, blank=True)
    mother_name = models.CharField(max_length=200, blank=True)
    # What the written names carry besides the names (athar.matching.names.read_written_name, set by
    # registry.names): read from the names above, which stay verbatim; shown, and weak evidence.
    name_titles = models.JSONField(default=list, blank=True, verbose_name=_("titles and descriptors"))
    name_kunya = models.JSONField(default=list, blank=True, verbose_name=_("kunya"))
    name_nickname = models.CharField(max_length=200, blank=True, verbose_name=_("nickname"))
    name_notes = models.JSONField(default=list, blank=True, verbose_name=_("notes written with the name"))
    name_place = models.CharField(max_length=200, blank=True, verbose_name=_("place written with the name"))
    sex = models.CharField(max_length=1, default="U")
    birth_year = models.PositiveSmallIntegerField(null=True, blank=True)
    birth_year_margin = models.PositiveSmallIntegerField(default=0)
    birth_date = models.DateField(null=True, blank=True)
    # Age at detention as reported; without a date of detention it gives no birth year.
    age_at_detention = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("age at detention"))
    birth_place = models.CharField(max_length=200, blank=True)
    birth_place_ref = models.ForeignKey(Place, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    governorate = models.CharField(max_length=120, blank=True)
    governorate_ref = models.ForeignKey(Place, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    city = models.CharField(max_length=120, blank=True)
    city_ref = models.ForeignKey(Place, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    neighbourhood = models.CharField(max_length=200, blank=True)
    arrest_date = models.DateField(null=True, blank=True)
    arrest_date_precision = models.CharField(max_length=8, default="unknown")
    arrest_place = models.CharField(max_length=200, blank=True)
    arrest_place_ref = models.ForeignKey(Place, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    arresting_agency = models.CharField(max_length=200, blank=True)
    # The number the detainee carried (on the body in the archive photos), when the family knows it.
    detainee_number = models.CharField(max_length=40, blank=True)
    distinguishing_marks = models.TextField(blank=True)
    # What families know and forensic teams use (DVI ante-mortem data). Dental and medical details
    # feed the marks comparison (archive cases record missing teeth, old fractures, scars); the
    # archives hold no height, build, clothing or belongings yet: these are kept and shown to staff.
    height_cm = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("height (cm)"))
    build = models.CharField(max_length=8, choices=Build.choices, blank=True, verbose_name=_("build"))
    clothing = models.TextField(blank=True, verbose_name=_("clothing at arrest"))
    belongings = models.TextField(blank=True, verbose_name=_("belongings at arrest"))
    dental = models.TextField(blank=True, verbose_name=_("teeth"))
    medical = models.TextField(blank=True, verbose_name=_("medical details"))
    reported_status = models.CharField(max_length=10, choices=ReportedStatus.choices, default=ReportedStatus.UNKNOWN)
    notes = models.TextField(blank=True)
    extra = models.JSONField(default=dict, blank=True, verbose_name=_("columns athar does not know"))
    erased_at = models.DateTimeField(null=True, blank=True)

    objects = ReportQuerySet.as_manager()

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["source", "report_id", "version"], name="report_unique_version"),
            # One current version per report, whoever amends it at the same moment (the form, an import).
            models.UniqueConstraint(fields=["source", "report_id"], condition=models.Q(is_current=True),
                                    name="report_one_current_version"),
        ]
        indexes = [models.Index(fields=["source", "report_id", "is_current"], name="report_current_idx")]
        verbose_name = _("report")
        verbose_name_plural = _("reports")

    def __str__(self) -> str:
        return f"report {self.source}/{self.report_id} v{self.version}"


class ReportPhoto(models.Model):
    """A photo of the person alive, kept in the media store by content."""

    report = models.ForeignKey(Report, on_delete=models.CASCADE, related_name="photos")
    sha256 = models.CharField(max_length=64, db_index=True)
    original_name = models.CharField(max_length=512)
    size = models.BigIntegerField(default=0)
    derivatives = models.JSONField(default=dict, blank=True)  # kind -> media-relative path
    faces = models.JSONField(default=list, blank=True)  # [{box, quality, embedding_b64, model, version}]
    created_at = models.DateTimeField(auto_now_add=True)


class ReportDraft(models.Model):
    """A report being written (or a filed one being changed), saved at each step of the form so
    that it survives signing out; deleted once filed. One new report and one change per report
    at a time for each account."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="report_drafts")
    amends = models.ForeignKey(Report, null=True, blank=True, on_delete=models.CASCADE, related_name="drafts")
    data = models.JSONField(default=dict, blank=True)
    step = models.CharField(max_length=16, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner"], condition=models.Q(amends__isnull=True), name="draft_one_new"),
            models.UniqueConstraint(fields=["owner", "amends"], name="draft_one_per_report"),
        ]


class DataKey(models.Model):
    """A data key wrapped by the master key (athar.core.crypto). Deleting it shreds the data."""

    owner_ref = models.CharField(max_length=200, unique=True)
    wrapped_key = models.BinaryField()
    master_key_id = models.CharField(max_length=16)
    created_at = models.DateTimeField(auto_now_add=True)


class LinkageRun(models.Model):
    """One run of ``athar registry link``; exactly one finished run is current."""

    class Status(models.TextChoices):
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.RUNNING)
    is_current = models.BooleanField(default=False, db_index=True)
    engine = models.CharField(max_length=16)
    algorithm = models.CharField(max_length=64)
    algorithm_version = models.CharField(max_length=32)
    parameters = models.JSONField(default=dict, blank=True)
    counts = models.JSONField(default=dict, blank=True)

    class Meta:
        constraints = [
            # Every "which person is this report" reads the current run: two current runs would give
            # one report two persons, depending on which row a query met first.
            models.UniqueConstraint(fields=["is_current"], condition=models.Q(is_current=True),
                                    name="linkage_one_current_run"),
        ]


class ReportLink(models.Model):
    """Report → missing person, as decided by one run, with the probability and the reasons."""

    run = models.ForeignKey(LinkageRun, on_delete=models.CASCADE, related_name="links")
    report = models.ForeignKey(Report, on_delete=models.CASCADE, related_name="links")
    person = models.ForeignKey(MissingPerson, on_delete=models.PROTECT, related_name="links")
    probability = models.FloatField(null=True, blank=True)
    explanation = models.JSONField(default=dict, blank=True)

    class Meta:
        indexes = [models.Index(fields=["run", "person"], name="link_run_person_idx")]
        constraints = [models.UniqueConstraint(fields=["run", "report"], name="link_unique_report_per_run")]


class LinkageKey(models.Model):
    """The block index of the incremental linkage (registry/incremental.py): one row per blocking key
    of a current report (a 64-bit hash of one prediction rule's columns and values, never a name).
    Two reports the full run would compare share a key. Written with the report's link, rebuilt by
    the full run, removed in the transaction that erases the report."""

    report = models.ForeignKey(Report, on_delete=models.CASCADE, related_name="+")
    key = models.BigIntegerField(db_index=True)


class NameFrequency(models.Model):
    """How often a value of a term-frequency column (a name, a town) stands in the store, as the last
    full run counted it: the hash of the column and the value (never the value) → count."""

    key = models.BigIntegerField(unique=True)
    count = models.PositiveIntegerField()


class Verdict(models.TextChoices):
    SAME = "same", _("same person")
    DIFFERENT = "different", _("different persons")
    UNSURE = "unsure", _("unsure")
    REVERSAL = "reversal", _("decision withdrawn")


class LinkDecision(models.Model):
    """A reviewer's judgement on two reports (per lineage); reversed, never deleted."""

    left_lineage = models.CharField(max_length=64, db_index=True)
    right_lineage = models.CharField(max_length=64, db_index=True)
    left_report = models.ForeignKey(Report, on_delete=models.PROTECT, related_name="+")
    right_report = models.ForeignKey(Report, on_delete=models.PROTECT, related_name="+")
    verdict = models.CharField(max_length=10, choices=Verdict.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    reversed_by = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT,
                                       related_name="reverses")


class ReviewPair(models.Model):
    """A pair the model was unsure of, waiting for a reviewer (one row per run and pair)."""

    class Status(models.TextChoices):
        OPEN = "open", _("waiting for review")
        DECIDED = "decided", _("decided")

    run = models.ForeignKey(LinkageRun, on_delete=models.CASCADE, related_name="review_pairs")
    left_report = models.ForeignKey(Report, on_delete=models.CASCADE, related_name="+")
    right_report = models.ForeignKey(Report, on_delete=models.CASCADE, related_name="+")
    probability = models.FloatField()
    explanation = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["run", "left_report", "right_report"],
                                               name="review_pair_unique")]


class ConsentRecord(models.Model):
    """A family's consent to publication (or its withdrawal) recorded by staff or carried by an import:
    given on paper, by phone or in person to a caseworker, or in an organisation's list. One row per
    statement, never changed; the latest statement of a report (by lineage: every version) counts
    together with the family's own choice on the web (``registry.consent.publication_consent``).

    The family's own words are encrypted with the report's data key (``registry.keys``, owner
    ``report-lineage:<lineage>``): erasing the report shreds them with its contact details. They are
    never in the audit chain."""

    class Method(models.TextChoices):
        PAPER = "paper", _("on paper")
        PHONE = "phone", _("by phone")
        IN_PERSON = "in_person", _("in person")
        IMPORT = "import", _("in an imported list")

    lineage = models.CharField(max_length=64, db_index=True)
    report = models.ForeignKey(Report, on_delete=models.CASCADE, related_name="consent_records")
    publication = models.BooleanField(verbose_name=_("consents to publication"))
    method = models.CharField(max_length=10, choices=Method.choices)
    given_on = models.DateField(verbose_name=_("the day the family said so"))
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="+")
    source = models.CharField(max_length=200, blank=True, verbose_name=_("the import's source"))
    batch = models.ForeignKey(ImportBatch, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    words = models.BinaryField(null=True, blank=True, editable=False)
    recorded_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["recorded_at", "id"]
        constraints = [
            # Staff statements name who recorded them; an import's names its source.
            models.CheckConstraint(
                condition=(models.Q(method="import", source__gt="") |
                           (~models.Q(method="import") & models.Q(recorded_by__isnull=False))),
                name="consent_record_has_an_author"),
            models.CheckConstraint(condition=models.Q(method__in=["paper", "phone", "in_person", "import"]),
                                   name="consent_record_method_known"),
        ]

    def __str__(self) -> str:
        return f"consent {'given' if self.publication else 'withdrawn'} ({self.method}) for report {self.report_id}"
