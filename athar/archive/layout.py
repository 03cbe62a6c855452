"""Where each file of an archive belongs: walking the tree safely, and reading the per-photo
manifest and per-case facts. Precedence: cases.csv over manifest over what paths say."""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from athar.archive.rejections import NESTED, Problem, of_error
from athar.core.csvio import CsvError, read_csv
from athar.core.dates import PartialDate, parse_partial_date

METADATA_FILES = {"manifest.csv", "cases.csv"}
SEXES = {
    "m": "M", "male": "M", "man": "M", "ذكر": "M", "رجل": "M",
    "f": "F", "female": "F", "woman": "F", "أنثى": "F", "انثى": "F", "امرأة": "F",
    "u": "U", "unknown": "U", "": "U", "غير معروف": "U",
}
PHOTO_KINDS = {"face", "body", "label", "marks", "unknown"}


@dataclass
class WalkEntry:
    relpath: str
    abs_path: str
    problem: Problem | None = None


@dataclass
class Placement:
    facility: str = ""
    case: str = ""
    n: str = ""


@dataclass
class ManifestEntry:
    facility: str = ""
    case: str = ""
    photographed: PartialDate | None = None
    kind: str = ""
    note: str = ""


@dataclass
class CaseFacts:
    facility: str
    case: str
    agency: str = ""
    detainee_number: str = ""
    hospital_number: str = ""
    photographed: PartialDate | None = None
    sex: str = "U"
    age_min: int | None = None
    age_max: int | None = None
    marks: str = ""


@dataclass
class ArchiveMetadata:
    """What manifest.csv and cases.csv say; ``problems`` are (where, what) of what they could not."""

    manifest: dict[str, ManifestEntry] = field(default_factory=dict)
    cases: dict[tuple[str, str], CaseFacts] = field(default_factory=dict)
    problems: list[tuple[str, Problem]] = field(default_factory=list)

    def file_problem(self, path: Path, error: CsvError) -> None:
        self.problems.append((path.name, Problem("metadata_unreadable", file=path.name, detail=str(error))))

    def row_problem(self, path: Path, row: int, error: ValueError) -> None:
        code, params = of_error(error)
        self.problems.append((f"{path.name}:row {row}",
                              Problem(NESTED, file=path.name, row=row, problem=code, **params)))


def normalise_relpath(path: str) -> str:
    """Relative paths compared in NFC with forward slashes (macOS writes NFD names)."""
    return unicodedata.normalize("NFC", path.replace(os.sep, "/")).lstrip("./")


def walk_archive(root: Path) -> list[WalkEntry]:
    """Every entry below root, sorted; symlinks and special files reported, never followed."""
    entries: list[WalkEntry] = []
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            children = list(os.scandir(folder))
        except OSError as exc:
            rel = normalise_relpath(os.path.relpath(folder, root))
            entries.append(WalkEntry(rel, str(folder), Problem("unreadable_folder", detail=str(exc.strerror))))
            continue
        for child in children:
            rel = normalise_relpath(os.path.relpath(child.path, root))
            if child.is_symlink():
                entries.append(WalkEntry(rel, child.path, Problem("symlink")))
            elif child.is_dir(follow_symlinks=False):
                stack.append(Path(child.path))
            elif child.is_file(follow_symlinks=False):
                if rel not in METADATA_FILES:
                    entries.append(WalkEntry(rel, child.path))
            else:
                entries.append(WalkEntry(rel, child.path, Problem("not_regular_file")))
    entries.sort(key=lambda e: e.relpath)
    return entries


def place_by_path(relpath: str, pattern: re.Pattern[str] | None) -> Placement:
    """Facility and case from a ``--pattern`` on the file name, else from the folders."""
    if pattern is not None:
        match = pattern.search(relpath.rsplit("/", 1)[-1]) or pattern.search(relpath)
        if match:
            groups = match.groupdict()
            return Placement(groups.get("facility") or "", groups.get("case") or "", groups.get("n") or "")
    parts = relpath.split("/")
    if len(parts) >= 3:
        return Placement(parts[0], parts[1])
    return Placement()


def read_metadata(root: Path, manifest_path: Path | None) -> ArchiveMetadata:
    """Read manifest.csv (or --manifest) and cases.csv; bad rows become problems, not crashes."""
    meta = ArchiveMetadata()
    manifest_file = manifest_path or root / "manifest.csv"
    if manifest_file.exists():
        _read_manifest(manifest_file, meta)
    elif manifest_path is not None:
        raise FileNotFoundError(f"manifest not found: {manifest_path}")
    if (root / "cases.csv").exists():
        _read_cases(root / "cases.csv", meta)
    return meta


def _read_manifest(path: Path, meta: ArchiveMetadata) -> None:
    try:
        _, rows, _ = read_csv(path)
    except CsvError as exc:
        meta.file_problem(path, exc)
        return
    for row in rows:
        values = row.values
        try:
            relpath = normalise_relpath(values.get("path", ""))
            if not relpath:
                raise Problem("no_path")
            kind = values.get("kind", "").strip().lower()
            if kind and kind not in PHOTO_KINDS:
                raise Problem("unknown_kind", kind=kind, allowed=", ".join(sorted(PHOTO_KINDS)))
            meta.manifest[relpath] = ManifestEntry(
                values.get("facility", ""), values.get("case", ""),
                parse_partial_date(values.get("photographed", "")), kind, values.get("note", ""),
            )
        except ValueError as exc:
            meta.row_problem(path, row.number, exc)


def _read_cases(path: Path, meta: ArchiveMetadata) -> None:
    try:
        _, rows, _ = read_csv(path)
    except CsvError as exc:
        meta.file_problem(path, exc)
        return
    for row in rows:
        try:
            facts = case_facts(row.values)
            meta.cases[(facts.facility, facts.case)] = facts
        except ValueError as exc:
            meta.row_problem(path, row.number, exc)


def case_facts(values: dict[str, str]) -> CaseFacts:
    """One cases.csv row, validated."""
    facility, case = values.get("facility", ""), values.get("case", "")
    if not facility or not case:
        raise Problem("facility_case_required")
    sex_raw = values.get("sex", "").strip().lower()
    if sex_raw not in SEXES:
        raise Problem("unknown_sex", sex=values.get("sex", ""))
    age_min, age_max = _age(values.get("age_min", "")), _age(values.get("age_max", ""))
    if age_min is not None and age_max is not None and age_min > age_max:
        raise Problem("age_range_inverted", min=age_min, max=age_max)
    return CaseFacts(
        facility, case, values.get("agency", ""), values.get("detainee_number", ""),
        values.get("hospital_number", ""), parse_partial_date(values.get("photographed", "")),
        SEXES[sex_raw], age_min, age_max, values.get("marks", ""),
    )


def _age(text: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not text.isdigit() or not 0 <= int(text) <= 120:
        raise Problem("impossible_age", age=text)
    return int(text)
