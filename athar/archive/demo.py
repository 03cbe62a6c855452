"""Demo step: a synthetic archive (generated pictures, no person), or one made from face photos."""

from __future__ import annotations

import shutil
from pathlib import Path

from athar.archive.ingest import IngestOptions, ingest
from athar.archive.synthetic import make_archive
from athar.core.demo import DemoContext, demo_step

DEMO_ARCHIVE = "Demo archive (synthetic)"
FACE_IDENTITIES = 120
DEMO_FACILITIES = ("215", "227", "235", "248", "251")


@demo_step(10, "archive")
def build_archive(context: DemoContext) -> None:
    root = context.home / "demo" / "archive"
    if context.faces_dir is not None:
        family_photos = faces_archive(context.faces_dir, root)
        context.made["family_photos"] = {k: str(v) for k, v in family_photos.items()}
    elif not root.exists():
        make_archive(root, cases_per_facility=6, photos_per_case=4, faulty=True, folder_style="mixed")
    summary, archive = ingest(IngestOptions(root=root, archive=DEMO_ARCHIVE, faces=context.faces_dir is not None))
    result = summary.as_dict(archive)
    context.made["archive"] = {k: result[k] for k in ("archive", "photos_added", "cases", "facilities")}
    context.made["archive"]["rejected"] = len(result["rejected"])
    context.lines.append(
        f"Archive '{DEMO_ARCHIVE}': {result['cases']} cases in {result['facilities']} facilities "
        f"({result['photos_added']} photos added now; {len(result['rejected'])} faulty files reported)."
    )


def faces_archive(faces_dir: Path, root: Path) -> dict[str, Path]:
    """Lay out ``faces_dir/<identity>/*`` as an archive: the first photo of an identity with
    several stays out (it plays the family's photo of the person alive), the rest are the case."""
    family: dict[str, Path] = {}
    identities = sorted(p for p in faces_dir.iterdir() if p.is_dir())[:FACE_IDENTITIES]
    for index, identity in enumerate(identities):
        photos = sorted(p for p in identity.iterdir() if p.is_file())
        if not photos:
            continue
        if len(photos) > 1:
            family[identity.name] = photos[0]
            photos = photos[1:]
        case_dir = root / DEMO_FACILITIES[index % len(DEMO_FACILITIES)] / identity.name
        case_dir.mkdir(parents=True, exist_ok=True)
        for photo in photos:
            target = case_dir / photo.name
            if not target.exists():
                shutil.copyfile(photo, target)
    return family
