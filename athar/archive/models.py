"""Archives of evidence: agencies, facilities, cases (one body each), photos and their derivatives.

A photo is stored once, content-addressed by sha256; every place it was found is a sighting.
"""

from __future__ import annotations

import uuid

from django.db import models
from django.utils.translation import gettext_lazy as _

from athar.archive import rejections


class Agency(models.Model):
    """A security agency or institution holding or photographing detainees (editable data)."""

    code = models.SlugField(max_length=64, unique=True, verbose_name=_("code"))
    name_en = models.CharField(max_length=200, verbose_name=_("English name"))
    name_ar = models.CharField(max_length=200, blank=True, verbose_name=_("Arabic name"))
    aliases = models.JSONField(default=list, blank=True, verbose_name=_("other names"))

    class Meta:
        ordering = ["name_en"]
        verbose_name = _("agency")
        verbose_name_plural = _("agencies")

    def __str__(self) -> str:
        return self.name_en


class Facility(models.Model):
    """A branch, prison or hospital: by number (``215``) or, without one, by normalised name."""

    class Kind(models.TextChoices):
        BRANCH = "branch", _("branch")
        PRISON = "prison", _("prison")
        HOSPITAL = "hospital", _("hospital")
        OTHER = "other", _("other")

    code = models.CharField(max_length=120, unique=True, verbose_name=_("code"))
    number = models.PositiveIntegerField(null=True, blank=True, verbose_name=_("number"))
    name_en = models.CharField(max_length=200, blank=True, verbose_name=_("English name"))
    name_ar = models.CharField(max_length=200, blank=True, verbose_name=_("Arabic name"))
    aliases = models.JSONField(default=list, blank=True, verbose_name=_("nicknames and spellings"))
    agency = models.ForeignKey(Agency, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="facilities", verbose_name=_("agency"))
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.BRANCH, verbose_name=_("kind"))
    place = models.CharField(max_length=200, blank=True, verbose_name=_("place"))
    notes = models.TextField(blank=True, verbose_name=_("notes"))

    class Meta:
        ordering = ["number", "code"]
        verbose_name = _("facility")
        verbose_name_plural = _("facilities")

    def __str__(self) -> str:
        return self.name_en or self.code


class Archive(models.Model):
    """A source collection of evidence (e.g. the Caesar photographs)."""

    name = models.CharField(max_length=200, unique=True, verbose_name=_("name"))
    provenance = models.TextField(blank=True, verbose_name=_("provenance"))
    custodian = models.CharField(max_length=200, blank=True, verbose_name=_("custodian"))
    received_date = models.DateField(null=True, blank=True, verbose_name=_("received"))
    notes = models.TextField(blank=True, verbose_name=_("notes"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("archive")
        verbose_name_plural = _("archives")

    def __str__(self) -> str:
        return self.name


class DatePrecision(models.TextChoices):
    DAY = "day", _("day")
    MONTH = "month", _("month")
    YEAR = "year", _("year")
    UNKNOWN = "unknown", _("unknown")


class Sex(models.TextChoices):
    MALE = "M", _("male")
    FEMALE = "F", _("female")
    UNKNOWN = "U", _("unknown")


class Case(models.Model):
    """One body in one archive, unique by archive + facility + case label."""

    class Status(models.TextChoices):
        UNIDENTIFIED = "unidentified", _("not identified")
        UNDER_REVIEW = "under_review", _("under review")
        IDENTIFIED = "identified", _("identified")

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    archive = models.ForeignKey(Archive, on_delete=models.PROTECT, related_name="cases", verbose_name=_("archive"))
    facility = models.ForeignKey(Facility, on_delete=models.PROTECT, related_name="cases", verbose_name=_("facility"))
    label = models.CharField(max_length=200, verbose_name=_("case label"))
    detainee_number = models.CharField(max_length=64, blank=True, verbose_name=_("detainee number"))
    hospital_number = models.CharField(max_length=64, blank=True, verbose_name=_("hospital number"))
    photographed = models.DateField(null=True, blank=True, verbose_name=_("photographed"))
    photographed_precision = models.CharField(max_length=8, choices=DatePrecision.choices,
                                              default=DatePrecision.UNKNOWN)
    sex = models.CharField(max_length=1, choices=Sex.choices, default=Sex.UNKNOWN, verbose_name=_("sex"))
    age_min = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("estimated age from"))
    age_max = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("estimated age to"))
    marks = models.TextField(blank=True, verbose_name=_("distinguishing marks"))
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.UNIDENTIFIED,
                              verbose_name=_("status"))
    notes = models.TextField(blank=True, verbose_name=_("notes"))
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["archive", "facility", "label"]
        constraints = [
            models.UniqueConstraint(fields=["archive", "facility", "label"], name="case_unique_label"),
        ]
        verbose_name = _("case")
        verbose_name_plural = _("cases")

    def __str__(self) -> str:
        return f"{self.facility.code}/{self.label}"


class Photo(models.Model):
    """One stored original, by content. ``case`` and ``original_path`` are where it was first seen."""

    class Kind(models.TextChoices):
        FACE = "face", _("face")
        BODY = "body", _("body")
        LABEL = "label", _("number card")
        MARKS = "marks", _("marks")
        UNKNOWN = "unknown", _("unknown")

    sha256 = models.CharField(max_length=64, unique=True)
    archive = models.ForeignKey(Archive, on_delete=models.PROTECT, related_name="photos")
    case = models.ForeignKey(Case, null=True, blank=True, on_delete=models.PROTECT, related_name="photos")
    original_path = models.CharField(max_length=1024)
    original_name = models.CharField(max_length=512)
    size = models.BigIntegerField()
    width = models.PositiveIntegerField(null=True, blank=True)
    height = models.PositiveIntegerField(null=True, blank=True)
    format = models.CharField(max_length=16, blank=True)
    exif = models.JSONField(default=dict, blank=True)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.UNKNOWN)
    phash = models.CharField(max_length=16, blank=True, db_index=True)
    dhash = models.CharField(max_length=16, blank=True)
    viewable = models.BooleanField(default=True)
    problem = models.CharField(max_length=300, blank=True)
    photographed = models.DateField(null=True, blank=True)
    note = models.TextField(blank=True)
    faces_indexed = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        verbose_name = _("photo")
        verbose_name_plural = _("photos")

    def __str__(self) -> str:
        return f"photo {self.sha256[:12]}"


class PhotoSighting(models.Model):
    """Every place a photo was found in an archive (an exact duplicate is a second sighting)."""

    photo = models.ForeignKey(Photo, on_delete=models.PROTECT, related_name="sightings")
    archive = models.ForeignKey(Archive, on_delete=models.PROTECT, related_name="sightings")
    case = models.ForeignKey(Case, null=True, blank=True, on_delete=models.PROTECT, related_name="sightings")
    path = models.CharField(max_length=1024)
    ingest_run = models.ForeignKey("IngestRun", null=True, on_delete=models.SET_NULL)
    seen_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["archive", "path"], name="sighting_unique_path")]


class NearDuplicate(models.Model):
    """Two different files that show the same picture (re-encoded or resized)."""

    photo = models.ForeignKey(Photo, on_delete=models.CASCADE, related_name="near_duplicates")
    other = models.ForeignKey(Photo, on_delete=models.CASCADE, related_name="+")
    distance = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["photo", "other"], name="near_duplicate_unique")]


class Derivative(models.Model):
    """A viewing copy made from an original: no EXIF, never the evidence itself."""

    class Kind(models.TextChoices):
        VIEW = "view", _("view")
        THUMB = "thumb", _("thumbnail")
        BLUR = "blur", _("blurred")
        BLUR_THUMB = "blur_thumb", _("blurred thumbnail")
        FACE = "face", _("face crop")
        FACE_BLUR = "face_blur", _("blurred face crop")

    photo = models.ForeignKey(Photo, on_delete=models.CASCADE, related_name="derivatives")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    face_index = models.PositiveSmallIntegerField(default=0)
    path = models.CharField(max_length=300)
    sha256 = models.CharField(max_length=64)
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["photo", "kind", "face_index"], name="derivative_unique")]


class Face(models.Model):
    """A face found in an archive photo, with its embedding and the model that made it."""

    photo = models.ForeignKey(Photo, on_delete=models.CASCADE, related_name="faces")
    case = models.ForeignKey(Case, null=True, blank=True, on_delete=models.CASCADE, related_name="faces")
    index = models.PositiveSmallIntegerField()
    box = models.JSONField()
    rotation = models.PositiveSmallIntegerField(default=0)
    quality = models.FloatField()
    embedding = models.BinaryField()
    model_name = models.CharField(max_length=64)
    model_version = models.CharField(max_length=128)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["photo", "index", "model_name", "model_version"], name="face_unique"),
        ]


class IngestRun(models.Model):
    """One run of ``athar ingest`` (or one started from the archivists' page and run by the worker):
    its arguments, how far it got (``phase``, ``done`` of ``total``, written once a batch), its
    counts and the files it reported."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting for the worker")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    class Phase(models.TextChoices):
        FILES = "files", _("keeping and reading the files")
        FACES = "faces", _("finding faces")
        DONE = "done", _("finished")

    archive = models.ForeignKey(Archive, on_delete=models.PROTECT, related_name="ingest_runs")
    source = models.CharField(max_length=1024)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.RUNNING)
    counts = models.JSONField(default=dict, blank=True)
    phase = models.CharField(max_length=8, choices=Phase.choices, blank=True)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(null=True, blank=True)
    progress_at = models.DateTimeField(null=True, blank=True)
    # Started from the web: who asked, whether faces are indexed too, and why it failed.
    requested_by = models.ForeignKey("accounts.User", null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="+")
    faces = models.BooleanField(default=False)
    error = models.TextField(blank=True)

    def percent(self) -> int:
        return min(100, int(100 * self.done / self.total)) if self.total else 0

    class Meta:
        ordering = ["-started_at"]


class RejectedFile(models.Model):
    """A file (or a metadata row) an ingest could not take as a viewable photo, and why: a code
    and its values (archive/rejections.py) for pages in the reader's language, and the English
    ``reason`` for commands and logs. Rows from before codes existed have the code ``other``."""

    run = models.ForeignKey(IngestRun, on_delete=models.CASCADE, related_name="rejected")
    path = models.CharField(max_length=1024)
    reason = models.CharField(max_length=500)
    code = models.CharField(max_length=32, default=rejections.OTHER)
    params = models.JSONField(default=dict, blank=True)
    kept_sha256 = models.CharField(max_length=64, blank=True)

    def where(self) -> str:
        """The file named on pages (a metadata row's file; its row is part of the message)."""
        return str(self.params.get("file") or self.path) if self.code == rejections.NESTED else self.path

    def detail(self) -> str:
        """The technical detail, verbatim (often English: an exception's text)."""
        return rejections.detail(self.code, self.params, self.reason)


class PhotoNumbersRead(models.Model):
    """A photo was read for numbers by one reader version (whatever it found, even nothing): what
    makes ``athar numbers index`` resumable. Stored in the same transaction as the readings."""

    photo = models.ForeignKey(Photo, on_delete=models.CASCADE, related_name="numbers_read")
    reader_version = models.CharField(max_length=64)
    readable = models.BooleanField(default=True)
    read_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["photo", "reader_version"], name="photo_numbers_read_once")]


class NumberReading(models.Model):
    """A number the reader found written in a photo, as a *suggestion* for archivists (issue 29).

    ``text`` is always in Western digits; the box is in the stored photo's pixels. A suggestion is
    confirmed, corrected (new text and a reason) or rejected by an archivist, named in
    ``decided_by``. A number that would change a case's detainee number or branch also needs a
    second, different archivist (``second_by``) before it counts: ``needs_second`` is set when the
    first archivist decides, from the case as it stood then. The rules are database constraints, so
    no code path (web, API, command line, a script) can store a decision that breaks them.
    """

    class Kind(models.TextChoices):
        DETAINEE = "detainee", _("detainee number")
        BRANCH = "branch", _("branch number")
        OTHER = "other", _("other number")

    class Status(models.TextChoices):
        SUGGESTED = "suggested", _("suggested")
        CONFIRMED = "confirmed", _("confirmed")
        CORRECTED = "corrected", _("corrected")
        REJECTED = "rejected", _("rejected")

    photo = models.ForeignKey(Photo, on_delete=models.CASCADE, related_name="number_readings",
                              verbose_name=_("photo"))
    text = models.CharField(max_length=16, verbose_name=_("number read"))
    confidence = models.FloatField(verbose_name=_("confidence"))
    x0 = models.IntegerField()
    y0 = models.IntegerField()
    x1 = models.IntegerField()
    y1 = models.IntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices, blank=True, verbose_name=_("kind"))
    reader_version = models.CharField(max_length=64, verbose_name=_("reader version"))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SUGGESTED,
                              verbose_name=_("status"))
    corrected_text = models.CharField(max_length=16, blank=True, verbose_name=_("corrected number"))
    reason = models.CharField(max_length=500, blank=True, verbose_name=_("reason"))
    decided_by = models.ForeignKey("accounts.User", null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="number_decisions", verbose_name=_("decided by"))
    decided_at = models.DateTimeField(null=True, blank=True, verbose_name=_("decided"))
    needs_second = models.BooleanField(default=False, verbose_name=_("needs a second archivist"))
    second_by = models.ForeignKey("accounts.User", null=True, blank=True, on_delete=models.PROTECT,
                                  related_name="number_second_decisions", verbose_name=_("agreed by"))
    second_at = models.DateTimeField(null=True, blank=True, verbose_name=_("agreed"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["photo", "-confidence", "pk"]
        verbose_name = _("number reading")
        verbose_name_plural = _("number readings")
        constraints = [
            models.UniqueConstraint(fields=["photo", "x0", "y0", "x1", "y1", "reader_version"],
                                    name="number_reading_unique_box"),
            models.CheckConstraint(
                condition=models.Q(status="suggested", decided_by__isnull=True, decided_at__isnull=True)
                | (~models.Q(status="suggested") & models.Q(decided_by__isnull=False, decided_at__isnull=False)),
                name="number_reading_decided_names_who"),
            models.CheckConstraint(
                condition=(models.Q(status="corrected") & ~models.Q(corrected_text="") & ~models.Q(reason=""))
                | (~models.Q(status="corrected") & models.Q(corrected_text="")),
                name="number_reading_correction_has_reason"),
            models.CheckConstraint(
                condition=models.Q(second_by__isnull=True, second_at__isnull=True)
                | (models.Q(second_by__isnull=False, second_at__isnull=False, needs_second=True,
                            status__in=["confirmed", "corrected"]) & ~models.Q(second_by=models.F("decided_by"))),
                name="number_reading_second_is_another"),
            models.CheckConstraint(
                condition=~models.Q(needs_second=True) | models.Q(status__in=["confirmed", "corrected"]),
                name="number_reading_second_only_when_agreed"),
        ]

    def __str__(self) -> str:
        return f"number {self.text} in photo {self.photo_id}"

    @property
    def box(self) -> list[int]:
        return [self.x0, self.y0, self.x1, self.y1]

    @property
    def number(self) -> str:
        """The number as decided: the correction if any, else what was read."""
        return self.corrected_text or self.text

    @property
    def settled(self) -> bool:
        """Counts as the archive's number: agreed by one archivist, or two where two are needed."""
        return self.status in ("confirmed", "corrected") and (not self.needs_second or self.second_by_id is not None)
