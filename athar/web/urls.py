"""Page URLs. Names are stable: rate limits and the security tests key on them."""

from django.urls import path

from athar.web import converters
from athar.web.views import (
    administration,
    archivist,
    candidates,
    caseworker,
    family,
    linkage,
    photos,
    public,
    ranking,
    reports,
    reviewer,
)

converters.register_all()  # <report:…>, <rphoto:…>, <candidate:…>, <family:…>: a salt per kind

app_name = "web"
urlpatterns = [
    # public
    path("", public.home, name="home"),
    path("about/", public.about, name="about"),
    path("method/", public.method, name="method"),
    path("support/", public.support, name="support"),
    path("privacy/", public.privacy, name="privacy"),
    path("identified/", public.identified, name="identified"),
    path("statistics/", public.stats, name="stats"),
    path("me/", public.dashboard, name="dashboard"),
    # families (and caseworkers on their behalf)
    path("family/", family.home, name="family_home"),
    path("reports/new/", reports.new, name="report_new"),
    path("reports/new/<str:step>/", reports.step, name="report_step"),
    path("reports/drafts/<int:draft_id>/discard/", reports.discard_draft, name="draft_discard"),
    path("reports/<report:report_id>/", family.report, name="report"),
    path("reports/<report:report_id>/edit/", reports.edit, name="report_edit"),
    path("reports/<report:report_id>/edit/<str:step>/", reports.step, name="report_edit_step"),
    path("reports/<report:report_id>/consent/", family.consent, name="consent"),
    path("reports/<report:report_id>/consent/recorded/", family.record_consent, name="record_consent"),
    path("reports/<report:report_id>/export/", family.export_data, name="report_export"),
    path("reports/<report:report_id>/erase/", family.erase, name="report_erase"),
    path("reports/<report:report_id>/photos/", family.photos, name="report_photos"),
    path("reports/<report:report_id>/photos/<rphoto:photo_id>/faces/", family.pick_face, name="pick_face"),
    path("reports/<report:report_id>/photos/<rphoto:photo_id>/remove/", family.remove_photo, name="report_photo_remove"),
    path("reports/<report:report_id>/candidates/", candidates.candidate_list, name="candidates"),
    path("candidates/<candidate:candidate_id>/", candidates.candidate, name="candidate"),
    path("candidates/<candidate:candidate_id>/reveal/", candidates.reveal, name="photo_reveal"),
    path("candidates/<candidate:candidate_id>/claim/", candidates.claim, name="claim"),
    # photos (permission-checked; see access.py)
    path("photos/derivative/<int:derivative_id>/", photos.derivative, name="derivative"),
    path("photos/report/<rphoto:photo_id>/<str:kind>/", photos.report_photo, name="report_photo"),
    # caseworkers
    path("caseworker/", caseworker.home, name="caseworker_home"),
    path("caseworker/invitations/", caseworker.invite, name="invite"),
    path("caseworker/invitations/<int:invitation_id>/revoke/", caseworker.revoke_invitation, name="invite_revoke"),
    path("caseworker/notices/read/", caseworker.read_notices, name="notices_read"),
    path("caseworker/tasks/<int:notice_id>/told/", caseworker.task_told, name="task_told"),
    path("caseworker/claims/<int:claim_id>/challenge/", caseworker.claim_challenge, name="claim_challenge"),
    path("caseworker/families/<family:user_id>/take/", caseworker.take_family, name="take_family"),
    path("caseworker/families/<family:user_id>/reset-code/", caseworker.reset_code, name="reset_code"),
    path("caseworker/import/", caseworker.import_reports, name="import"),
    path("caseworker/import/<import:batch_id>/", caseworker.import_progress, name="import_progress"),
    path("caseworker/identifications/<int:identification_id>/", caseworker.publication, name="publication"),
    path("caseworker/import/template-<str:lang>.<str:fmt>", caseworker.import_template, name="import_template"),
    # reviewers
    path("review/", reviewer.queue, name="review_queue"),
    path("review/conflicts/", reviewer.conflicts, name="conflicts"),
    path("review/conflicts/<int:conflict_id>/resolve/", reviewer.resolve_conflict, name="conflict_resolve"),
    path("review/identifications/<int:identification_id>/", reviewer.compare, name="compare"),
    path("review/identifications/<int:identification_id>/decide/", reviewer.decide, name="decide"),
    path("review/identifications/<int:identification_id>/reviews/<int:review_id>/reverse/", reviewer.reverse_review,
         name="review_reverse"),
    path("review/conflicts/<int:conflict_id>/reopen/", reviewer.reopen_conflict, name="conflict_reopen"),
    path("review/challenges/<int:challenge_id>/decide/", reviewer.decide_challenge, name="challenge_decide"),
    path("review/links/", linkage.review, name="link_review"),
    path("review/links/pairs/<int:pair_id>/decide/", linkage.decide, name="link_decide"),
    path("review/links/decisions/<int:decision_id>/withdraw/", linkage.reverse, name="link_reverse"),
    # archivists
    path("archive/", archivist.archives, name="archives"),
    path("archive/<int:archive_id>/", archivist.archive, name="archive"),
    path("archive/facilities/", archivist.facilities, name="facilities"),
    path("archive/facilities/<int:facility_id>/", archivist.facility, name="facility"),
    path("archive/facilities/<int:facility_id>/evidence/", archivist.facility_evidence, name="facility_evidence"),
    path("archive/cases/<int:case_id>/evidence/", archivist.case_evidence, name="case_evidence"),
    path("archive/cases/<int:case_id>/", archivist.case, name="case"),
    path("archive/cases/<int:case_id>/edit/", archivist.case_edit, name="case_edit"),
    path("archive/cases/<int:case_id>/reveal/", archivist.case_reveal, name="case_reveal"),
    path("archive/ingests/", archivist.ingest_runs, name="ingest_runs"),
    path("archive/ingests/<int:run_id>/", archivist.ingest_run, name="ingest_run"),
    path("archive/verify/", archivist.verify, name="verify"),
    path("caseworker/reports/<report:report_id>/ranked/", ranking.staff_candidates, name="staff_candidates"),
    # administrators
    path("admin/users/", administration.user_list, name="admin_users"),
    path("admin/users/new/", administration.user_new, name="admin_user_new"),
    path("admin/users/<int:user_id>/", administration.user_detail, name="admin_user"),
    path("admin/users/<int:user_id>/active/", administration.user_active, name="admin_user_active"),
    path("admin/users/<int:user_id>/two-factor/", administration.user_reset_two_factor, name="admin_user_2fa"),
    path("admin/audit/", administration.audit_log, name="audit_log"),
    path("admin/worker/", administration.worker, name="admin_worker"),
    path("admin/audit/verify/", administration.audit_verify, name="audit_verify"),
]
