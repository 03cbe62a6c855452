"""An end-to-end identification dev set: an archive of degraded LFW photos with synthetic case facts,
and reports whose facts are noisy versions of the truth. The noise model is documented in
docs/identification.md ("The dev benchmark") and summarised in NOISE below.

Nothing here is written into the repository: the set goes to a folder under /tmp.
"""

from __future__ import annotations

import csv
import datetime as dt
import random
import shutil
from dataclasses import dataclass
from pathlib import Path

import degrade  # benchmarks/faces (on sys.path)
from identity_split import make_split
from PIL import Image

from athar.archive.synthetic import synthetic_photo

# facility code, share of cases, agency (as cases.csv writes it), folder spellings, family spellings
FACILITIES = [
    ("215", 0.28, "Military Intelligence", ["215", "Branch 215"], ["215", "فرع 215", "فرع السرية", "Branch 215", "الفرع 215"]),
    ("227", 0.14, "Military Intelligence", ["227", "فرع 227"], ["227", "فرع المنطقة", "الفرع 227", "Branch 227"]),
    ("235", 0.12, "Military Intelligence", ["235", "Branch 235"], ["فرع فلسطين", "235", "Palestine Branch", "الفرع 235"]),
    ("248", 0.07, "Military Intelligence", ["248"], ["248", "فرع التحقيق العسكري", "Branch 248"]),
    ("251", 0.10, "General Intelligence", ["251", "فرع 251"], ["فرع الخطيب", "251", "al-Khatib", "Branch 251"]),
    ("216", 0.05, "Military Intelligence", ["216"], ["216", "فرع الدوريات"]),
    ("220", 0.05, "Military Intelligence", ["220"], ["220", "فرع سعسع"]),
    ("290", 0.05, "Military Intelligence", ["290"], ["290", "فرع 290"]),
    ("318", 0.05, "Military Intelligence", ["318"], ["318", "فرع 318"]),
    ("air-force-intelligence-mezzeh", 0.09, "Air Force Intelligence", ["Air Force Intelligence Mezzeh"],
     ["المزة الجوية", "مطار المزة", "Mezzeh Airport"]),
]
AGENCY_WORDS = {"Military Intelligence": ["الأمن العسكري", "Military Intelligence", "المخابرات العسكرية"],
                "General Intelligence": ["أمن الدولة", "المخابرات العامة", "State Security"],
                "Air Force Intelligence": ["المخابرات الجوية", "Air Force Intelligence"]}

KINDS = [("scar", 0.35), ("tattoo", 0.30), ("missing_teeth", 0.15), ("burn", 0.10), ("amputation", 0.05),
         ("birthmark", 0.05)]
LOCATIONS = {"scar": ["eyebrow", "forehead", "cheek", "chin", "forearm", "hand", "chest", "abdomen", "back", "knee", "head"],
             "tattoo": ["forearm", "upper_arm", "chest", "shoulder", "back", "hand", "neck"],
             "burn": ["forearm", "hand", "chest", "back", "neck", "thigh"],
             "amputation": ["finger"], "birthmark": ["cheek", "neck", "back", "shoulder", "forehead"],
             "missing_teeth": ["front_teeth"]}
SIDED = {"eyebrow", "cheek", "forearm", "hand", "upper_arm", "shoulder", "knee", "thigh", "finger"}
GENERAL = {"forearm": "arm", "upper_arm": "arm", "hand": "arm", "eyebrow": "face", "cheek": "face",
           "forehead": "face", "chin": "face", "finger": "hand", "thigh": "leg", "knee": "leg"}
CONTENTS = ["map_of_palestine", "bird", "heart", "name", "sword", "rose", "star", "crescent", "snake", "lion", "verse", "anchor"]
EN = {"scar": ["scar", "old scar", "cut scar"], "tattoo": ["tattoo"], "burn": ["burn scar", "burn mark"],
      "amputation": ["amputated"], "birthmark": ["birthmark", "mole"], "missing_teeth": ["missing"],
      "eyebrow": "eyebrow", "forehead": "forehead", "cheek": "cheek", "chin": "chin", "forearm": "forearm",
      "hand": "hand", "chest": "chest", "abdomen": "abdomen", "back": "back", "knee": "knee", "head": "head",
      "upper_arm": "upper arm", "shoulder": "shoulder", "neck": "neck", "thigh": "thigh", "finger": "finger",
      "front_teeth": "front tooth", "arm": "arm", "face": "face", "leg": "leg",
      "map_of_palestine": "a map of Palestine", "bird": "a bird", "heart": "a heart", "name": "a name",
      "sword": "a sword", "rose": "a rose", "star": "a star", "crescent": "a crescent", "snake": "a snake",
      "lion": "a lion", "verse": "a Quran verse", "anchor": "an anchor", "left": "left", "right": "right"}
AR = {"scar": ["ندبة", "أثر جرح", "ندبة قديمة"], "tattoo": ["وشم"], "burn": ["أثر حرق", "حرق"],
      "amputation": ["بتر"], "birthmark": ["شامة", "وحمة"], "missing_teeth": ["مفقود"],
      "eyebrow": "الحاجب", "forehead": "الجبين", "cheek": "الخد", "chin": "الذقن", "forearm": "الساعد",
      "hand": "اليد", "chest": "الصدر", "abdomen": "البطن", "back": "الظهر", "knee": "الركبة", "head": "الرأس",
      "upper_arm": "العضد", "shoulder": "الكتف", "neck": "الرقبة", "thigh": "الفخذ", "finger": "إصبع",
      "front_teeth": "سن أمامي", "arm": "الذراع", "face": "الوجه", "leg": "الساق",
      "map_of_palestine": "خريطة فلسطين", "bird": "طائر", "heart": "قلب", "name": "اسم", "sword": "سيف",
      "rose": "وردة", "star": "نجمة", "crescent": "هلال", "snake": "أفعى", "lion": "أسد", "verse": "آية",
      "anchor": "مرساة", "left": "الأيسر", "right": "الأيمن"}

NOISE = {
    "sex": "98% right, 1% left empty, 1% wrong",
    "birth_year": "55% exact, 25% off by 1, 10% off by 2, 3% off by 3-5, 7% empty",
    "arrest_date": "45% right month, 20% off by 1-2 months, 15% year only (10% of those the wrong year), "
                   "7% wrong by a year, 13% empty",
    "arresting_agency": "45% the right branch (any spelling or nickname), 15% another branch of the same agency, "
                        "15% the agency only, 7% a branch of another agency, 18% empty",
    "marks": "a recorded mark is reported 65% of the time, in either language; side dropped 35%, location "
             "generalised (forearm→arm) 25%, tattoo content dropped 25%; 12% of reports describe a mark the "
             "examiner did not record",
    "detainee_number": "10% of families know it: 80% right, 20% one digit wrong",
    "photos": "70% of reports have a photo of the person alive (two photos when LFW has a third, 1 in 4)",
    "absent": "20% of reports are about people not in the archive (their facts drawn the same way)",
}


@dataclass
class Truth:
    sex: str
    birth_year: int
    arrest: dt.date
    facility: int  # index in FACILITIES
    marks: list[tuple[str, str, str, str]]  # kind, location, side, content
    number: str


def _pick(rng: random.Random, weighted: list[tuple[str, float]]) -> str:
    return rng.choices([w for w, _ in weighted], [p for _, p in weighted])[0]


def _months(date: dt.date, n: int) -> dt.date:
    m = date.year * 12 + date.month - 1 + n
    return dt.date(m // 12, m % 12 + 1, 1)


def make_truth(rng: random.Random, photo: dt.date, serial: int) -> Truth:
    age = int(min(70, max(15, rng.triangular(15, 65, 24))))
    custody = min(30, int(rng.expovariate(1 / 6)))
    marks = []
    if rng.random() < 0.45:
        for _ in range(1 if rng.random() < 0.8 else 2):
            kind = _pick(rng, KINDS)
            loc = rng.choice(LOCATIONS[kind])
            side = rng.choice(("left", "right")) if loc in SIDED and rng.random() < 0.85 else ""
            content = rng.choice(CONTENTS) if kind == "tattoo" and rng.random() < 0.7 else ""
            marks.append((kind, loc, side, content))
    fac = rng.choices(range(len(FACILITIES)), [f[1] for f in FACILITIES])[0]
    return Truth("M" if rng.random() < 0.92 else "F", photo.year - age, _months(photo, -custody), fac, marks,
                 str(rng.randint(100, 9999)))


def describe_mark(rng: random.Random, mark: tuple[str, str, str, str], lang: str, *, drop_side: bool = False,
                  general: bool = False, drop_content: bool = False) -> str:
    kind, loc, side, content = mark
    loc = GENERAL.get(loc, loc) if general else loc
    side = "" if drop_side else side
    content = "" if drop_content else content
    if lang == "en":
        what = rng.choice(EN[kind])
        if kind == "missing_teeth":
            return f"missing {'left ' if side == 'left' else ''}front tooth"
        text = f"{what}" + (f" of {EN[content]}" if content else "")
        return f"{text} on the {(side + ' ') if side else ''}{EN[loc]}"
    what = rng.choice(AR[kind])
    if kind == "missing_teeth":
        return "سن أمامي مفقود"
    text = what + (f" {AR[content]}" if content else "")
    return f"{text} على {AR[loc]}" + (f" {AR[side]}" if side else "")


def _same(img: Image.Image, rng: random.Random) -> Image.Image:
    return img


def moderate(img: Image.Image, rng: random.Random, other: Image.Image | None = None) -> Image.Image:
    """The headline archive degradation (see DEGRADATION)."""
    img = rng.choice((degrade.grey_cast, degrade.low_light, _same))(img, rng)
    img = rng.choice((degrade.blur, degrade.noise, lambda i, r: degrade.jpeg(i, r, 20)))(img, rng)
    r = rng.random()
    if r < 0.35:
        img = degrade.closed_eyes(img, rng)
    elif r < 0.55:
        img = degrade.swelling(img, rng)
    if rng.random() < 0.15:
        img = degrade.canvas(img, rng, other)
    if rng.random() < 0.4:
        img = degrade.quarter_turn(img, rng)
    elif rng.random() < 0.5:
        img = degrade.tilt(img, rng)
    return degrade.jpeg(img, rng, 35)


DEGRADATIONS = {"moderate": moderate, "harsh": degrade.archive}
DEGRADATION = {
    "moderate": "grey cast or low light (2 in 3); one of blur σ1.5–2.5, noise σ10–16 or JPEG q20; closed eyes (35%) "
                "or swelling (20%); pasted on a sheet with a number card and another body's face (15%); a quarter "
                "turn (40%) or a tilt of 8–20° (30%); JPEG q35",
    "harsh": "benchmarks/faces/degrade.py archive(): always grey/low light, always closed eyes or swelling, blur/JPEG "
             "q6–12/noise, canvas 25%, small 25%, quarter turn 75%, JPEG q15",
}


def case_row(rng: random.Random, truth: Truth, label: str, photo: dt.date) -> dict[str, str]:
    """cases.csv facts of one body as an examiner would record them."""
    code, _, agency, folders, _ = FACILITIES[truth.facility]
    age = photo.year - truth.birth_year
    centre, half = age + rng.gauss(0, 3.5), rng.choice((3, 4, 5, 5, 7))
    estimate = ("", "") if rng.random() < 0.1 else (str(max(12, round(centre - half))), str(round(centre + half)))
    precision = rng.choices(("month", "day", "year", "unknown"), (0.8, 0.1, 0.05, 0.05))[0]
    date = {"month": photo.isoformat()[:7], "day": photo.replace(day=rng.randint(1, 28)).isoformat(),
            "year": str(photo.year), "unknown": ""}[precision]
    lang = "en" if rng.random() < 0.5 else "ar"
    marks = ("; " if lang == "en" else "، ").join(describe_mark(rng, m, lang) for m in truth.marks)
    return {"facility": rng.choice(folders), "case": label, "agency": agency,
            "detainee_number": truth.number if rng.random() < 0.9 else "",
            "hospital_number": str(rng.randint(1000, 9999)), "photographed": date, "sex": truth.sex,
            "age_min": estimate[0], "age_max": estimate[1], "marks": marks}


def report_row(rng: random.Random, truth: Truth, report_id: str, name: str) -> dict[str, str]:
    """A family's report: the truth through the noise model (NOISE)."""
    r = rng.random()
    sex = truth.sex if r < 0.98 else ("" if r < 0.99 else ("F" if truth.sex == "M" else "M"))
    r = rng.random()
    off = 0 if r < 0.55 else rng.choice((-1, 1)) if r < 0.8 else rng.choice((-2, 2)) if r < 0.9 else \
        rng.choice((-5, -4, -3, 3, 4, 5)) if r < 0.93 else None
    birth = "" if off is None else str(truth.birth_year + off)
    return {"report_id": report_id, "full_name_latin": name, "sex": sex, "birth_year": birth,
            "arrest_date": _arrest_text(rng, truth.arrest), "arresting_agency": _agency_text(rng, truth.facility),
            "distinguishing_marks": _marks_text(rng, truth.marks),
            "detainee_number": _number_text(rng, truth.number), "reporter_relation": rng.choice(("mother", "brother", "wife", "father"))}


def _arrest_text(rng: random.Random, arrest: dt.date) -> str:
    r = rng.random()
    if r < 0.45:
        return arrest.isoformat()[:7]
    if r < 0.65:
        return _months(arrest, rng.choice((-2, -1, 1, 2))).isoformat()[:7]
    if r < 0.80:
        return str(arrest.year + (rng.choice((-1, 1)) if rng.random() < 0.1 else 0))
    if r < 0.87:
        return _months(arrest, rng.choice((-12, 12))).isoformat()[:7]
    return ""


def _agency_text(rng: random.Random, facility: int) -> str:
    code, _, agency, _, names = FACILITIES[facility]
    r = rng.random()
    if r < 0.45:
        return rng.choice(names)
    if r < 0.60:
        same = [f for f in FACILITIES if f[2] == agency and f[0] != code]
        return rng.choice(rng.choice(same)[4]) if same else rng.choice(names)
    if r < 0.75:
        return rng.choice(AGENCY_WORDS[agency])
    if r < 0.82:
        return rng.choice(rng.choice([f for f in FACILITIES if f[2] != agency])[4])
    return ""


def _marks_text(rng: random.Random, marks: list[tuple[str, str, str, str]]) -> str:
    lang = "en" if rng.random() < 0.4 else "ar"
    parts = [describe_mark(rng, m, lang, drop_side=rng.random() < 0.35, general=rng.random() < 0.25,
                           drop_content=rng.random() < 0.25) for m in marks if rng.random() < 0.65]
    if rng.random() < 0.12:
        kind = _pick(rng, KINDS)
        loc = rng.choice(LOCATIONS[kind])
        parts.append(describe_mark(rng, (kind, loc, rng.choice(("left", "right", "")), ""), lang))
    return ("; " if lang == "en" else " و").join(parts)


def _number_text(rng: random.Random, number: str) -> str:
    if rng.random() >= 0.10:
        return ""
    if rng.random() < 0.8:
        return number
    i = rng.randrange(len(number))
    return number[:i] + str((int(number[i]) + rng.randint(1, 9)) % 10) + number[i + 1:]


def photo_date(rng: random.Random) -> dt.date:
    """May 2011 – August 2013, like the Caesar photographs."""
    return _months(dt.date(2011, 5, 1), rng.randint(0, 27))


def build(out: Path, split: str, mated: int, distractors: int, seed: int = 5,
          degradation: str = "moderate") -> dict[str, int]:
    """Write ``out/archive`` (folders + cases.csv) and ``out/reports/reports.csv`` (+ photos)."""
    rng = random.Random(f"{split}-{seed}")
    sp = make_split(split, mated, distractors)
    if out.exists():
        shutil.rmtree(out)
    (out / "archive").mkdir(parents=True)
    (out / "reports" / "photos").mkdir(parents=True)
    cases, reports, serial = [], [], 0
    people = [(n, p, c, True) for n, p, c in sp.present] + [(n, p, None, False) for n, p in sp.absent]
    gallery = [(n, c, True) for n, _, c in sp.present] + [(n, c, False) for n, c in sp.distractors]
    truths: dict[str, tuple[Truth, str]] = {}
    for name, case_photo, _ in gallery:
        serial += 1
        when = photo_date(rng)
        truth = make_truth(rng, when, serial)
        label = f"{truth.number}-{serial:04d}"
        row = case_row(rng, truth, label, when)
        cases.append(row)
        truths[name] = (truth, label)
        folder = out / "archive" / row["facility"] / label
        folder.mkdir(parents=True, exist_ok=True)
        rng.choice(gallery)  # (kept so the random sequence, and so the photos, stay as before)
        other = _other_body(sp.distractors, serial)
        DEGRADATIONS[degradation](Image.open(case_photo).convert("RGB"), rng, other).save(folder / "1.jpg", quality=90)
        (folder / "2.jpg").write_bytes(synthetic_photo(rng, 250, f"{row['facility']}/{truth.number}"))
    for i, (name, probe, _, present) in enumerate(people):
        if present:
            truth, label = truths[name]
        else:
            serial += 1
            truth, label = make_truth(rng, photo_date(rng), serial), ""
        row = report_row(rng, truth, f"R{i + 1:04d}", name.replace("_", " "))
        row["photos"] = _photos(rng, probe, out / "reports" / "photos", i)
        row["true_case"] = label
        reports.append(row)
    _write(out / "archive" / "cases.csv", cases)
    rng.shuffle(reports)
    _write(out / "reports" / "reports.csv", reports)
    return {"cases": len(cases), "reports": len(reports), "absent": len(sp.absent)}


def _other_body(distractors: list[tuple[str, Path]], serial: int) -> Image.Image:
    """Another body in frame: a person nobody reports, degraded like the archive (own random stream)."""
    rng = random.Random(f"other-{serial}")
    face = Image.open(rng.choice(distractors)[1]).convert("RGB")
    return degrade.jpeg(degrade.blur(rng.choice((degrade.grey_cast, degrade.low_light))(face, rng), rng), rng, 30)


def _photos(rng: random.Random, probe: Path, folder: Path, i: int) -> str:
    if rng.random() >= 0.70:
        return ""
    names = [probe]
    extra = sorted(probe.parent.glob("*.jpg"))[2:3]
    if extra and rng.random() < 0.25:
        names += extra
    out = []
    for n, src in enumerate(names):
        dest = folder / f"r{i + 1:04d}_{n + 1}.jpg"
        shutil.copyfile(src, dest)
        out.append(f"photos/{dest.name}")
    return ";".join(out)


def _write(path: Path, rows: list[dict[str, str]]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
