"""Synthetic Syrian missing-person reports with a documented noise model.

Nothing here is real data: names are drawn from the token lists in
``data/syrian_names.yaml`` (common Syrian names written for athar). See
docs/linkage.md ("Synthetic data") for the noise model; in short:

* persons come in households (1–3 disappeared siblings: brothers share father, mother,
  family name and town); 15% of households are cousins of an earlier one (same
  grandfather and family name, different father); 8% of persons are namesakes of an
  earlier person (same first and family name, same town, different parents and birth
  year); names are drawn with Zipf-like weights, so Mohammad al-Hasan is common;
* each person has 1–4 reports (35/30/20/15%) from different sources, written in Arabic
  (50%), Latin (25%) or both (25%);
* Arabic noise: hamza on alef dropped (40%), ة → ه (30%), ى → ي (30%), article dropped
  from the family name (20%), compound spacing changed (50%), one typo (4% per name);
* Latin noise: a known spelling variant (50%), vowel changes, doubled letters, article
  style (al-X / Al X / AlX / El-X / X), Mhd for Muhammad (20%), upper case (10%), a typo
  (4% per name), family name first with a comma (5% of Latin names);
* fields: name parts given separately in 70% of reports (else only the full name);
  grandfather in 30% of full names; mother's name missing 30%; birth year missing 15%,
  off by 1 (15%) or 2 (5%); sex missing 5%; city missing 20%; agency missing 30% and
  another agency 10%; arrest date given as full date (40%), year-month (35%) or year
  (25%), recalled up to ±2 months off (30%).
"""

from __future__ import annotations

import csv
import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import pandas as pd
import yaml

from athar.matching.names.tokens import name_tokens
from athar.matching.names.variants import variant_index

TEMPLATE_COLUMNS = [
    "report_id", "source", "full_name_ar", "full_name_latin", "first_name", "father_name",
    "family_name", "mother_name", "sex", "birth_year", "birth_place", "governorate", "city",
    "neighbourhood", "arrest_date", "arrest_place", "arresting_agency", "distinguishing_marks",
    "reporter_relation",
]


@lru_cache(maxsize=1)
def name_lists() -> dict:
    """The generator's token lists (data/syrian_names.yaml)."""
    text = resources.files("athar.matching.linkage").joinpath("data").joinpath("syrian_names.yaml").read_text("utf-8")
    return yaml.safe_load(text)


@dataclass
class Person:
    person_id: int
    sex: str
    first: tuple[str, str]
    father: tuple[str, str]
    grandfather: tuple[str, str]
    family: tuple[str, str]
    mother: tuple[str, str]
    mother_family: tuple[str, str]
    birth_year: int
    governorate: str
    city: tuple[str, str]
    arrest: tuple[int, int, int]
    agency: int


class _Draw:
    """Zipf-weighted choice from a list (rank r has weight 1 / (r + 2))."""

    def __init__(self, items: list, rng: random.Random) -> None:
        self.items = items
        self.rng = rng
        weights = [1.0 / (r + 2) for r in range(len(items))]
        total = sum(weights)
        self.cum = []
        acc = 0.0
        for w in weights:
            acc += w / total
            self.cum.append(acc)

    def __call__(self) -> tuple[str, str]:
        import bisect

        i = min(bisect.bisect_left(self.cum, self.rng.random()), len(self.items) - 1)
        first, second = self.items[i]
        return first, second


def generate_persons(n_persons: int, seed: int = 0) -> list[Person]:
    """Persons with household, cousin and namesake structure (see module docstring)."""
    rng = random.Random(seed)
    lists = name_lists()
    male, female, family = _Draw(lists["male_first"], rng), _Draw(lists["female_first"], rng), _Draw(lists["family"], rng)
    govs = list(lists["governorates"])
    persons: list[Person] = []
    households: list[Person] = []
    while len(persons) < n_persons:
        gov = rng.choice(govs)
        city = tuple(rng.choice(lists["governorates"][gov]["cities"]))
        fam, father, grandfather = family(), male(), male()
        if households and rng.random() < 0.15:  # cousins: same grandfather and family
            base = rng.choice(households)
            fam, grandfather, gov, city = base.family, base.grandfather, base.governorate, base.city
            while father == base.father:
                father = male()
        mother, mother_family = female(), family()
        arrest = (rng.randint(2011, 2019), rng.randint(1, 12), rng.randint(1, 28))
        agency = rng.randrange(len(lists["agencies"]))
        n_children = rng.choices([1, 2, 3], [0.7, 0.22, 0.08])[0]
        used: set[tuple[str, str]] = {father}
        for _ in range(min(n_children, n_persons - len(persons))):
            sex = "M" if rng.random() < 0.9 else "F"
            first = male() if sex == "M" else female()
            while first in used:  # siblings have different first names
                first = male() if sex == "M" else female()
            used.add(first)
            person = Person(len(persons), sex, first, father, grandfather, fam, mother, mother_family,
                            rng.randint(1950, 2000), gov, city, arrest, agency)
            if persons and rng.random() < 0.08:  # namesake of an earlier person
                other = rng.choice(persons)
                person.first, person.family, person.sex = other.first, other.family, other.sex
                person.governorate, person.city = other.governorate, other.city
            persons.append(person)
            arrest = (arrest[0], min(12, arrest[1] + rng.randint(0, 2)), arrest[2])
        households.append(persons[-1])
    return persons


# --- noise -----------------------------------------------------------------

_AR_HAMZA = str.maketrans({"أ": "ا", "إ": "ا", "آ": "ا"})


def _typo(text: str, rng: random.Random) -> str:
    if len(text) < 4:
        return text
    i = rng.randrange(1, len(text) - 1)
    op = rng.random()
    if op < 0.4:
        return text[:i] + text[i + 1:]
    if op < 0.7:
        return text[:i] + text[i] + text[i:]
    return text[:i - 1] + text[i] + text[i - 1] + text[i + 1:]


def arabic_variant(name: str, rng: random.Random, *, family: bool = False) -> str:
    """One family's way of writing an Arabic name."""
    if rng.random() < 0.4:
        name = name.translate(_AR_HAMZA)
    if rng.random() < 0.3:
        name = name.replace("ة", "ه")
    if rng.random() < 0.3:
        name = name.replace("ى", "ي")
    if family and name.startswith("ال") and rng.random() < 0.2:
        name = name[2:]
    if (name.startswith("عبد") or name.startswith("أبو") or name.endswith("الدين")) and rng.random() < 0.5:
        name = name.replace(" ", "") if " " in name else name.replace("عبد", "عبد ", 1)
    if rng.random() < 0.04:
        name = _typo(name, rng)
    return name.strip()


_VOWEL_SWAPS = [("ou", "u"), ("u", "ou"), ("e", "a"), ("a", "e"), ("i", "ee"), ("o", "u"), ("ee", "i")]


@lru_cache(maxsize=10_000)
def _known_latin(arabic: str) -> tuple[str, ...]:
    tokens = name_tokens(arabic)
    if len(tokens) != 1 or not tokens[0].canonical:
        return ()
    forms = variant_index().variants.get(tokens[0].canonical, [])
    return tuple(f for f in forms if f.isascii() and f.isalpha() and len(f) > 2)


def latin_variant(pair: tuple[str, str], rng: random.Random, *, family: bool = False, first: bool = False) -> str:
    """One reporter's Latin spelling of a name given as (Arabic, Latin)."""
    arabic, latin = pair
    article = family and latin.lower().startswith("al-")
    base = latin[3:] if article else latin
    known = _known_latin(arabic[2:] if article and arabic.startswith("ال") else arabic)
    if known and rng.random() < 0.5:
        base = rng.choice(known).capitalize()
    if rng.random() < 0.2:
        a, b = rng.choice(_VOWEL_SWAPS)
        if a in base[1:]:
            base = base[0] + base[1:].replace(a, b, 1)
    if rng.random() < 0.1:
        i = rng.randrange(1, len(base))
        if base[i].isalpha() and base[i] not in "aeiou":
            base = base[:i] + base[i] + base[i:]
    if first and base.lower().startswith(("moham", "muham")) and rng.random() < 0.2:
        base = "Mhd"
    if article:
        style = rng.choice(["al-{}", "Al {}", "Al-{}", "Al{}", "El-{}", "{}", "al {}"])
        base = style.format(base.lower() if style == "Al{}" else base)
    if rng.random() < 0.04:
        base = _typo(base, rng)
    return base


def _arrest_date(person: Person, rng: random.Random) -> str:
    y, m, d = person.arrest
    if rng.random() < 0.3:
        m = min(12, max(1, m + rng.randint(-2, 2)))
    r = rng.random()
    if r < 0.4:
        return f"{y:04d}-{m:02d}-{d:02d}"
    return f"{y:04d}-{m:02d}" if r < 0.75 else f"{y:04d}"


def _report(person: Person, report_id: int, rng: random.Random) -> dict:
    lists = name_lists()
    script = rng.choices(["ar", "latin", "both"], [0.5, 0.25, 0.25])[0]
    with_gf = rng.random() < 0.3
    row: dict = {c: "" for c in TEMPLATE_COLUMNS}
    parts = [person.first, person.father] + ([person.grandfather] if with_gf else []) + [person.family]
    ar_parts = [arabic_variant(p[0], rng, family=(p is person.family)) for p in parts]
    la_parts = [latin_variant(p, rng, family=(p is person.family), first=(i == 0)) for i, p in enumerate(parts)]
    if rng.random() < 0.1:
        la_parts = [p.upper() for p in la_parts]
    if script in ("ar", "both"):
        row["full_name_ar"] = " ".join(ar_parts)
    if script in ("latin", "both"):
        latin = " ".join(la_parts)
        if rng.random() < 0.05:
            latin = la_parts[-1] + ", " + " ".join(la_parts[:-1])
        row["full_name_latin"] = latin
    if rng.random() < 0.7:
        src = ar_parts if script != "latin" else la_parts
        row["first_name"], row["father_name"], row["family_name"] = src[0], src[1], src[-1]
        if rng.random() < 0.7:
            if script != "latin":
                row["mother_name"] = arabic_variant(person.mother[0], rng) + " " + arabic_variant(person.mother_family[0], rng, family=True)
            else:
                row["mother_name"] = latin_variant(person.mother, rng) + " " + latin_variant(person.mother_family, rng, family=True)
    row["report_id"] = f"R{report_id:08d}"
    row["source"] = rng.choice(lists["sources"])
    row["sex"] = person.sex if rng.random() > 0.05 else ""
    r = rng.random()
    if r > 0.15:
        row["birth_year"] = str(person.birth_year + (rng.choice([-1, 1]) if r < 0.3 else rng.choice([-2, 2]) if r < 0.35 else 0))
    gov = lists["governorates"][person.governorate]
    row["governorate"] = gov["ar"] if script != "latin" else person.governorate
    if rng.random() > 0.2:
        row["city"] = person.city[0] if script != "latin" else person.city[1]
    row["birth_place"] = row["city"] if rng.random() < 0.5 else ""
    row["arrest_date"] = _arrest_date(person, rng)
    r = rng.random()
    if r > 0.3:
        agency = person.agency if r > 0.4 else rng.randrange(len(lists["agencies"]))
        row["arresting_agency"] = lists["agencies"][agency][0 if script != "latin" else 1]
    row["reporter_relation"] = rng.choice(lists["reporter_relations"])
    row["person_id"] = f"P{person.person_id:08d}"
    return row


def iter_reports(n_persons: int, seed: int = 0) -> Iterator[dict]:
    """Reports (dicts in the import template columns + ``person_id``), 1–4 per person."""
    rng = random.Random(seed + 1)
    report_id = 0
    for person in generate_persons(n_persons, seed):
        for _ in range(rng.choices([1, 2, 3, 4], [0.35, 0.3, 0.2, 0.15])[0]):
            yield _report(person, report_id, rng)
            report_id += 1


def generate_reports(n_reports: int, seed: int = 0) -> pd.DataFrame:
    """About ``n_reports`` reports (exactly that many; persons ≈ n_reports / 2.15)."""
    rows = []
    for row in iter_reports(int(n_reports / 2.1) + 10, seed):
        rows.append(row)
        if len(rows) >= n_reports:
            break
    return pd.DataFrame(rows, columns=TEMPLATE_COLUMNS + ["person_id"])


def write_template_csv(path: str | Path, n_reports: int, seed: int = 0) -> Path:
    """Write reports in the registry import template columns plus ``person_id``."""
    path = Path(path)
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=TEMPLATE_COLUMNS + ["person_id"])
        writer.writeheader()
        for i, row in enumerate(iter_reports(int(n_reports / 2.1) + 10, seed)):
            if i >= n_reports:
                break
            writer.writerow(row)
    return path


def template_to_linkage_input(df: pd.DataFrame) -> pd.DataFrame:
    """Map import-template columns to the linkage input columns (see docs/linkage.md)."""
    out = pd.DataFrame({"unique_id": df["report_id"]})
    full_ar = df["full_name_ar"].fillna("")
    full_la = df["full_name_latin"].fillna("")
    out["full_name"] = full_ar.where(full_ar != "", full_la)
    out["full_name_latin"] = full_la.where(full_ar != "", "")
    for col in ("first_name", "father_name", "family_name", "mother_name", "sex", "birth_year",
                "birth_place", "governorate", "city", "arrest_date", "arresting_agency"):
        out[col] = df[col]
    out["grandfather_name"] = ""
    return out
