"""Synthetic stand-in archives for the demo, tests and benchmarks.

Real archive photos can never ship with athar; these are generated pictures (shapes and a number
card, no person) laid out as ``<facility>/<case>/<photo>`` with a ``cases.csv``, plus, on request,
the faulty files real archives contain.
"""

from __future__ import annotations

import csv
import io
import os
import random
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw

DEFAULT_FACILITIES = ("215", "227", "235", "248", "251")
AGENCY_BY_FACILITY = {"215": "Military Intelligence", "227": "Military Intelligence", "235": "Military Intelligence",
                      "248": "Military Intelligence", "251": "General Intelligence"}
MARKS = ("scar above the right eyebrow", "tattoo of a bird on the left forearm", "وشم على الساعد الأيسر",
         "missing front tooth", "burn scar on the chest", "")


@dataclass
class SyntheticArchive:
    root: Path
    photos: int
    cases: int
    faulty: list[str]


def synthetic_photo(rng: random.Random, size: int, label: str) -> bytes:
    """A generated picture: a grey field, shapes, and a white card with the number."""
    grey = rng.randint(90, 170)
    image = Image.new("RGB", (size, size), (grey, grey + rng.randint(-10, 10), grey))
    draw = ImageDraw.Draw(image)
    for _ in range(6):
        x0, y0 = rng.randint(0, size - 10), rng.randint(0, size - 10)
        x1, y1 = rng.randint(x0 + 5, size), rng.randint(y0 + 5, size)
        fill = tuple(rng.randint(0, 255) for _ in range(3))
        draw.ellipse((x0, y0, x1, y1), fill=fill) if rng.random() < 0.5 else draw.rectangle((x0, y0, x1, y1), fill=fill)
    card_w = max(40, size // 3)
    draw.rectangle((4, 4, 4 + card_w, 4 + card_w // 3), fill=(245, 245, 240))
    draw.text((8, 8), label, fill=(10, 10, 10))
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=rng.randint(70, 92))
    return buffer.getvalue()


def make_archive(root: Path, *, facilities: tuple[str, ...] = DEFAULT_FACILITIES, cases_per_facility: int = 4,
                 photos_per_case: int = 3, size: int = 250, seed: int = 7, faulty: bool = False,
                 folder_style: str = "plain") -> SyntheticArchive:
    """Write a synthetic archive; ``folder_style='mixed'`` names folders 'Branch 215', 'فرع 227' …"""
    rng = random.Random(seed)
    root.mkdir(parents=True, exist_ok=True)
    rows, photos = [], 0
    for f_index, facility in enumerate(facilities):
        folder = _facility_folder(facility, f_index, folder_style)
        for c in range(cases_per_facility):
            case = f"{1000 + c * 7 + f_index}"
            case_dir = root / folder / case
            case_dir.mkdir(parents=True, exist_ok=True)
            for n in range(photos_per_case):
                (case_dir / f"{facility}_{case}_{n + 1}.jpg").write_bytes(
                    synthetic_photo(rng, size, f"{facility}/{case}"))
                photos += 1
            rows.append(_case_row(rng, facility, case))
    _write_cases_csv(root / "cases.csv", rows)
    bad = write_faulty_files(root / folder / "9999", rng) if faulty else []
    return SyntheticArchive(root, photos, len(rows), bad)


def _facility_folder(facility: str, index: int, style: str) -> str:
    if style != "mixed":
        return facility
    return (facility, f"Branch {facility}", f"فرع {facility}", f"الفرع {facility} - المخابرات العسكرية")[index % 4]


def _case_row(rng: random.Random, facility: str, case: str) -> dict[str, str]:
    age = rng.randint(18, 60)
    return {
        "facility": facility, "case": case, "agency": AGENCY_BY_FACILITY.get(facility, ""),
        "detainee_number": case, "hospital_number": str(rng.randint(1000, 9999)),
        "photographed": f"{rng.randint(2011, 2013)}-{rng.randint(1, 12):02d}", "sex": "M",
        "age_min": str(age - 5), "age_max": str(age + 5), "marks": rng.choice(MARKS),
    }


def _write_cases_csv(path: Path, rows: list[dict[str, str]]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def write_faulty_files(folder: Path, rng: random.Random) -> list[str]:
    """The bad files real archives contain; returns their names."""
    folder.mkdir(parents=True, exist_ok=True)
    good = synthetic_photo(rng, 250, "x")
    files = {
        "empty.jpg": b"",
        "truncated.jpg": good[: len(good) // 2],
        "not-an-image.jpg": b"this is a text file with an image extension\n" * 20,
        "random-bytes.png": bytes(rng.getrandbits(8) for _ in range(2048)),
        unicodedata.normalize("NFD", "صورة-مُعتقل.jpg"): synthetic_photo(rng, 250, "nfd"),
        "bomb.png": _bomb_png(),
    }
    for name, data in files.items():
        (folder / name).write_bytes(data)
    link = folder / "link-to-elsewhere.jpg"
    if not link.exists():
        os.symlink("/etc/hostname", link)
    return [*files, link.name]


def _bomb_png() -> bytes:
    """A small PNG that claims a huge picture (a decompression bomb)."""
    buffer = io.BytesIO()
    Image.new("1", (16000, 16000)).save(buffer, "PNG")
    return buffer.getvalue()
