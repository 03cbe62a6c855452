"""Small real data for the number pages and their use: cases in two archives, stored photos (noise,
so a blur is measurable) and readings at given boxes, decided through the domain functions."""

from __future__ import annotations

import hashlib
import io
from typing import Any

import numpy as np
from django.conf import settings
from PIL import Image

from athar.archive.models import Archive, Case, Facility, NumberReading, Photo
from athar.archive.storage import MediaStore

SIZE = (600, 400)  # width, height of the stored photos
BOX = (200, 150, 300, 200)


def noise_png(seed: int, size: tuple[int, int] = SIZE, cell: int = 10) -> bytes:
    """Cells of random colours (10 px: sharp detail that a JPEG keeps and a blur removes)."""
    rng = np.random.default_rng(seed)
    cells = rng.integers(0, 256, (size[1] // cell + 1, size[0] // cell + 1, 3), dtype=np.uint8)
    pixels = np.repeat(np.repeat(cells, cell, axis=0), cell, axis=1)[:size[1], :size[0]]
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, "PNG")
    return out.getvalue()


def case_in(archive: str = "Caesar", label: str = "1", facility: int = 215, detainee: str = "") -> Case:
    arch, _ = Archive.objects.get_or_create(name=archive)
    fac, _ = Facility.objects.get_or_create(code=str(facility), defaults={"number": facility})
    return Case.objects.create(archive=arch, facility=fac, label=label, detainee_number=detainee)


def stored_photo(case: Case | None, seed: int, archive: Archive | None = None) -> Photo:
    data = noise_png(seed)
    sha = hashlib.sha256(data).hexdigest()
    MediaStore(settings.MEDIA_ROOT).store_original(data, sha)
    return Photo.objects.create(sha256=sha, archive=archive or case.archive, case=case,  # type: ignore[union-attr]
                                original_path=f"{seed}.png", original_name=f"{seed}.png", size=len(data),
                                width=SIZE[0], height=SIZE[1], format="PNG")


def read(photo: Photo, text: str, confidence: float = 0.97, kind: str = "", box: tuple[int, ...] = BOX) -> NumberReading:
    x0, y0, x1, y1 = box
    return NumberReading.objects.create(photo=photo, text=text, confidence=confidence, x0=x0, y0=y0, x1=x1, y1=y1,
                                        kind=kind, reader_version="test")


def reading_on_new_photo(case: Case | None, text: str, seed: int, **kwargs: Any) -> NumberReading:
    return read(stored_photo(case, seed), text, **kwargs)
