"""Every user-facing string has a careful Arabic translation; pages carry lang and dir.

``test_catalog_is_complete`` extracts the strings from the sources (Django's makemessages, which
needs GNU gettext) and fails on any that the committed catalog lacks, leaves empty or marks fuzzy.
Update with: cd athar && athar makemessages -l ar --no-location --no-obsolete -i "matching/*",
translate, then msgfmt -o locale/ar/LC_MESSAGES/django.mo locale/ar/LC_MESSAGES/django.po.
"""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import override_settings

import athar

PACKAGE = Path(athar.__file__).parent
CATALOG = PACKAGE / "locale" / "ar" / "LC_MESSAGES" / "django.po"
DEATH_WORDS = {"مات", "ميت", "قُتل", "قتل", "الشهيد", "جثة", "جثث", "الجثة", "متوفى", "المتوفى"}  # never on a score


def parse_po(path: Path) -> dict[str, dict[str, object]]:
    """msgid → {"str": [msgstr...], "fuzzy": bool} (a small reader for our own catalog)."""
    entries: dict[str, dict[str, object]] = {}
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        fuzzy = any(line.startswith("#,") and "fuzzy" in line for line in block.splitlines())
        fields: dict[str, str] = {}
        key = ""
        for line in block.splitlines():
            match = re.match(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d\])?) "(.*)"$', line)
            if match:
                key = match.group(1)
                fields[key] = match.group(2)
            elif line.startswith('"') and key:
                fields[key] += line[1:-1]
        if "msgid" not in fields or not fields["msgid"]:
            continue
        strs = [v for k, v in fields.items() if k.startswith("msgstr")]
        entries[fields["msgid"]] = {"str": strs, "fuzzy": fuzzy}
    return entries


def test_committed_catalog_has_no_empty_or_fuzzy_entry():
    entries = parse_po(CATALOG)
    assert len(entries) > 300
    bad = [k for k, v in entries.items() if v["fuzzy"] or not all(v["str"])]
    assert not bad, f"untranslated or fuzzy: {bad[:20]}"


def test_compiled_catalog_is_current():
    mo = CATALOG.with_suffix(".mo")
    assert mo.exists() and mo.stat().st_mtime >= CATALOG.stat().st_mtime - 1, "run msgfmt (see module docstring)"


def test_placeholders_are_kept():
    for msgid, entry in parse_po(CATALOG).items():
        wanted = set(re.findall(r"%\(\w+\)[sd]", msgid))
        plural = len(entry["str"]) > 1
        for index, text in enumerate(entry["str"]):
            found = set(re.findall(r"%\(\w+\)[sd]", str(text)))
            assert found <= wanted | {"%(counter)s"}, (msgid, text)
            # Arabic says none, one and two in words ("أقل من سنة", "سنة واحدة", "سنتان"): the
            # count may be left out of its first three plural forms, never out of the others.
            if wanted and "counter" not in msgid and not (plural and index < 3):
                assert wanted == found, (msgid, text)


def test_no_word_of_death_in_the_web_vocabulary():
    for msgid, entry in parse_po(CATALOG).items():
        if "dead" in msgid or "died" in msgid or "death" in msgid:
            continue  # the sentences that talk about death on purpose
        for text in entry["str"]:
            words = set(re.findall(r"[\u0600-\u06ff]+", str(text)))
            assert not words & DEATH_WORDS, (msgid, text)


# One word for one role: a family told on one page that "عامل الحالة" will call and shown "مسؤول
# الحالة" on the next may think of two people. And a pair of reports is not "زوج" (a husband), which
# stood beside a wife's report on the link review page.
OTHER_WORDS = {
    "caseworker": ("عامل الحالة", "عامل حالة", "عاملو الحالات", "عاملو حالات", "عامل حالتها", "عاملو حالاتها"),
    "pair": ("زوج", "أزواج"),
}


@pytest.mark.parametrize("term", sorted(OTHER_WORDS))
def test_one_arabic_word_for_one_thing(term):
    for msgid, entry in parse_po(CATALOG).items():
        if term not in msgid.lower():
            continue
        for text in entry["str"]:
            assert not any(word in str(text) for word in OTHER_WORDS[term]), (msgid, text)


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="GNU gettext not installed (apt-get install gettext)")
def test_catalog_is_complete(tmp_path, monkeypatch):
    """Extract every translatable string from a copy of the sources; each must be in the catalog."""
    source = tmp_path / "src"
    for path in PACKAGE.rglob("*"):
        rel = path.relative_to(PACKAGE)
        if path.suffix in (".py", ".html", ".txt") and rel.parts[0] not in ("locale", "matching"):
            target = source / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    (source / "locale").mkdir()
    monkeypatch.chdir(source)
    with override_settings(LOCALE_PATHS=[str(source / "locale")]):
        call_command("makemessages", locale=["ar"], no_location=True, verbosity=0)
    extracted = parse_po(source / "locale" / "ar" / "LC_MESSAGES" / "django.po")
    committed = parse_po(CATALOG)
    missing = sorted(set(extracted) - set(committed))
    assert not missing, f"strings without an Arabic translation: {missing[:30]}"


def test_every_python_gettext_literal_in_web_is_in_the_catalog():
    """A quick check that works without gettext: the web's Python strings."""
    committed = parse_po(CATALOG)
    missing = []
    for path in list((PACKAGE / "web").rglob("*.py")) + [PACKAGE / "accounts" / "views.py", PACKAGE / "accounts" / "forms.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("_", "gettext_lazy", "gettext")
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                text = node.args[0].value
                if text.replace('"', '\\"') not in committed and text not in committed:
                    missing.append(text)
    assert not missing, missing
