"""Write ``data/one_slip.csv``: persons whose reports differ by ONE slip, and sibling families.

    PYTHONPATH=$PWD .venv/bin/python -m benchmarks.linkage.make_one_slip

Written for issue 28 (third session) from the issue's description of the misses on the hidden set,
not from ``synthetic.py``, ``devset.py`` or ``slips.py`` (none of their code or tables): every person
has 2–3 reports that agree on everything they state, except that exactly one field of one report
carries one slip of the kinds the issue lists — a father's name cut to its first word ("عبد"), two
neighbouring letters swapped ("عدب"), a letter dropped ("ممد"), a sex entered wrongly, a birth year
one apart, the branch worded otherwise, a letter dropped from the own given or the family name, a
title glued to the name, a kunya after a dash, the family name first, first + family name only, the
name in a Maghrebi/French Latin spelling, Persian letters, or a bare copy (the same full name, town
and arrest date and nothing else). Sibling families (same father, grandfather, mother, family name
and town, most arrested together) have different own given names and must never merge. The CSV is
written once and committed; the seed keeps it reproducible. No real person is described.
"""

from __future__ import annotations

import csv
import random
from pathlib import Path

# Arabic given names and one Maghrebi/French Latin spelling of each (as a Maghrebi clerk writes them).
MALE = {
    "محمد": "MOHAMED", "أحمد": "AHMED", "جمال": "DJAMEL", "يعقوب": "LAAGOUB", "يوسف": "YOUCEF",
    "مصطفى": "MUSTAPHA", "قاسم": "KACEM", "وليد": "OUALID", "شوقي": "CHAWKI", "عمر": "OMAR",
    "حسن": "HASSEN", "علي": "ALI", "سمير": "SAMIR", "رضوان": "REDOUANE", "منير": "MOUNIR",
    "نبيل": "NABIL", "رشيد": "RACHID", "هشام": "HICHEM", "كمال": "KAMEL", "فريد": "FARID",
    "عبد الرحمن": "ABDERRAHMANE", "عبد الكريم": "ABDELKRIM", "عبد القادر": "ABDELKADER",
    "عبد الله": "ABDELLAH", "عبد الرزاق": "ABDERRAZAK", "عبد الحميد": "ABDELHAMID",
    "ماهر": "MAHER", "باسل": "BASSEL", "زياد": "ZIED", "مازن": "MAZEN",
}
FEMALE = {
    "فاطمة": "FATMA", "خديجة": "KHADIDJA", "زينب": "ZINEB", "مريم": "MERIEM", "سعاد": "SOUAD",
    "نادية": "NADIA", "سلمى": "SALMA", "هدى": "HOUDA", "رانيا": "RANIA", "ليلى": "LEILA",
    "أسماء": "ASMA", "نور": "NOUR", "سميرة": "SAMIRA", "وفاء": "OUAFA",
}
FAMILY = {
    "الحلبي": "HALABI", "العلي": "EL ALI", "الخطيب": "EL KHATIB", "المصري": "EL MASRI",
    "الأحمد": "EL AHMED", "الشامي": "CHAMI", "الحمصي": "HOMSI", "العمر": "EL OMAR", "النجار": "NEDJAR",
    "الزعبي": "ZOUBI", "الحسن": "EL HASSEN", "قصاب": "KASSAB", "الرفاعي": "RIFAI", "الخليل": "KHELIL",
    "السيد": "SAYED", "البكري": "BEKRI", "الدرويش": "DEROUICHE", "حداد": "HADDAD", "العبد الله": "ABDELLAH",
    "الكردي": "KURDI", "المحمد": "EL MOHAMED", "الحسين": "EL HOUSSEIN", "سلامة": "SELLAMA",
    "يعقوب": "LAAGOUB",
}
PLACES = [
    ("حلب", ["حلب", "الباب", "منبج"]), ("دمشق", ["دمشق"]), ("ريف دمشق", ["دوما", "داريا", "التل", "الزبداني"]),
    ("حمص", ["حمص", "تلكلخ", "القصير"]), ("حماة", ["حماة", "السلمية"]), ("درعا", ["درعا", "نوى", "بصرى"]),
    ("إدلب", ["إدلب", "سراقب", "معرة النعمان"]), ("دير الزور", ["دير الزور", "الميادين"]),
]
# one branch, several wordings (the issue: "a different wording of the same branch")
BRANCHES = [
    ["فرع فلسطين", "الفرع 235", "فرع فلسطين - المخابرات العسكرية"],
    ["المخابرات الجوية", "فرع المخابرات الجوية", "الجوية"],
    ["الأمن السياسي", "فرع الأمن السياسي", "شعبة الأمن السياسي"],
    ["الفرقة الرابعة", "الفرقة 4"],
    ["فرع الأمن العسكري", "الأمن العسكري", "فرع 215"],
]
TITLES_M = ["المهندس", "المحامي", "الطالب", "الدكتور", "الحاج", "المعلم"]
KINDS = ["father_cut", "father_swap", "father_drop", "sex", "birth_year", "branch", "own_drop",
         "family_swap", "title", "kunya", "family_first", "short", "latin", "persian", "bare"]
COLUMNS = ["report_id", "full_name_ar", "full_name_latin", "sex", "birth_year", "governorate", "city",
           "arrest_date", "arresting_agency", "mother_name", "person_id", "family_id", "slip"]


def _drop(word: str, rng: random.Random) -> str:
    """One letter dropped inside the word (never the first)."""
    i = rng.randrange(1, len(word))
    return word[:i] + word[i + 1:]


def _swap(word: str, rng: random.Random) -> str:
    """Two neighbouring letters swapped (عبد → عدب)."""
    i = rng.randrange(1, len(word) - 1) if len(word) > 2 else 0
    return word[:i] + word[i + 1] + word[i] + word[i + 2:]


def _persian(text: str) -> str:
    return text.replace("ك", "ک").replace("ي", "ی").replace("ى", "ی")


def build(n_families: int = 85, seed: int = 2811) -> list[dict[str, str]]:
    rng = random.Random(seed)
    rows: list[dict[str, str]] = []
    person = 0
    kind_i = 0
    for fam in range(1, n_families + 1):
        family = rng.choice(list(FAMILY))
        compound = [n for n in MALE if n.startswith("عبد ")]
        father = rng.choice(compound) if rng.random() < 0.4 else rng.choice([n for n in MALE if n not in compound])
        _grandfather = rng.choice(list(MALE))  # drawn, not written (the draws of the seed stay as committed)
        mother = f"{rng.choice(list(FEMALE))} {rng.choice(list(FAMILY))}"
        gov, towns = rng.choice(PLACES)
        town = rng.choice(towns)
        together = rng.random() < 0.7
        n_children = rng.choices([1, 2, 3], [0.35, 0.45, 0.2])[0]
        used: set[str] = {father}
        fam_date = f"{rng.randint(2011, 2016)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
        fam_branch = rng.randrange(len(BRANCHES))
        for _ in range(n_children):
            person += 1
            sex = "M" if rng.random() < 0.7 else "F"
            pool = MALE if sex == "M" else FEMALE
            first = rng.choice([n for n in pool if n not in used])
            used.add(first)
            born = rng.randint(1975, 2000)
            date = fam_date if together else f"{rng.randint(2011, 2016)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
            branch = fam_branch if together else rng.randrange(len(BRANCHES))
            kind = KINDS[kind_i % len(KINDS)]
            kind_i += 1
            if kind == "father_cut" and not father.startswith("عبد "):
                kind = "father_drop"
            if kind == "kunya" and sex == "F":
                kind = "title"
            n_reports = rng.choice([2, 2, 3])
            slipped = rng.randrange(1, n_reports)
            for r in range(n_reports):
                fth, own, fam_name, s, by = father, first, family, sex, born
                agency = BRANCHES[branch][0]
                # a clean copy states what the family knows; some facts missing
                keep = {f: rng.random() < 0.8 for f in ("sex", "birth_year", "governorate", "agency", "mother")}
                row = {"sex": s, "birth_year": str(by), "governorate": gov, "city": town, "arrest_date": date,
                       "arresting_agency": agency, "mother_name": mother}
                for f, col in (("sex", "sex"), ("birth_year", "birth_year"), ("governorate", "governorate"),
                               ("agency", "arresting_agency"), ("mother", "mother_name")):
                    if r > 0 and not keep[f]:
                        row[col] = ""
                latin = ""
                prefix, suffix, order = "", "", "first"
                slip = ""
                if r == slipped:
                    slip = kind
                    if kind == "father_cut":
                        fth = "عبد"
                    elif kind == "father_swap":
                        fth = _swap(fth.replace(" ", ""), rng) if " " in fth else _swap(fth, rng)
                    elif kind == "father_drop":
                        fth = _drop(fth.replace(" ", ""), rng) if " " in fth else _drop(fth, rng)
                    elif kind == "sex":
                        row["sex"] = "F" if sex == "M" else "M"
                    elif kind == "birth_year":
                        row["birth_year"] = str(born + rng.choice([-1, 1]))
                    elif kind == "branch":
                        row["arresting_agency"] = rng.choice(BRANCHES[branch][1:])
                    elif kind == "own_drop":
                        own = _drop(own.replace(" ", ""), rng) if len(own) > 3 else own
                    elif kind == "family_swap":
                        core = fam_name[2:] if fam_name.startswith("ال") else fam_name
                        fam_name = (fam_name[:2] if fam_name.startswith("ال") else "") + _swap(core, rng)
                    elif kind == "title":
                        prefix = rng.choice(TITLES_M) + " " if sex == "M" else rng.choice(["الطالبة", "المهندسة", "المعلمة"]) + " "
                    elif kind == "kunya":
                        suffix = " - أبو " + rng.choice([n for n in MALE if " " not in n])
                    elif kind == "family_first":
                        order = "family"
                    elif kind == "short":
                        order = "short"
                    elif kind == "latin":
                        order = "latin"
                    elif kind == "bare":
                        row = {k: "" for k in row}
                        row["city"], row["arrest_date"] = town, date
                if order == "latin":
                    latin = f"{MALE.get(own) or FEMALE[own]} {MALE[fth]} {FAMILY[fam_name]}"
                    ar = ""
                else:
                    if order == "family":
                        name = f"{fam_name} {own} {fth}"
                    elif order == "short":
                        name = f"{own} {fam_name}"
                    else:
                        name = f"{own} {fth} {fam_name}"
                    ar = prefix + name + suffix
                    if kind == "persian" and r == slipped:
                        ar = _persian(ar)
                        row["mother_name"] = _persian(row["mother_name"])
                row.update(full_name_ar=ar, full_name_latin=latin)
                rows.append({"report_id": f"s{person:03d}{chr(97 + r)}", **row, "person_id": str(person),
                             "family_id": str(fam), "slip": slip})
    return rows


def main() -> None:
    out = Path(__file__).parent / "data" / "one_slip.csv"
    rows = build()
    with out.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=COLUMNS)
        writer.writeheader()
        for row in rows:
            writer.writerow({c: row.get(c, "") for c in COLUMNS})
    persons = len({r["person_id"] for r in rows})
    print(f"{out}: {len(rows)} reports, {persons} persons, {len({r['family_id'] for r in rows})} families")


if __name__ == "__main__":
    main()
