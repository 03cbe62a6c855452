"""Every page of every role, rendered in Arabic, speaks Arabic.

Families read athar on a phone in Arabic; staff may use either language. A page in Arabic must not
carry an English sentence that athar wrote: no message id of the catalogue left untranslated, no raw
key (``files_seen``, ``under_review``) and no run of English words. Names, codes, numbers, e-mail
addresses and the language switch ("English") are allowed.
"""

from __future__ import annotations

import html
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from athar.archive.models import Case, IngestRun, RejectedFile
from athar.identification import claims
from tests.web.factories import make_candidate

CATALOGUE = Path(__file__).resolve().parents[2] / "athar" / "locale" / "ar" / "LC_MESSAGES" / "django.po"
# Words that may stand in an Arabic page: the other language's name, technical names that are
# names (athar, API, DNA, CSV …). Compared lower-cased.
ALLOWED_WORDS = {"english", "athar", "api", "csv", "xlsx", "json", "dna", "id", "sha256", "utc", "ok", "qr",
                 "totp", "openapi", "lfw", "gps", "exif", "pdf", "url", "https", "http", "www"}
# Not athar's words: scripts, styles, and what a form holds for editing (a textarea's value is the
# record's own text, as typed or as the archive wrote it).
HIDDEN_BLOCKS = re.compile(r"<(script|style|template|textarea)\b.*?</\1>", re.S | re.I)
# Machine text shown as such: audit records verbatim (tamper-evident), fingerprints, commands.
MACHINE_TEXT = re.compile(r"<code\b.*?</code>", re.S | re.I)
# The archive's own text (an examiner's marks) shown as it was written, and labelled so right after.
AS_WRITTEN = re.compile(r'<(\w+)\b[^>]*\bdata-as-written\b[^>]*>.*?</\1>(?=\s*<span class="as-written">)', re.S)
ATTRIBUTES_SHOWN = re.compile(r'\b(?:title|aria-label|placeholder|alt)="([^"]*)"')
BUTTON_VALUES = re.compile(r'<input\b[^>]*\btype="(?:submit|button|reset)"[^>]*\bvalue="([^"]*)"')
TAG = re.compile(r"<[^>]+>")
RAW_KEY = re.compile(r"\b[a-z]+_[a-z_]+\b")
ENGLISH_RUN = re.compile(r"\b[A-Za-z][a-z]+(?:[ ,'-]+[A-Za-z][a-z]+){2,}\b")
# A two-word label as Django makes one from a field name ("Photographed precision"): a capital, then a
# lower-case word (personal names in Latin letters capitalise both).
ENGLISH_LABEL = re.compile(r"\b[A-Z][a-z]+ [a-z]{3,}\b")


def catalogue_ids() -> set[str]:
    """English message ids of two words or more (single words are too often names or codes)."""
    text = CATALOGUE.read_text(encoding="utf-8")
    ids = set()
    for match in re.finditer(r'^msgid ((?:"(?:[^"\\]|\\.)*"\n)+)', text, re.M):
        value = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', match.group(1)))
        value = re.sub(r"%\(\w+\)s|%s|%d|\{\w*\}", "", value).strip()
        if len(value.split()) >= 2 and re.search(r"[a-z]{3}", value):
            ids.add(value)
    return ids


def visible_text(page: str) -> str:
    """What a reader sees or hears: text and the attributes screen readers read, entities decoded."""
    page = AS_WRITTEN.sub(" ", MACHINE_TEXT.sub(" ", HIDDEN_BLOCKS.sub(" ", page)))
    shown = " ".join(ATTRIBUTES_SHOWN.findall(page) + BUTTON_VALUES.findall(page))
    body = TAG.sub(" ", page)
    return html.unescape(f"{body} {shown}")


def english_left(text: str, known_ids: set[str], allowed: set[str]) -> list[str]:
    """English sentences, raw keys and untranslated message ids found in an Arabic page."""
    found = []
    for msgid in known_ids:
        if msgid in text:
            found.append(f"untranslated: {msgid!r}")
    for key in RAW_KEY.findall(text):
        if key not in allowed:
            found.append(f"raw key: {key!r}")
    for run in ENGLISH_RUN.findall(text) + ENGLISH_LABEL.findall(text):
        words = {w.lower() for w in re.findall(r"[A-Za-z]+", run)}
        if not words <= allowed:
            found.append(f"English: {run!r}")
    return sorted(set(found))


REAL_REASONS = [
    {"feature": "face", "level": "similarity", "weight": 2.5, "detail": "face similarity 0.61 with the family's photos"},
    {"feature": "facility", "level": "same_facility", "weight": 2.1,
     "detail": "reported 215; case in Branch 215 (Raids Branch) (military-intelligence): same facility"},
    {"feature": "sex", "level": "same", "weight": 0.4, "detail": "sex matches: reported male, case male"},
    {"feature": "marks", "level": "place", "weight": 1.3,
     "detail": "marks: reported tattoo, forearm; case tattoo (eagle), forearm, left (same kind and place (a side unknown))"},
    {"feature": "age", "level": "unknown", "weight": 0.0,
     "detail": "age cannot be compared (birth year, estimate or date unknown)"},
    {"feature": "number", "level": "unknown", "weight": 0.0, "detail": "detainee number: reported —, case — (no number on one side)"},
]


@pytest.fixture
def lived_in(world: Any) -> Any:
    """The world with what each role's pages show once athar has been used: a ranked candidate with
    reasons, a claim and an identification under review, an ingest with its summary."""
    from athar.identification.models import Candidate

    candidate = make_candidate(world.report, world.case)
    # reasons as the shipped algorithm stores them: its English details must never reach a page
    Candidate.objects.update(reasons=REAL_REASONS)
    # an examiner's marks written in English: shown as written, and said to be so
    Case.objects.filter(pk=world.case.pk).update(marks="tattoo of an eagle on the left forearm")
    from athar.identification.models import Notice

    Notice.objects.bulk_create(
        [Notice(user=world.caseworker, kind=kind, key=f"{kind}{status}", report=world.report, case=world.case,
                status=status) for kind, status in (("candidate", ""), ("inform", "1"), ("decision", "verified"),
                                                    ("decision", "set_aside"), ("tell", "published"))])
    candidate.refresh_from_db()
    claim = claims.make_claim(candidate.ranking.person or world.report.links.first().person, world.case, "is_them",
                              world.family, report=world.report)
    run = IngestRun.objects.create(archive=world.case.archive, source="/srv/archive", status="done",
                                   counts={"archive": "Caesar", "files_seen": 3, "photos_added": 2, "duplicates": 1,
                                           "rejected": 5, "faces": {"photos": 2, "faces": 2, "photos_without_face": 0,
                                                                    "model": "buffalo_l", "index_size": 2}})
    for path, code, params in (  # refused files of several kinds, as `athar ingest` stores them
            ("215/1/a.jpg", "not_an_image", {}),
            ("215/1/b.jpg", "corrupt_image", {"detail": "image file is truncated (3 bytes not processed)"}),
            ("215/1/c.png", "too_large", {"width": 30000, "height": 30000}),
            ("manifest.csv:row 4", "manifest_row", {"file": "manifest.csv", "row": 4, "problem": "unknown_kind",
                                                    "kind": "portrait", "allowed": "body, face, label, marks"}),
            ("cases.csv:row 2", "manifest_row", {"file": "cases.csv", "row": 2, "problem": "age_range_inverted",
                                                 "min": 60, "max": 20}),
            ("stray.jpg", "no_case", {})):
        RejectedFile.objects.create(run=run, path=path, code=code, params=params, reason="English words for logs")
    from athar.registry.models import ReportDraft

    # a caseworker's unfinished work: a new report for a family, changes to a filed report
    ReportDraft.objects.create(owner=world.caseworker, data={"family": world.family.pk, "full_name_ar": "سليم"},
                               step="birth")
    ReportDraft.objects.create(owner=world.caseworker, amends=world.report, data={}, step="person")
    world.candidate, world.claim = candidate, claim
    world.identification = claim.person.identifications.first()
    return world


def pages_of(world: Any) -> Iterator[tuple[str, Any, str]]:
    """(role, user, url) for every page each role can open."""
    public = ["web:home", "web:about", "web:method", "web:support", "web:identified", "web:stats", "web:privacy"]
    for name in public:
        yield "visitor", None, reverse(name)
    family = ["web:family_home", "web:report_new"]
    for name in family:
        yield "family", world.family, reverse(name)
    report = world.report.pk
    for name in ("web:report", "web:consent", "web:report_photos", "web:candidates", "web:report_erase"):
        yield "family", world.family, reverse(name, args=[report])
        yield "caseworker", world.caseworker, reverse(name, args=[report])
    yield "family", world.family, reverse("web:candidate", args=[world.candidate.pk])
    for name in ("web:caseworker_home", "web:invite", "web:import"):
        yield "caseworker", world.caseworker, reverse(name)
    yield "caseworker", world.caseworker, reverse("web:staff_candidates", args=[report])
    for name in ("web:admin_users", "web:admin_user_new", "web:audit_log"):
        yield "admin", world.admin, reverse(name)
    yield "admin", world.admin, reverse("web:admin_user", args=[world.family.pk])
    for name in ("web:review_queue", "web:conflicts", "web:link_review"):
        yield "reviewer", world.reviewer, reverse(name)
    if world.identification is not None:
        yield "reviewer", world.reviewer, reverse("web:compare", args=[world.identification.pk])
    for name in ("web:archives", "web:facilities", "web:ingest_runs", "web:verify"):
        yield "archivist", world.archivist, reverse(name)
    yield "archivist", world.archivist, reverse("web:archive", args=[world.case.archive_id])
    yield "archivist", world.archivist, reverse("web:case", args=[world.case.pk])
    yield "archivist", world.archivist, reverse("web:facility", args=[world.case.facility_id])
    yield "archivist", world.archivist, reverse("web:case_edit", args=[world.case.pk])
    run = IngestRun.objects.order_by("pk").last()
    yield "archivist", world.archivist, reverse("web:ingest_run", args=[run.pk])


@pytest.mark.django_db
def test_every_page_of_every_role_speaks_arabic(lived_in: Any, client_for: Any) -> None:
    known_ids = catalogue_ids()
    from athar.archive.models import Archive

    # What people typed (names, the archive's name) is theirs, in whatever language they wrote it.
    typed = [f"{r.full_name_latin} {r.source}" for r in (lived_in.report, lived_in.other_report)]
    typed += list(Archive.objects.values_list("name", flat=True))
    names = {w.lower() for text in typed for w in re.findall(r"[A-Za-z]+", text)}
    allowed = ALLOWED_WORDS | names
    problems: dict[str, list[str]] = {}
    for role, user, url in pages_of(lived_in):
        response = client_for(user).get(url, follow=True)
        assert response.status_code == 200, (role, url, response.status_code)
        left = english_left(visible_text(response.content.decode()), known_ids, allowed)
        if left:
            problems[f"{role} {url}"] = left
    assert problems == {}, "\n".join(f"{page}: {found}" for page, found in problems.items())


def test_the_checker_finds_english_keys_and_untranslated_ids() -> None:
    """The check itself can fail: each kind of leftover is found, Arabic and names pass."""
    known = {"Your report is filed"}
    page = visible_text('<p>تم حفظ البلاغ</p><p title="Your report is filed">x</p><p>files_seen: 127</p>'
                        "<p>this is not translated at all</p><p>محمد Mohammed</p><a>English</a>")
    found = english_left(page, known, ALLOWED_WORDS | {"mohammed"})
    assert english_left("تاريخ Photographed precision", set(), ALLOWED_WORDS) == ["English: 'Photographed precision'"]
    assert "untranslated: 'Your report is filed'" in found
    assert "raw key: 'files_seen'" in found
    assert any(f.startswith("English: 'this is not translated") for f in found)
    assert english_left(visible_text("<p>تم حفظ البلاغ</p><p>محمد Mohammed</p><a>English</a>"), known,
                        ALLOWED_WORDS | {"mohammed"}) == []


@pytest.mark.django_db
def test_error_pages_speak_arabic(world: Any, client_for: Any) -> None:
    """A page that is not there (404) and one that is refused (403), in Arabic, right to left."""
    known_ids = catalogue_ids()
    missing = client_for(world.family).get("/this-page-does-not-exist/")
    refused = client_for(world.family).get(reverse("web:archives"))
    for response in (missing, refused):
        page = response.content.decode()
        assert response.status_code in (403, 404) and 'dir="rtl"' in page
        assert english_left(visible_text(page), known_ids, ALLOWED_WORDS) == []


@pytest.mark.django_db
def test_a_refusal_of_the_rules_reaches_the_page_in_its_language(lived_in: Any) -> None:
    """The two-reviewer rule refuses in the reader's language (the command line keeps English)."""
    from django.utils import translation

    from athar.core.errors import UserError

    ident = lived_in.identification
    claims.review(ident, lived_in.reviewer, "approve", "same scar")
    for language, expected in (("ar", "راجعتم هذا التعرّف من قبل"), ("en", "you already reviewed this identification")):
        with translation.override(language), pytest.raises(UserError) as refused:
            claims.review(ident, lived_in.reviewer, "approve", "again")
        assert expected in str(refused.value)


# ---- plural forms: every count athar says has Arabic's six forms ---------------------------------

TEMPLATES = Path(__file__).resolve().parents[2] / "athar" / "web" / "templates"
SOURCES = Path(__file__).resolve().parents[2] / "athar"
BLOCK_PLURAL = re.compile(r"\{% blocktrans(?:late)? [^%]*\bcount\b[^%]*%\}(.*?)\{% plural %\}(.*?)\{% endblocktrans(?:late)? %\}",
                          re.S)
NGETTEXT = re.compile(r"\bngettext(?:_lazy)?\(\s*((?:\"(?:[^\"\\]|\\.)*\"\s*)+),\s*((?:\"(?:[^\"\\]|\\.)*\"\s*)+),", re.S)


def po_strings(block: str, keyword: str) -> list[str]:
    r"""The strings of one catalogue entry after ``keyword`` (a regex: ``^msgid``, ``^msgstr\[\d\]``),
    each joined from its quoted lines."""
    return ["".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1)))
            for m in re.finditer(keyword + r' ((?:".*"\n?)+)', block, re.M)]


def plural_entries() -> dict[str, list[str]]:
    """Each plural message of the catalogue: its singular id → the Arabic forms as written."""
    out = {}
    for block in CATALOGUE.read_text(encoding="utf-8").split("\n\n"):
        if "msgid_plural" not in block:
            continue
        out[po_strings(block, r"^msgid")[0]] = po_strings(block, r"^msgstr\[\d\]")
    return out


def plural_ids_in_code() -> set[str]:
    """The singular id of every count in the templates ({% blocktranslate count %}) and the Python
    code (ngettext), as the catalogue writes it."""
    ids = set()
    for path in TEMPLATES.rglob("*.html"):
        for singular, _plural in BLOCK_PLURAL.findall(path.read_text(encoding="utf-8")):
            ids.add(re.sub(r"\{\{\s*(\w+)\s*\}\}", r"%(\1)s", singular))
    for path in SOURCES.rglob("*.py"):
        for singular, _plural in NGETTEXT.findall(path.read_text(encoding="utf-8")):
            ids.add("".join(re.findall(r'"((?:[^"\\]|\\.)*)"', singular)))
    return ids


def test_every_count_has_all_six_arabic_forms() -> None:
    """Arabic says 0, 1, 2, 3–10, 11–99 and 100+ differently (nplurals=6): each form is written."""
    entries, used = plural_entries(), plural_ids_in_code()
    assert len(used) >= 20  # the scan finds the counts (templates and Python)
    missing = sorted(i for i in used if i not in entries)
    assert missing == [], f"counts without plural forms in the catalogue: {missing}"
    incomplete = {i: forms for i, forms in entries.items() if len(forms) != 6 or not all(f.strip() for f in forms)}
    assert incomplete == {}
    header = CATALOGUE.read_text(encoding="utf-8")
    assert "nplurals=6;" in header


def test_the_plural_checker_finds_a_missing_form(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    broken = tmp_path / "django.po"
    broken.write_text('msgid "%(n)s row"\nmsgid_plural "%(n)s rows"\nmsgstr[0] "a"\nmsgstr[1] ""\n', encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "CATALOGUE", broken)
    assert plural_entries() == {"%(n)s row": ["a", ""]}


# ---- messages from the domain: refusals and reasons reach pages in the page's language ------------

@pytest.mark.django_db
def test_refusals_of_the_rules_reach_pages_in_arabic(lived_in: Any, client_for: Any, make_user: Any) -> None:
    """Publishing before the family was told and agreed, deciding twice, a challenge without a reason:
    each refusal is the rule's own message, in Arabic, without a raw key."""
    ident = lived_in.identification
    claims.review(ident, lived_in.reviewer, "approve", "same scar")
    claims.review(ident, make_user("reviewer"), "approve", "same tattoo")
    caseworker, known = client_for(lived_in.caseworker), catalogue_ids()
    page = caseworker.post(reverse("web:publication", args=[ident.pk]), {"action": "publish", "confirmed": "yes"},
                           follow=True).content.decode()
    text = visible_text(page)
    assert "لا يمكن النشر بعد" in text
    assert english_left(text, known, ALLOWED_WORDS) == [], text
    assert "family_not_informed" not in page and "no_consent" not in page
    again = client_for(lived_in.reviewer).post(reverse("web:decide", args=[ident.pk]),
                                               {"decision": "approve", "reason": "again"}, follow=True)
    assert english_left(visible_text(again.content.decode()), known, ALLOWED_WORDS) == []


def test_publication_blockers_are_said_in_words() -> None:
    from django.utils import translation

    from athar.identification.claims import BLOCKER_WORDS, blockers_in_words

    blockers = [{"rule": "no_consent", "report": 1}, {"rule": "family_not_informed", "report": 1}]
    with translation.override("ar"):
        said = blockers_in_words(blockers)
        assert all(str(BLOCKER_WORDS[b["rule"]]) in said for b in blockers)
    assert not RAW_KEY.search(said) and re.search("[\u0600-\u06FF]", said)
