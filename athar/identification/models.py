"""Candidates, claims, reviews, conflicts, identifications, and the job queue (docs/identification.md).

Computed rows (rankings, candidates) are replaced on recomputation. People's decisions (claims,
reviews, conflict resolutions, publications) are attributed, timestamped, reversed with a reason and
never deleted; each is written to the audit chain.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ClaimQuerySet(models.QuerySet["Claim"]):
    """The claim states of ``lifecycle.CLAIM_STATES``, written once (they were copied ~20 times)."""

    def live(self) -> ClaimQuerySet:
        """Active claims: neither withdrawn nor set aside (they count, carry and conflict)."""
        return self.filter(withdrawn_at__isnull=True, set_aside_at__isnull=True)

    def not_withdrawn(self) -> ClaimQuerySet:
        """Still standing as the claimant's word, set aside or not (a set-aside claim can come back)."""
        return self.filter(withdrawn_at__isnull=True)

    def set_aside(self) -> ClaimQuerySet:
        """Set aside by a reviewer (withdrawn later or not)."""
        return self.filter(set_aside_at__isnull=False)

    def positive(self) -> ClaimQuerySet:
        return self.filter(verdict=Verdict.IS_THEM)


class IdentificationQuerySet(models.QuerySet["Identification"]):
    def active(self) -> IdentificationQuerySet:
        """Decided (verified or published): the one identification a case or a person may have."""
        return self.filter(status__in=ACTIVE_STATUSES)


class RankingQuerySet(models.QuerySet["Ranking"]):
    def current(self) -> RankingQuerySet:
        return self.filter(is_current=True)


class Ranking(models.Model):
    """One missing person (or a report not yet linked to a person) ranked against every case."""

    person = models.ForeignKey("registry.MissingPerson", null=True, blank=True, on_delete=models.CASCADE,
                               related_name="rankings")
    report = models.ForeignKey("registry.Report", null=True, blank=True, on_delete=models.CASCADE,
                               related_name="rankings")
    algorithm = models.CharField(max_length=64)
    algorithm_version = models.CharField(max_length=32)
    face_model = models.CharField(max_length=64, blank=True)
    has_photo = models.BooleanField(default=False)
    cases = models.PositiveIntegerField(default=0)
    likely_match = models.BooleanField(default=False)
    shortlist = models.PositiveIntegerField(default=0)
    scope = models.JSONField(default=dict, blank=True)  # e.g. cases in the reported facility
    computed_at = models.DateTimeField(auto_now_add=True)
    is_current = models.BooleanField(default=True, db_index=True)

    objects = RankingQuerySet.as_manager()

    class Meta:
        ordering = ["-computed_at"]
        indexes = [models.Index(fields=["person", "is_current"], name="ranking_person_idx"),
                   models.Index(fields=["report", "is_current"], name="ranking_report_idx")]
        constraints = [
            # A ranking is of a person or of a report not yet linked to one, never both nor neither.
            models.CheckConstraint(condition=models.Q(person__isnull=False, report__isnull=True)
                                   | models.Q(person__isnull=True, report__isnull=False),
                                   name="ranking_one_subject"),
        ]


class Candidate(models.Model):
    """One case in a ranking: score (sum of weights), probability, decision and the reasons."""

    ranking = models.ForeignKey(Ranking, on_delete=models.CASCADE, related_name="candidates")
    case = models.ForeignKey("archive.Case", on_delete=models.CASCADE, related_name="candidacies")
    rank = models.PositiveIntegerField()
    score = models.FloatField()
    probability = models.FloatField()
    likely_match = models.BooleanField(default=False)
    reasons = models.JSONField(default=list)

    class Meta:
        ordering = ["ranking", "rank"]
        constraints = [models.UniqueConstraint(fields=["ranking", "case"], name="candidate_unique_case")]


class Verdict(models.TextChoices):
    IS_THEM = "is_them", _("this is him/her")
    NOT_THEM = "not_them", _("this is not him/her")
    NOT_SURE = "not_sure", _("not sure")


class Claim(models.Model):
    """A family member's or caseworker's judgement on one candidate case: who said what, how sure."""

    class Certainty(models.TextChoices):
        CERTAIN = "certain", _("certain")
        PROBABLE = "probable", _("fairly sure")
        UNSURE = "unsure", _("unsure")

    person = models.ForeignKey("registry.MissingPerson", on_delete=models.PROTECT, related_name="claims")
    case = models.ForeignKey("archive.Case", on_delete=models.PROTECT, related_name="claims")
    verdict = models.CharField(max_length=10, choices=Verdict.choices)
    certainty = models.CharField(max_length=10, choices=Certainty.choices, default=Certainty.PROBABLE)
    relation = models.CharField(max_length=60, blank=True, verbose_name=_("relation to the person"))
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="claims")
    on_behalf_of = models.CharField(max_length=120, blank=True)  # a caseworker recording a relative's word
    created_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                     related_name="+")
    withdrawn_reason = models.TextField(blank=True)
    # The report on whose behalf the claim was made: a family sees its own claims only.
    report = models.ForeignKey("registry.Report", null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="claims")
    # Set aside by a reviewer resolving a conflict in favour of another claim (reversible).
    set_aside_at = models.DateTimeField(null=True, blank=True)
    set_aside_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                     related_name="+")
    set_aside_reason = models.TextField(blank=True)
    set_aside_by_conflict = models.ForeignKey("Conflict", null=True, blank=True, on_delete=models.SET_NULL,
                                              related_name="set_aside_claims")

    objects = ClaimQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]

    @property
    def active(self) -> bool:
        return self.withdrawn_at is None and self.set_aside_at is None


class ForensicResult(models.Model):
    """A DNA, dental, fingerprint or other result recorded from outside athar."""

    class Kind(models.TextChoices):
        DNA = "dna", _("DNA")
        DENTAL = "dental", _("dental")
        FINGERPRINT = "fingerprint", _("fingerprints")
        OTHER = "other", _("other")

    class Result(models.TextChoices):
        MATCH = "match", _("match")
        EXCLUSION = "exclusion", _("exclusion")
        INCONCLUSIVE = "inconclusive", _("inconclusive")

    person = models.ForeignKey("registry.MissingPerson", on_delete=models.PROTECT, related_name="forensic_results")
    case = models.ForeignKey("archive.Case", on_delete=models.PROTECT, related_name="forensic_results")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    result = models.CharField(max_length=12, choices=Result.choices)
    reference = models.CharField(max_length=200, blank=True, verbose_name=_("laboratory or file reference"))
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_reason = models.TextField(blank=True)


ACTIVE_STATUSES = ("verified", "published")


class Identification(models.Model):
    """The proposition "case C is person P", from the first positive claim to publication."""

    class Status(models.TextChoices):
        UNDER_REVIEW = "under_review", _("under review")
        VERIFIED = "verified", _("verified, the family not yet informed")
        PUBLISHED = "published", _("published")
        REJECTED = "rejected", _("rejected by review")
        WITHDRAWN = "withdrawn", _("withdrawn")
        SET_ASIDE = "set_aside", _("set aside in favour of another claim")

    class Evidence(models.TextChoices):
        FAMILY = "family", _("family recognition")
        CORROBORATED = "corroborated", _("corroborated")
        FORENSIC = "forensic", _("forensic")

    person = models.ForeignKey("registry.MissingPerson", on_delete=models.PROTECT, related_name="identifications")
    case = models.ForeignKey("archive.Case", on_delete=models.PROTECT, related_name="identifications")
    status = models.CharField(max_length=14, choices=Status.choices, default=Status.UNDER_REVIEW)
    evidence_level = models.CharField(max_length=14, choices=Evidence.choices, default=Evidence.FAMILY)
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)
    status_changed_at = models.DateTimeField(auto_now=True)
    status_reason = models.TextField(blank=True)

    objects = IdentificationQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["person", "case"], name="identification_unique_pair"),
            # One body, one person; one person, one body: at most one active identification each.
            models.UniqueConstraint(fields=["case"], condition=models.Q(status__in=ACTIVE_STATUSES),
                                    name="identification_one_active_per_case"),
            models.UniqueConstraint(fields=["person"], condition=models.Q(status__in=ACTIVE_STATUSES),
                                    name="identification_one_active_per_person"),
            models.CheckConstraint(condition=~models.Q(status="published") | models.Q(published_at__isnull=False),
                                   name="identification_published_has_date"),
        ]

    @property
    def is_active(self) -> bool:
        return self.status in ACTIVE_STATUSES


class Review(models.Model):
    """A reviewer's decision on an identification; publication needs two independent approvals."""

    class Decision(models.TextChoices):
        APPROVE = "approve", _("approve")
        REJECT = "reject", _("reject")

    identification = models.ForeignKey(Identification, on_delete=models.PROTECT, related_name="reviews")
    reviewer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    decision = models.CharField(max_length=8, choices=Decision.choices)
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    reversed_at = models.DateTimeField(null=True, blank=True)
    reversed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="+")
    reversed_reason = models.TextField(blank=True)

    class Meta:
        constraints = [
            # Two approvals must come from two accounts: one live review per reviewer.
            models.UniqueConstraint(fields=["identification", "reviewer"], condition=models.Q(reversed_at__isnull=True),
                                    name="review_one_live_per_reviewer"),
        ]


class FamilyInformed(models.Model):
    """The record that a family was told of a verified identification, in person or by phone,
    before anything is published: who told them, when, and how (never what was said)."""

    class Method(models.TextChoices):
        IN_PERSON = "in_person", _("in person")
        PHONE = "phone", _("by phone")

    identification = models.ForeignKey("Identification", on_delete=models.PROTECT, related_name="informed")
    report = models.ForeignKey("registry.Report", on_delete=models.PROTECT, related_name="+")
    informed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    informed_on = models.DateField()
    method = models.CharField(max_length=10, choices=Method.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["identification", "report"], name="family_informed_once")]


class Conflict(models.Model):
    """Something that blocks publication until a reviewer resolves it with a reason."""

    class Kind(models.TextChoices):
        CASE_TWO_PERSONS = "case_two_persons", _("one case claimed for two persons")
        PERSON_TWO_CASES = "person_two_cases", _("one person claimed for two cases")
        AGAINST_EVIDENCE = "against_evidence", _("a claim against the evidence")

    kind = models.CharField(max_length=20, choices=Kind.choices)
    key = models.CharField(max_length=120, db_index=True)  # what it is about, e.g. "case:12" or "claim:7"
    person = models.ForeignKey("registry.MissingPerson", null=True, blank=True, on_delete=models.PROTECT,
                               related_name="conflicts")
    case = models.ForeignKey("archive.Case", null=True, blank=True, on_delete=models.PROTECT, related_name="conflicts")
    claims = models.ManyToManyField(Claim, related_name="conflicts")
    detail = models.JSONField(default=dict)
    opened_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="+")
    resolution = models.TextField(blank=True)
    # The claim a reviewer chose to let stand (None: none of them, or not a choice between claims).
    kept_claim = models.ForeignKey(Claim, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["-opened_at"]

    @property
    def is_open(self) -> bool:
        return self.resolved_at is None


class Challenge(models.Model):
    """A question put to reviewers about a decided (verified or published) identification WHILE
    THE DECISION STANDS: a new claim against it, every claim on it withdrawn, or a caseworker
    asking on a family's behalf. Only a reviewer's reasoned decision ends it: *upheld*, the
    identification goes back to review (a reversal); *dismissed*, the claims that raised it are
    set aside and their families told."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        UPHELD = "upheld", _("upheld: the identification went back to review")
        DISMISSED = "dismissed", _("dismissed: the identification stands")

    class Grounds(models.TextChoices):
        NEW_CLAIM = "new_claim", _("a new claim against the identification")
        CLAIMS_WITHDRAWN = "claims_withdrawn", _("every claim on the identification was withdrawn")
        EVIDENCE = "evidence", _("new evidence against the identification")
        REQUEST = "request", _("a caseworker asked on a family's behalf")

    identification = models.ForeignKey(Identification, on_delete=models.PROTECT, related_name="challenges")
    grounds = models.CharField(max_length=20, choices=Grounds.choices)
    claims = models.ManyToManyField(Claim, related_name="challenges", blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                  related_name="+")
    report = models.ForeignKey("registry.Report", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    reason = models.TextField(blank=True)
    opened_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+")
    decision_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-opened_at"]
        constraints = [
            # Claims arriving while one is open join it: one open challenge per identification.
            models.UniqueConstraint(fields=["identification"], condition=models.Q(status="open"),
                                    name="challenge_one_open_per_identification"),
            models.CheckConstraint(condition=models.Q(status="open", decided_at__isnull=True)
                                   | (~models.Q(status="open") & models.Q(decided_at__isnull=False)),
                                   name="challenge_decided_has_date"),
        ]

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN


class Job(models.Model):
    """A unit of background work (``athar worker``), claimed with a conditional UPDATE."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    kind = models.CharField(max_length=16)  # subject | cases | sweep | import | link
    target = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    run_after = models.DateTimeField(db_index=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    locked_by = models.CharField(max_length=120, blank=True)
    locked_at = models.DateTimeField(null=True, blank=True)
    # Beaten every few seconds by the worker running it: a job whose beat stops (worker killed) is
    # taken back within a minute, not after STALE_AFTER (athar.identification.jobs).
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    result = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["run_after", "id"]
        indexes = [models.Index(fields=["status", "run_after"], name="job_queue_idx")]


class WorkerBeat(models.Model):
    """One ``athar worker`` process's heartbeat: who runs, since when, what it has done and its last
    error — read by ``athar status`` and the administrators' worker page (never personal data)."""

    name = models.CharField(max_length=120, unique=True)  # host:pid
    host = models.CharField(max_length=100)
    pid = models.PositiveIntegerField()
    started_at = models.DateTimeField()
    beat_at = models.DateTimeField(db_index=True)
    stopped_at = models.DateTimeField(null=True, blank=True)
    current_job = models.PositiveBigIntegerField(null=True, blank=True)
    done = models.PositiveIntegerField(default=0)
    failed = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["-beat_at"]


class Watermark(models.Model):
    """How far the worker's sweep has seen new reports and changed cases."""

    name = models.CharField(max_length=32, unique=True)
    value = models.CharField(max_length=64, blank=True)


class Notice(models.Model):
    """An in-app notice for a caseworker: a likely match found for one of their families' reports,
    or a decision on an identification of their families' missing person. Stored once (``key``),
    read-tracked, never holding names: the page renders the report's name for those allowed."""

    class Kind(models.TextChoices):
        CANDIDATE = "candidate", _("likely match found")
        DECISION = "decision", _("decision on an identification")
        INFORM = "inform", _("inform the family of a verified identification")
        TELL = "tell", _("tell the family of a change")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    key = models.CharField(max_length=120)
    report = models.ForeignKey("registry.Report", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    case = models.ForeignKey("archive.Case", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=20, blank=True)  # the identification's new status
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)
    # A task (kind INFORM or TELL) stays open until done: reading it does not close it.
    done_at = models.DateTimeField(null=True, blank=True)
    # TELL after a set-aside: the family's claim, whose reviewer's reason the caseworker reads.
    claim = models.ForeignKey("Claim", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    identification = models.ForeignKey("Identification", null=True, blank=True, on_delete=models.SET_NULL,
                                       related_name="+")

    class Meta:
        db_table = "web_notice"  # created when notices lived in the web app; the rows stay put
        ordering = ["-created_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="notice_unique_key_per_user")]
        indexes = [models.Index(fields=["user", "read_at"], name="notice_user_unread_idx")]
        verbose_name = _("notice")
        verbose_name_plural = _("notices")
