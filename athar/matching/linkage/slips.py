"""A third dev set: Syrian family reports with one slip each, written from issue 28's description.

Independent of ``synthetic.py`` and ``devset.py`` (it uses none of their code or tables): the
names, their Latin spellings and the noise model below are written here, from what issue 28 says
breaks on data we did not write. Each person is reported 2–4 times; each report carries the
person's facts with, independently, the slips below. No real person is described.

Noise model (per report unless said otherwise; rates chosen to make every slip frequent enough to
measure, not to mimic a real list):

* **families**: 1–3 disappeared children (55/30/15 %), 70 % sons. Brothers and sisters share
  father, grandfather, mother, family name, town; 60 % of families were arrested together (same
  date and branch); siblings always have different own given names. 10 % of persons are
  namesakes of a person of another family (same first and family name, other father, mother,
  town and birth year);
* **script**: Arabic only 60 %, Latin only 25 %, both 15 %; name parts in their own columns 30 %
  (else only a full name), full names first + father + family (+ grandfather 20 %);
* **slips of a shared name** (father's name): cut to its first word when it is a compound
  (عبد الرحمن → "عبد", 8 %), two letters swapped (عبد → عدب, 4 %), one letter dropped (محمد → ممد,
  4 %); a letter dropped or swapped in the own first name 3 %; in the family name 3 %;
* **wrong fact on one report**: sex flipped 4 %, birth year one apart 20 % (two apart 5 %), the
  branch written another way (فرع فلسطين / الفرع 235 / Palestine Branch, 100 % chosen at random
  among the wordings), the governorate missing 30 %, the city missing 40 %;
* **written forms**: a title or a profession glued to the name 12 % (المهندس، المحامي، الطالب،
  الدكتور، الحاج، Dr., Eng.), a kunya after a dash ("… - أبو خالد") 5 % or in brackets 5 %
  (a real kunya names a son; here the kunya takes a male name of the family's pool), the family
  name first 8 % (half of the Latin ones upper case with a comma), first + family name only 12 %;
* **spellings**: Latin names take one of the spellings listed for the name, English, French or
  Maghrebi (DJAMEL, El Yaagoub, Youcef, Mostapha, Abderrahmane …; "LAAGOUB" of the issue is left
  out: we could not tell which Arabic name it writes), upper case 30 %; Arabic names take Persian
  letters (ک for ك, ی for ي and ى) 8 %, ة → ه 15 %, hamza dropped on alef 30 %.
"""

from __future__ import annotations

import random

import pandas as pd

from athar.matching.linkage.synthetic import TEMPLATE_COLUMNS  # the import contract only

# given names (Arabic, Latin spellings: English first, then French/Maghrebi ones)
MALE: list[tuple[str, list[str]]] = [
    ("محمد", ["Mohammad", "Muhammad", "Mohamed", "Mohammed"]),
    ("أحمد", ["Ahmad", "Ahmed"]),
    ("خالد", ["Khaled", "Khalid"]),
    ("جمال", ["Jamal", "Djamel", "Gamal"]),
    ("يوسف", ["Yousef", "Youssef", "Youcef", "Yusuf"]),
    ("مصطفى", ["Mustafa", "Mostafa", "Mostapha", "Moustapha"]),
    ("عمر", ["Omar", "Umar", "Amor"]),
    ("حسن", ["Hassan", "Hasan"]),
    ("حسين", ["Hussein", "Houssein", "Hussain"]),
    ("علي", ["Ali"]),
    ("إبراهيم", ["Ibrahim", "Brahim"]),
    ("عبد الرحمن", ["Abdulrahman", "Abderrahmane", "Abdel Rahman"]),
    ("عبد الله", ["Abdullah", "Abdallah", "Abdellah"]),
    ("عبد الكريم", ["Abdulkarim", "Abdelkrim", "Abdel Karim"]),
    ("عبد القادر", ["Abdulqader", "Abdelkader", "Abdel Kader"]),
    ("سامر", ["Samer"]),
    ("طارق", ["Tareq", "Tarek", "Tariq"]),
    ("وليد", ["Walid", "Waleed"]),
    ("ماهر", ["Maher"]),
    ("بلال", ["Bilal", "Belal"]),
    ("فراس", ["Firas", "Feras"]),
    ("أيمن", ["Ayman", "Aymen"]),
    ("رامي", ["Rami", "Ramy"]),
    ("زياد", ["Ziad", "Ziyad"]),
    ("نضال", ["Nidal", "Nedal"]),
    ("ياسر", ["Yaser", "Yasser"]),
    ("هشام", ["Hisham", "Hichem"]),
    ("رشيد", ["Rashid", "Rachid"]),
    ("صالح", ["Saleh", "Salih"]),
    ("عادل", ["Adel", "Adil"]),
]
FEMALE: list[tuple[str, list[str]]] = [
    ("فاطمة", ["Fatima", "Fatma", "Fatema"]),
    ("مريم", ["Maryam", "Meriem", "Mariam"]),
    ("خديجة", ["Khadija", "Khadidja"]),
    ("رنا", ["Rana"]),
    ("هبة", ["Hiba", "Heba"]),
    ("نور", ["Nour", "Noor"]),
    ("سلمى", ["Salma", "Selma"]),
    ("زينب", ["Zainab", "Zeineb", "Zaynab"]),
    ("أمينة", ["Amina", "Amena"]),
    ("ليلى", ["Layla", "Leila", "Laila"]),
    ("سعاد", ["Souad", "Suad"]),
    ("رهف", ["Rahaf"]),
]
FAMILY: list[tuple[str, list[str]]] = [
    ("الحلبي", ["al-Halabi", "Halabi", "El Halabi"]),
    ("العلي", ["al-Ali", "El Ali"]),
    ("اليعقوب", ["al-Yaqoub", "El Yaagoub", "EL YAAGOUB", "El Yacoub"]),
    ("الأحمد", ["al-Ahmad", "Lahmad", "El Ahmed"]),
    ("الخطيب", ["al-Khatib", "El Khatib", "Khatib"]),
    ("الشامي", ["al-Shami", "Chami", "El Chami"]),
    ("المصري", ["al-Masri", "Masri", "El Masry"]),
    ("الحمصي", ["al-Homsi", "Homsi", "El Homsi"]),
    ("قاسم", ["Qasim", "Kacem", "Kassem"]),
    ("حداد", ["Haddad"]),
    ("النجار", ["al-Najjar", "Nadjar", "El Najjar"]),
    ("العمر", ["al-Omar", "Lamor", "El Omar"]),
    ("الزعبي", ["al-Zoubi", "Zoubi", "Ezzoubi"]),
    ("درويش", ["Darwish", "Derouiche"]),
    ("الجاسم", ["al-Jasim", "Djassem", "El Jassem"]),
    ("السيد", ["al-Sayed", "Essayed", "El Sayed"]),
    ("الرفاعي", ["al-Rifai", "Rifai", "Errifai"]),
    ("بكور", ["Bakkour", "Bakour"]),
    ("الكردي", ["al-Kurdi", "Kurdi", "El Kurdi"]),
    ("عثمان", ["Othman", "Osmane", "Atmane"]),
]
PLACES: list[tuple[str, list[str]]] = [
    ("دمشق", ["دمشق", "المزة", "كفرسوسة"]), ("ريف دمشق", ["دوما", "داريا", "التل"]),
    ("حلب", ["حلب", "منبج", "الباب"]), ("حمص", ["حمص", "تلكلخ", "الرستن"]),
    ("حماة", ["حماة", "السلمية"]), ("درعا", ["درعا", "نوى", "الصنمين"]),
    ("إدلب", ["إدلب", "معرة النعمان"]), ("دير الزور", ["دير الزور", "الميادين"]),
]
# one branch, the wordings families use for it
BRANCHES: list[list[str]] = [
    ["فرع فلسطين", "الفرع 235", "Palestine Branch", "فرع 235"],
    ["فرع الخطيب", "الفرع 251", "al-Khatib branch"],
    ["المخابرات الجوية", "الجوية", "Air Force Intelligence"],
    ["الأمن العسكري", "شعبة المخابرات العسكرية", "Military Intelligence"],
    ["فرع 215", "فرع المداهمة", "Raids Branch"],
]
TITLES_AR = ["المهندس", "المحامي", "الطالب", "الدكتور", "الحاج"]
TITLES_AR_F = ["المهندسة", "المحامية", "الطالبة", "الدكتورة"]
TITLES_LATIN = ["Dr.", "Eng."]
PERSIAN = str.maketrans({"ك": "ک", "ي": "ی", "ى": "ی"})
HAMZA = str.maketrans({"أ": "ا", "إ": "ا", "آ": "ا"})


def _slip(word: str, rng: random.Random, kind: str) -> str:
    """One slip of the pen in an Arabic word: 'swap' two neighbouring letters, 'drop' one
    (never the first), 'cut' a compound to its first word."""
    if kind == "cut":
        return word.split()[0]
    letters = word.replace(" ", "")
    if len(letters) < 3:
        return word
    if kind == "swap":
        i = rng.randrange(1, len(letters) - 1)
        return letters[:i] + letters[i + 1] + letters[i] + letters[i + 2:]
    i = rng.randrange(1, len(letters))
    return letters[:i] + letters[i + 1:]


class _Person:
    def __init__(self, pid: int, family: dict, first: tuple[str, list[str]], sex: str, year: int) -> None:
        self.pid, self.family, self.first, self.sex, self.year = pid, family, first, sex, year


def _families(n_persons: int, rng: random.Random) -> list[_Person]:
    persons: list[_Person] = []
    fid = 0
    while len(persons) < n_persons:
        fid += 1
        gov, cities = rng.choice(PLACES)
        family: dict = {"id": fid, "father": rng.choice(MALE), "grandfather": rng.choice(MALE),
                  "family": rng.choice(FAMILY), "mother": rng.choice(FEMALE), "mother_family": rng.choice(FAMILY),
                  "governorate": gov, "city": rng.choice(cities)}
        together = rng.random() < 0.6
        arrest = pd.Timestamp(2011, 3, 1) + pd.Timedelta(days=rng.randrange(0, 365 * 5))
        children = rng.choices([1, 2, 3], weights=[55, 30, 15])[0]
        used: set[str] = set()
        for _ in range(children):
            sex = "M" if rng.random() < 0.7 else "F"
            pool = [n for n in (MALE if sex == "M" else FEMALE) if n[0] not in used and n[0] != family["father"][0]]
            first = rng.choice(pool)
            used.add(first[0])
            person = _Person(len(persons) + 1, dict(family), first, sex, rng.randrange(1960, 2000))
            when = arrest if together else pd.Timestamp(2011, 3, 1) + pd.Timedelta(days=rng.randrange(0, 365 * 5))
            person.family["arrest"] = when
            person.family["branch"] = rng.choice(BRANCHES) if not together or "branch" not in family else family["branch"]
            family.setdefault("branch", person.family["branch"])
            persons.append(person)
            if rng.random() < 0.10 and len(persons) < n_persons:  # a namesake in another family
                other = dict(family, id=-len(persons) - 1, father=rng.choice(MALE), mother=rng.choice(FEMALE),
                             governorate=rng.choice(PLACES)[0], arrest=when, branch=rng.choice(BRANCHES))
                fid += 1
                other["id"] = fid
                persons.append(_Person(len(persons) + 1, other, first, sex, rng.randrange(1960, 2000)))
    return persons[:n_persons]


def _arabic_parts(p: _Person, rng: random.Random) -> dict[str, str]:
    """The person's name parts in Arabic, each with its slips."""
    f = p.family
    first, father, family = p.first[0], f["father"][0], f["family"][0]
    r = rng.random()
    if " " in father and r < 0.08:
        father = _slip(father, rng, "cut")
    elif r < 0.12:
        father = _slip(father, rng, "swap")
    elif r < 0.16:
        father = _slip(father, rng, "drop")
    if rng.random() < 0.03:
        first = _slip(first, rng, rng.choice(["swap", "drop"]))
    if rng.random() < 0.03:
        family = _slip(family, rng, rng.choice(["swap", "drop"]))
    return {"first": first, "father": father, "grandfather": f["grandfather"][0], "family": family,
            "mother": f"{f['mother'][0]} {f['mother_family'][0]}"}


def _arabic_spelling(text: str, rng: random.Random) -> str:
    if rng.random() < 0.30:
        text = text.translate(HAMZA)
    if rng.random() < 0.15:
        text = text.replace("ة", "ه")
    if rng.random() < 0.08:
        text = text.translate(PERSIAN)
    return text


def _latin_parts(p: _Person, rng: random.Random) -> dict[str, str]:
    f = p.family
    upper = rng.random() < 0.30
    def spell(name: tuple[str, list[str]]) -> str:
        s = rng.choice(name[1])
        return s.upper() if upper else s
    return {"first": spell(p.first), "father": spell(f["father"]), "grandfather": spell(f["grandfather"]),
            "family": spell(f["family"]), "mother": f"{spell(f['mother'])} {spell(f['mother_family'])}"}


def _full_name(parts: dict[str, str], p: _Person, latin: bool, rng: random.Random) -> str:
    """A full name as families write it: order, shortening, title, kunya."""
    words = [parts["first"], parts["father"]] + ([parts["grandfather"]] if rng.random() < 0.2 else []) + [parts["family"]]
    r = rng.random()
    if r < 0.12:
        words = [parts["first"], parts["family"]]
    if rng.random() < 0.08:  # family name first
        name = (f"{parts['family'].upper()}, {' '.join(words[:-1])}" if latin and rng.random() < 0.5
                else " ".join([words[-1], *words[:-1]]))
    else:
        name = " ".join(words)
    r = rng.random()
    if r < 0.12:
        title = rng.choice(TITLES_LATIN) if latin else rng.choice(TITLES_AR if p.sex == "M" else TITLES_AR_F)
        name = f"{title} {name}"
    r = rng.random()
    if r < 0.10:
        son = rng.choice(MALE)
        kunya = (f"Abu {son[1][0]}" if latin else f"أبو {son[0]}") if p.sex == "M" else (
            f"Umm {son[1][0]}" if latin else f"أم {son[0]}")
        name = f"{name} - {kunya}" if r < 0.05 else f"{name} ({kunya})"
    return name


def _report(p: _Person, rid: int, rng: random.Random) -> dict[str, str]:
    f = p.family
    script = rng.choices(["ar", "latin", "both"], weights=[60, 25, 15])[0]
    ar = _arabic_parts(p, rng)
    la = _latin_parts(p, rng)
    row: dict[str, str] = {"report_id": f"s{rid}", "source": f"source-{rng.randrange(1, 6)}"}
    if script in ("ar", "both"):
        row["full_name_ar"] = _arabic_spelling(_full_name(ar, p, False, rng), rng)
    if script in ("latin", "both"):
        row["full_name_latin"] = _full_name(la, p, True, rng)
    if rng.random() < 0.30:  # parts in their own columns (Arabic when the report has Arabic)
        parts = ar if script != "latin" else la
        row.update(first_name=parts["first"], father_name=parts["father"], family_name=parts["family"])
    if rng.random() < 0.5:
        row["mother_name"] = ar["mother"] if script != "latin" else la["mother"]
    sex = p.sex if rng.random() >= 0.04 else ("F" if p.sex == "M" else "M")
    row["sex"] = rng.choice({"M": ["M", "ذكر", "male"], "F": ["F", "أنثى", "female"]}[sex]) if rng.random() < 0.85 else ""
    shift = rng.choices([0, 1, -1, 2, -2], weights=[75, 10, 10, 2.5, 2.5])[0]
    row["birth_year"] = str(p.year + shift) if rng.random() < 0.8 else ""
    row["governorate"] = f["governorate"] if rng.random() >= 0.30 else ""
    row["city"] = f["city"] if rng.random() >= 0.40 else ""
    arrest = f["arrest"] + pd.Timedelta(days=rng.choice([0, 0, 0, 3, -5, 20]))
    row["arrest_date"] = rng.choice([arrest.strftime("%Y-%m-%d"), arrest.strftime("%Y-%m"), arrest.strftime("%Y")]) \
        if rng.random() < 0.8 else ""
    row["arresting_agency"] = rng.choice(f["branch"]) if rng.random() < 0.6 else ""
    row.update(person_id=str(p.pid), family_id=str(f["id"]))
    return row


def generate_slips(n_persons: int = 1500, seed: int = 0) -> pd.DataFrame:
    """Reports in the import template (+ ``person_id``, ``family_id`` truth) with the slips of the
    module docstring: 2–4 reports per person (40/35/25 %)."""
    rng = random.Random(seed)
    rows: list[dict[str, str]] = []
    for p in _families(n_persons, rng):
        for _ in range(rng.choices([2, 3, 4], weights=[40, 35, 25])[0]):
            rows.append(_report(p, len(rows) + 1, rng))
    # the import template's columns (the contract, not the other generators' code) + the truth
    return pd.DataFrame(rows).reindex(columns=[*TEMPLATE_COLUMNS, "person_id", "family_id"]).fillna("")
