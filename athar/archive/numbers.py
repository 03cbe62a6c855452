"""Numbers written in archive photos, read for people to confirm (issue 29).

The recogniser is plain Python in ``athar.matching.numbers``; this module is the archive's side:
which files to read, how a photo that cannot be decoded is reported, and the result's shape.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from PIL import Image, UnidentifiedImageError

from athar.core.errors import UserError
from athar.matching.numbers.reader import NumberReader


@cache
def reader() -> NumberReader:
    """One reader per process (its weights are loaded once)."""
    return NumberReader()


def read_images(paths: list[str]) -> dict[str, Any]:
    """``{"images": [{"path", "numbers": [...]}]}`` for the given photo files, in the given order.

    Only readings at or above the reader's threshold are returned: what athar would suggest to a
    person. A missing path is the user's mistake (nothing is read); a file that is not a readable
    image is reported on its own entry with ``"error"`` and the others are still read.
    """
    missing = [p for p in paths if not Path(p).is_file()]
    if missing:
        raise UserError(f"not a file: {', '.join(missing)}")
    images: list[dict[str, Any]] = []
    for path in paths:
        try:
            with Image.open(path) as image:
                image.load()
                numbers = [r.as_dict() for r in reader().read(image)]
        except (UnidentifiedImageError, OSError) as error:
            images.append({"path": path, "numbers": [], "error": f"not a readable image ({type(error).__name__})"})
            continue
        images.append({"path": path, "numbers": numbers})
    return {"images": images, "threshold": round(reader().threshold, 3)}
