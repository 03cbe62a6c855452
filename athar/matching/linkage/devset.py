"""A second, independent generator of missing-person reports, written from the phenomena of real
lists (issue 18), not from the first generator (``synthetic.py``, whose code and name tables it
does not use). See docs/linkage.md ("Dev sets") for the noise model. Nothing here is real data.

Names: given and family names from real name lists with their REAL romanisations and frequencies
(../shared/data/names: Arabic name lists, Wikidata and Wikipedia transliteration pairs — English,
French/Maghrebi and Turkish spellings, as they occur), or a small built-in pool when those files are
absent. Persons come in families: brothers and sisters (same father, mother, family name, town,
often the same arrest), cousins (same grandfather and family name) and namesakes. Reports carry
titles, bracketed kunyas and notes, a place glued after the name, the family name first, Persian
letters, dotted-letter (OCR/handwriting) confusions, abbreviations of Muhammad, joined or split
compounds, a dropped middle name, typos, and birth years off by one or two.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pandas as pd

# ../shared/data beside the checkout; callers with a configuration pass ATHAR_SHARED_DATA's folder
# (athar.config.shared_data_dir) — athar.matching reads no configuration of its own.
DEFAULT_SHARED_DATA = Path(__file__).resolve().parents[4] / "shared" / "data"
COLUMNS = ["report_id", "full_name_ar", "full_name_latin", "first_name", "father_name", "family_name",
           "mother_name", "sex", "birth_year", "birth_place", "governorate", "city", "arrest_date", "arresting_agency",
           "person_id", "family_id"]


@dataclass(frozen=True)
class Name:
    """A name in Arabic script and its Latin spellings with their weights (how often seen)."""

    arabic: str
    latin: tuple[tuple[str, int], ...]


@dataclass
class Pool:
    male: list[Name]
    female: list[Name]
    family: list[Name]


# Built-in pool (used when ../shared/data is absent): spellings as seen in lists.
_BUILTIN = {
    "male": {"محمد": "Mohamed Muhammad Mohammad Mohammed Mouhamad", "أحمد": "Ahmad Ahmed", "خالد": "Khaled Khalid",
             "يوسف": "Youssef Yusuf Yousef Youcef", "مصطفى": "Mustafa Moustapha Mostafa", "عمر": "Omar Umar Omer",
             "حسن": "Hasan Hassan", "جمال": "Jamal Djamel Gamal", "شادي": "Shadi Chadi", "رامي": "Rami Ramy",
             "سامر": "Samer Samir", "باسل": "Basel Bassel Basil", "وسيم": "Wassim Wasim Waseem", "عماد": "Imad Emad",
             "ياسر": "Yasser Yaser", "طارق": "Tarek Tariq Tarik", "عبد الكريم": "Abdulkarim Abdelkarim",
             "عبد الرحمن": "Abdulrahman Abderrahmane Abdelrahman", "نور الدين": "Nureddin Noureddine"},
    "female": {"فاطمة": "Fatima Fatma Fatimah", "جميلة": "Jamila Djamila", "مريم": "Maryam Mariam Meriem",
               "خديجة": "Khadija Khadidja", "نور": "Nour Noor Nur", "رنا": "Rana", "هبة": "Heba Hiba",
               "سعاد": "Souad Suad", "زينب": "Zeinab Zaynab", "ليلى": "Layla Leila Laila"},
    "family": {"الحلبي": "Halabi", "الخطيب": "Khatib Khatib", "الأحمد": "Ahmad", "المحمود": "Mahmoud Mahmud",
               "الزعبي": "Zoubi Zubi", "الحمصي": "Homsi Himsi", "السالم": "Salem Salim", "العلي": "Ali",
               "الشامي": "Shami Chami", "النجار": "Najjar Naggar", "الحسن": "Hasan Hassan",
               "المقداد": "Miqdad Mekdad", "درويش": "Darwish Darwiche", "حداد": "Haddad", "قاسم": "Kassem Qasim"},
}


def _builtin_pool() -> Pool:
    def names(kind: str) -> list[Name]:
        return [Name(ar, tuple((la.lower(), 1) for la in latin.split())) for ar, latin in _BUILTIN[kind].items()]

    return Pool(names("male"), names("female"), names("family"))


@lru_cache(maxsize=4)
def shared_pool(split: str = "dev", shared_data: Path = DEFAULT_SHARED_DATA) -> Pool:
    """Real names with real romanisations; ``split`` 'dev' reads the 80% Wikidata split and the
    Google train split, 'heldout' the 20% split and the Google eval and test splits."""
    folder = shared_data / "names"
    if not (folder / "akhateeb_arabic_names").is_dir():
        return _builtin_pool()
    latin = _romanisations(folder, split)
    lists = folder / "akhateeb_arabic_names"

    def names(file: str) -> list[Name]:
        out = []
        for line in (lists / file).read_text("utf-8").splitlines():
            arabic = line.strip().lstrip("\ufeff")
            forms = latin.get(arabic.replace(" ", "")) or latin.get(_without_article(arabic), {})
            kept = _kept_forms(forms)
            if arabic and kept:
                out.append(Name(arabic, kept))
        return out

    return Pool(names("male-first--names-in-arabic.txt"), names("female-first-names-in-arabic.txt"),
                names("last-names-in-arabic.txt"))


def _without_article(arabic: str) -> str:
    return arabic[2:] if arabic.startswith("ال") else arabic


def _romanisations(folder: Path, split: str) -> dict[str, dict[str, int]]:
    wd = ["wd_arabic_80"] if split == "dev" else ["wd_arabic_20"]
    google = ["ar2en-train.txt"] if split == "dev" else ["ar2en-eval.txt", "ar2en-test.txt"]
    out: dict[str, dict[str, int]] = defaultdict(dict)
    for file in wd:
        for line in (folder / "netransliteration_coling2018" / file).read_text("utf-8").splitlines():
            cells = line.split("\t")
            if len(cells) >= 3 and cells[2].isdigit():
                arabic = cells[1].replace(" ", "")
                out[arabic][cells[0]] = out[arabic].get(cells[0], 0) + int(cells[2])
    for file in google:
        for line in (folder / "google_transliteration" / file).read_text("utf-8").splitlines():
            cells = line.split("\t")
            if len(cells) >= 2:
                out[cells[0]][cells[1]] = out[cells[0]].get(cells[1], 0) + 1
    return out


def _kept_forms(forms: dict[str, int]) -> tuple[tuple[str, int], ...]:
    """Spellings carrying 10% of the name's count (alignment noise and translations such as
    المصري → "Egyptian" or خاتون → "Gülbahar" out; real variants such as Youcef / Youssef stay)."""
    total = sum(forms.values())
    kept = [(f, c) for f, c in forms.items() if c / total >= 0.10 and f.replace("'", "").isalpha()]
    return tuple(sorted(kept, key=lambda fc: -fc[1])[:8])


TITLES_AR = ["الطالب", "المعتقل", "الحاج", "الشيخ", "الدكتور", "المهندس", "الشهيد", "السيد"]
TITLES_AR_F = ["الطالبة", "المعتقلة", "الحاجة", "الدكتورة", "المهندسة", "السيدة"]
TITLES_LA = ["Mr.", "Dr.", "Eng.", "Sheikh", "Haj"]
TITLES_LA_F = ["Mrs.", "Dr.", "Eng.", "Ms."]
NOTES_AR = ["طالب جامعي", "من الريف", "محامي", "عسكري منشق"]
NOTES_LA = ["student", "lawyer", "from the countryside", "teacher"]
TOWNS = [("دوما", "Douma", "ريف دمشق"), ("داريا", "Darayya", "ريف دمشق"), ("خناصر", "Khanasser", "حلب"),
         ("الرستن", "Rastan", "حمص"), ("تلكلخ", "Talkalakh", "حمص"), ("نوى", "Nawa", "درعا"),
         ("إنخل", "Inkhil", "درعا"), ("سراقب", "Saraqib", "إدلب"), ("الميادين", "Mayadin", "دير الزور"),
         ("السلمية", "Salamiyah", "حماة"), ("منبج", "Manbij", "حلب"), ("القصير", "Qusayr", "حمص")]
AGENCIES = ["فرع 215", "فرع فلسطين", "المخابرات الجوية", "فرع 251", "الأمن العسكري", "Branch 227"]
DOTTED = [set("رز"), set("حجخ"), set("بتثن"), set("سش"), set("صض"), set("عغ"), set("فق"), set("دذ"), set("طظ")]


@dataclass
class Person:
    person_id: int
    family_id: int
    sex: str
    first: Name
    father: Name
    grandfather: Name
    family: Name
    mother: Name
    mother_family: Name
    birth_year: int
    town: tuple[str, str, str]
    arrest: tuple[int, int, int]
    agency: str


def _persons(n_persons: int, rng: random.Random, pool: Pool) -> list[Person]:
    persons: list[Person] = []
    families: list[tuple] = []
    family_id = 0
    while len(persons) < n_persons:
        family_id += 1
        if families and rng.random() < 0.15:  # cousins: same grandfather and family name
            _, grandfather, family = rng.choice(families)
        else:
            grandfather, family = rng.choice(pool.male), rng.choice(pool.family)
        father = rng.choice(pool.male)
        families.append((family_id, father, family))
        mother, mother_family = rng.choice(pool.female), rng.choice(pool.family)
        town = rng.choice(TOWNS)
        base_year = rng.randint(1960, 2000)
        together = rng.random() < 0.5
        arrest = (rng.randint(2011, 2016), rng.randint(1, 12), rng.randint(1, 28))
        agency = rng.choice(AGENCIES)
        n_children = rng.choices([1, 2, 3, 4], weights=[50, 27, 15, 8])[0]
        used: set[str] = set()
        for k in range(n_children):
            sex = "M" if rng.random() < 0.75 else "F"
            first = rng.choice(pool.male if sex == "M" else pool.female)
            while first.arabic in used:
                first = rng.choice(pool.male if sex == "M" else pool.female)
            used.add(first.arabic)
            own_family = family
            if persons and rng.random() < 0.05:  # a namesake of an earlier person of another family
                earlier = rng.choice(persons)
                if earlier.sex == sex and earlier.family_id != family_id and earlier.first.arabic not in used:
                    first, own_family = earlier.first, earlier.family
                    used.add(first.arabic)
            own_arrest = arrest if together else (rng.randint(2011, 2016), rng.randint(1, 12), rng.randint(1, 28))
            persons.append(Person(len(persons), family_id, sex, first, father, grandfather, own_family, mother,
                                  mother_family, base_year + 2 * k + rng.randint(0, 1), town, own_arrest,
                                  agency if together else rng.choice(AGENCIES)))
    return persons[:n_persons]


def _arabic(name: Name, rng: random.Random, *, family: bool = False) -> str:
    """The Arabic form as families type it: hamza, taa marbuta, alef maqsura, Persian letters,
    compounds joined or split, the article dropped from a family name."""
    text = name.arabic
    if " " in text and rng.random() < 0.5:
        text = text.replace(" ", "")
    elif text.startswith("عبد") and " " not in text and rng.random() < 0.5:
        text = "عبد " + text[3:]
    for a, b, p in (("أ", "ا", 0.3), ("إ", "ا", 0.3), ("آ", "ا", 0.2), ("ة", "ه", 0.2), ("ى", "ي", 0.2)):
        if a in text and rng.random() < p:
            text = text.replace(a, b)
    if rng.random() < 0.04:
        text = text.replace("ي", "ی").replace("ك", "ک")
    if family and text.startswith("ال") and rng.random() < 0.2:
        text = text[2:]
    if rng.random() < 0.03:
        text = _dotted(text, rng)
    return text


def _dotted(text: str, rng: random.Random) -> str:
    """One letter read with the wrong dots (handwriting, OCR): ر/ز, ح/ج/خ, ب/ت/ث/ن …"""
    spots = [i for i, ch in enumerate(text) if any(ch in group for group in DOTTED)]
    if not spots:
        return text
    i = rng.choice(spots)
    group = next(g for g in DOTTED if text[i] in g)
    return text[:i] + rng.choice(sorted(group - {text[i]})) + text[i + 1:]


def _latin(name: Name, rng: random.Random, *, family: bool = False, first: bool = False) -> str:
    """A real spelling (weighted by how often it is seen), cased and with an article as written."""
    forms, weights = zip(*name.latin)
    text = rng.choices(forms, weights=[w ** 0.5 for w in weights])[0]
    if first and name.arabic == "محمد" and rng.random() < 0.25:
        return rng.choice(["Mhd", "Moh'd", "M.", "Mohd"])
    text = "-".join(part.capitalize() for part in text.split("-"))
    if family and name.arabic.startswith("ال") and not text.lower().startswith(("al", "el")):
        style = rng.random()
        text = ("al-" + text if style < 0.4 else "Al " + text if style < 0.55 else "El-" + text if style < 0.65
                else "Al" + text.lower() if style < 0.7 else text)
    return text


def _typo(text: str, rng: random.Random) -> str:
    if len(text) < 5:
        return text
    i = rng.randrange(1, len(text) - 1)
    return text[:i] + text[i + 1:] if rng.random() < 0.5 else text[:i] + text[i + 1] + text[i] + text[i + 2:]


def _full(parts: list[str], family: str, arabic: bool, person: Person, rng: random.Random) -> str:
    """Compose the written full name: order, title, kunya or note, place."""
    given = " ".join(parts)
    roll = rng.random()
    if roll < 0.04:
        text = f"{family}، {given}" if arabic else f"{family}, {given}"
    elif roll < 0.08:
        text = f"{family} {given}" if arabic else f"{family.upper()} {given}"
    else:
        text = f"{given} {family}"
    if rng.random() < 0.10:
        titles = (TITLES_AR if person.sex == "M" else TITLES_AR_F) if arabic else (
            TITLES_LA if person.sex == "M" else TITLES_LA_F)
        text = f"{rng.choice(titles)} {text}"
    roll = rng.random()
    if roll < 0.05:
        kunya = person.father.arabic if arabic else person.father.latin[0][0].capitalize()
        text += f" (أبو {kunya})" if arabic else f" (Abu {kunya})"
    elif roll < 0.08:
        text += f" ({rng.choice(NOTES_AR if arabic else NOTES_LA)})"
    if rng.random() < 0.05:
        text += f" - {person.town[0] if arabic else person.town[1]}"
    return text


def _names(person: Person, arabic: bool, rng: random.Random) -> tuple[list[str], str, str]:
    write = (lambda n, **k: _arabic(n, rng, **k)) if arabic else (lambda n, **k: _latin(n, rng, **k))
    first = write(person.first, first=True) if not arabic else write(person.first)
    father, family = write(person.father), write(person.family, family=True)
    shape = rng.random()
    parts = [first, father] if shape < 0.6 else [first, father, write(person.grandfather)] if shape < 0.85 else [first]
    if rng.random() < 0.03:
        parts[0] = _typo(parts[0], rng)
    mother = f"{write(person.mother)} {write(person.mother_family, family=True)}"
    return parts, family, mother


def _report(person: Person, number: int, rng: random.Random) -> dict[str, object]:
    roll = rng.random()
    scripts = ["ar"] if roll < 0.55 else ["latin"] if roll < 0.85 else ["ar", "latin"]
    row: dict[str, object] = {c: "" for c in COLUMNS}
    row.update(report_id=f"d{number}", person_id=person.person_id, family_id=person.family_id)
    separate = rng.random() < 0.35
    for script in scripts:
        parts, family, mother = _names(person, script == "ar", rng)
        if separate and len(scripts) == 1:
            row.update(first_name=parts[0], father_name=parts[1] if len(parts) > 1 else "", family_name=family)
        else:
            row["full_name_ar" if script == "ar" else "full_name_latin"] = _full(parts, family, script == "ar",
                                                                                 person, rng)
        if rng.random() < 0.45 and not row["mother_name"]:
            row["mother_name"] = mother
    _facts(person, row, rng)
    return row


def _facts(person: Person, row: dict[str, object], rng: random.Random) -> None:
    if rng.random() < 0.8:
        row["sex"] = rng.choice({"M": ["M", "ذكر", "male"], "F": ["F", "أنثى", "female"]}[person.sex])
    if rng.random() < 0.75:
        off = rng.choices([0, 1, -1, 2, -2], weights=[70, 10, 10, 5, 5])[0]
        row["birth_year"] = person.birth_year + off
    if rng.random() < 0.7:
        row["governorate"] = person.town[2]
    if rng.random() < 0.5:
        row["city"] = person.town[0] if rng.random() < 0.7 else person.town[1]
    if rng.random() < 0.7:
        y, m, d = person.arrest
        row["arrest_date"] = rng.choice([f"{y}-{m:02d}-{d:02d}", f"{y}-{m:02d}", f"{y}"])
    if rng.random() < 0.5:
        row["arresting_agency"] = person.agency


def generate_devset(n_reports: int, seed: int = 0, pool: Pool | None = None) -> pd.DataFrame:
    """About ``n_reports`` reports (template columns, ``person_id`` and ``family_id`` truth)."""
    rng = random.Random(seed)
    pool = pool or shared_pool("dev")
    persons = _persons(max(1, int(n_reports / 2.1)), rng, pool)
    rows: list[dict[str, object]] = []
    for person in persons:
        for _ in range(rng.choices([1, 2, 3, 4], weights=[35, 35, 20, 10])[0]):
            rows.append(_report(person, len(rows), rng))
            if len(rows) >= n_reports:
                return pd.DataFrame(rows, columns=COLUMNS)
    return pd.DataFrame(rows, columns=COLUMNS)


def sibling_merges(df: pd.DataFrame, cluster_ids: list[str]) -> int:
    """Pairs of different persons of one family (brothers, sisters) put in one cluster."""
    seen: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for cluster, person, family in zip(cluster_ids, df["person_id"], df["family_id"]):
        seen[cluster].add((str(family), str(person)))
    merged = 0
    for members in seen.values():
        by_family: dict[str, set[str]] = defaultdict(set)
        for family, person in members:
            by_family[family].add(person)
        merged += sum(len(p) * (len(p) - 1) // 2 for p in by_family.values())
    return merged


def real_cross_script(n_persons: int, seed: int = 0, pool: Pool | None = None,
                      parts: tuple[int, ...] = (3,)) -> pd.DataFrame:
    """Names only, each person once in Arabic script (as the name list writes it) and once in Latin
    letters (a real spelling of each name, weighted by how often it is seen). Drawn from the
    held-out splits of the transliteration corpora, so no spelling here served the dev set.
    ``parts``: how many names each person's name has, drawn evenly among these (given name,
    ancestors, family name; 2 is "TARIQ AZIZ", 5 a name with its lineage: sanctions lists write
    both, issue 28's hidden set of UN names); the default (3,) draws what earlier sessions drew."""
    rng = random.Random(seed)
    pool = pool or shared_pool("heldout")
    rows = []
    for person in range(n_persons):
        sex = "M" if rng.random() < 0.7 else "F"
        first = rng.choice(pool.male if sex == "M" else pool.female)
        count = parts[0] if len(parts) == 1 else rng.choice(parts)
        names = [first, *(rng.choice(pool.male) for _ in range(count - 2)), rng.choice(pool.family)]
        arabic = " ".join(n.arabic for n in names)
        latin = " ".join(_capitalised(_real_form(n, rng)) for n in names)
        rows.append({"report_id": f"a{person}", "full_name_ar": arabic, "full_name_latin": "", "person_id": person})
        rows.append({"report_id": f"l{person}", "full_name_ar": "", "full_name_latin": latin, "person_id": person})
    return pd.DataFrame(rows)


def attested_pool(pool: Pool, attested: frozenset[tuple[str, str]]) -> Pool:
    """The pool with only its attested spellings (``attested_pairs``); names left with none are dropped."""
    def keep(names: list[Name]) -> list[Name]:
        out = []
        for name in names:
            forms = tuple((f, c) for f, c in name.latin if _is_attested(name.arabic, f, attested))
            if forms:
                out.append(Name(name.arabic, forms))
        return out

    return Pool(keep(pool.male), keep(pool.female), keep(pool.family))


def _real_form(name: Name, rng: random.Random) -> str:
    forms, weights = zip(*name.latin)
    return str(rng.choices(forms, weights=weights)[0])


def _capitalised(form: str) -> str:
    return "-".join(p.capitalize() for p in form.split("-"))


def _is_attested(arabic: str, latin: str, attested: frozenset[tuple[str, str]]) -> bool:
    latin = latin.lower()
    return (arabic.replace(" ", ""), latin) in attested or (_without_article(arabic), latin) in attested


# The rule of the "attested" real set, stated before looking at what the linkage misses: an
# Arabic/Latin word pair is a transliteration, not a translation or an alignment accident, when it
# is seen in at least two of the three independent corpora (Wikidata person-name tokens of
# netransliteration_coling2018, all splits; Google's Wikipedia transliteration pairs, all splits;
# ANETAC's named entities), or at least ATTESTED_WIKIDATA_COUNT times among Wikidata person names.
ATTESTED_SOURCES = 2
ATTESTED_WIKIDATA_COUNT = 3


@lru_cache(maxsize=2)
def attested_pairs(shared_data: Path = DEFAULT_SHARED_DATA) -> frozenset[tuple[str, str]]:
    """(Arabic without spaces, lower-case Latin) word pairs that pass the rule above."""
    folder = shared_data / "names"
    wikidata: dict[tuple[str, str], int] = defaultdict(int)
    for line in (folder / "netransliteration_coling2018" / "wd_arabic.normalized.aligned.tokens").read_text(
            "utf-8").splitlines():
        cells = line.split("\t")
        if len(cells) >= 3 and cells[2].isdigit():
            wikidata[(cells[1].replace(" ", ""), cells[0].lower())] += int(cells[2])
    google: set[tuple[str, str]] = set()
    for line in (folder / "google_transliteration" / "ar2en.txt").read_text("utf-8").splitlines():
        cells = line.split("\t")
        if len(cells) >= 2:
            google.add((cells[0].replace(" ", ""), cells[1].lower()))
    anetac: set[tuple[str, str]] = set()
    for line in (folder / "anetac" / "EN-AR_Named-entities.txt").read_text("utf-8").splitlines():
        cells = line.split()
        if len(cells) == 3:  # class, one Latin word, one Arabic word
            anetac.add((cells[2], cells[1].lower()))
    counts: dict[tuple[str, str], int] = defaultdict(int)
    for source in (set(wikidata), google, anetac):
        for pair in source:
            counts[pair] += 1
    return frozenset(p for p, c in counts.items()
                     if c >= ATTESTED_SOURCES or wikidata.get(p, 0) >= ATTESTED_WIKIDATA_COUNT)
