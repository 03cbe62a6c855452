"""Small real archives built on disk for ingest tests."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from athar.archive.ingest import IngestOptions, ingest
from athar.archive.synthetic import synthetic_photo


def jpeg(seed: int = 1, size: int = 120, exif_gps: bool = False) -> bytes:
    import random

    data = synthetic_photo(random.Random(seed), size, f"{seed}")
    if not exif_gps:
        return data
    image = Image.open(io.BytesIO(data))
    exif = Image.Exif()
    exif[0x010F] = "CameraMaker"  # Make
    exif[0x8825] = {1: "N", 2: (33.0, 30.0, 0.0)}  # GPS IFD
    out = io.BytesIO()
    image.save(out, "JPEG", exif=exif)
    return out.getvalue()


def write(root: Path, relpath: str, data: bytes) -> Path:
    path = root / relpath
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def run_ingest(root: Path, name: str = "A", faces: bool = False, numbers: bool = False, **kwargs: object) -> dict:
    summary, archive = ingest(IngestOptions(root=root, archive=name, faces=faces, workers=1, numbers=numbers, **kwargs))  # type: ignore[arg-type]
    return summary.as_dict(archive)
