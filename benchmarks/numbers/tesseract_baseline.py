"""Plain Tesseract (Debian's ``tesseract-ocr`` 5 with ``eng`` and ``ara``) as a number reader: the
baseline issue 29 asks to measure beside athar's own reader.

One run per photo, page segmentation 11 (sparse text: numbers are scattered over a photo), no
rotation search (Tesseract reads upright lines), one thread (``OMP_THREAD_LIMIT=1``) so CPU-seconds
compare. Every word holding a run of three or more digits (either script) is returned with its box
and Tesseract's word confidence; ``min_confidence`` filters them.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Any

from athar.matching.digits import ascii_digits

DIGIT_RUN = re.compile(r"[0-9]{3,}")


def read(path: Path, min_confidence: float = 0.0, langs: str = "eng+ara") -> list[dict[str, Any]]:
    """Numbers Tesseract reads in the photo, as ``{"text", "confidence", "box", "kind"}``."""
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    out = subprocess.run(["tesseract", str(path), "stdout", "-l", langs, "--psm", "11", "tsv"],
                         capture_output=True, text=True, env=env, check=True).stdout
    readings = []
    lines = out.splitlines()
    for line in lines[1:]:
        cells = line.split("\t")
        if len(cells) < 12 or cells[0] != "5":
            continue
        text = ascii_digits(cells[11])
        confidence = float(cells[10]) / 100.0
        left, top, width, height = (int(c) for c in cells[6:10])
        for match in DIGIT_RUN.finditer(text):
            if confidence >= min_confidence:
                readings.append({"text": match.group(0), "confidence": round(confidence, 3),
                                 "box": [left, top, left + width, top + height], "kind": None})
    return readings
