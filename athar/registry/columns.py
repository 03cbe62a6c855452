"""The columns athar reads: its own template (English or Arabic headers) and the CSV format of the
Syrian Detainee Finder registry. Values are mapped to Report fields by ``rows.py``."""

from __future__ import annotations

import re

from athar.matching.names.normalize import normalize_arabic

# field, English header, Arabic header, help (English), help (Arabic)
TEMPLATE: tuple[tuple[str, str, str, str], ...] = (
    ("report_id", "رقم البلاغ", "your own id for this report (re-importing it updates it)", "رقم البلاغ لديكم"),
    ("source", "المصدر", "who collected the report", "الجهة التي جمعت البلاغ"),
    ("full_name_ar", "الاسم الكامل بالعربية", "full name in Arabic letters", "الاسم الكامل بالأحرف العربية"),
    ("full_name_latin", "الاسم الكامل بالإنكليزية", "full name in Latin letters", "الاسم الكامل بالأحرف اللاتينية"),
    ("first_name", "الاسم الأول", "first name", "الاسم الأول"),
    ("father_name", "اسم الأب", "father's name", "اسم الأب"),
    ("grandfather_name", "اسم الجد", "grandfather's name", "اسم الجد"),
    ("family_name", "الكنية", "family name", "الكنية أو اسم العائلة"),
    ("mother_name", "اسم الأم", "mother's name and family", "اسم الأم وكنيتها"),
    ("sex", "الجنس", "M / F (ذكر / أنثى)", "ذكر / أنثى"),
    ("birth_year", "سنة الولادة", "birth year, or full birth date", "سنة الولادة أو تاريخها"),
    ("birth_place", "مكان الولادة", "birth place", "مكان الولادة"),
    ("governorate", "المحافظة", "home governorate", "محافظة السكن"),
    ("city", "المدينة", "home city or town", "المدينة أو البلدة"),
    ("neighbourhood", "الحي", "home neighbourhood", "الحي"),
    ("arrest_date", "تاريخ الاعتقال", "YYYY-MM-DD, YYYY-MM or YYYY", "سنة-شهر-يوم أو سنة-شهر أو سنة"),
    ("arrest_place", "مكان الاعتقال", "where he or she was arrested", "مكان الاعتقال"),
    ("arresting_agency", "الجهة المعتقلة", "agency or branch (e.g. 215)", "الجهة أو الفرع (مثل 215)"),
    ("detainee_number", "رقم المعتقل", "the detainee's number, if the family knows it", "رقم المعتقل إن كان معروفًا"),
    ("distinguishing_marks", "العلامات المميزة", "tattoos, scars, ... with body side", "وشوم، ندبات… مع جهة الجسم"),
    ("reported_status", "الحالة", "as you believe: detained, missing, released, dead", "معتقل، مفقود، مفرج عنه، متوفى"),
    ("reporter_relation", "صلة المبلّغ", "your relation to the person", "صلتك بالشخص"),
    ("reporter_contact", "وسيلة التواصل", "how to reach you (kept encrypted)", "وسيلة التواصل معك (تحفظ مشفرة)"),
    ("photos", "الصور", "photo files next to this file, separated by ;", "ملفات الصور بجانب هذا الملف، مفصولة بـ ;"),
    ("notes", "ملاحظات", "anything else", "أي معلومات أخرى"),
    ("publication_consent", "الموافقة على النشر", "the family agrees to publication once told: yes / no",
     "توافق العائلة على النشر بعد إبلاغها: نعم / لا"),
)

TEMPLATE_FIELDS = tuple(row[0] for row in TEMPLATE)
NAME_FIELDS = ("full_name_ar", "full_name_latin", "first_name", "family_name", "full_name")

# Other headers people write for the same fields. "full_name" is a name of either script: each
# value goes to the Arabic or the Latin field by its letters (rows.split_full_name).
ALIASES: dict[str, tuple[str, ...]] = {
    "report_id": ("id", "رقم", "الرقم", "رقم الاستمارة"),
    "full_name": ("full_name", "fullname", "name", "الاسم والشهرة", "الاسم الكامل للمعتقل", "اسم المعتقل",
                  "اسم المفقود", "اسم الشخص", "detainee_name", "person_name", "missing_person", "victim_name"),
    "full_name_ar": ("الاسم", "الاسم الكامل", "الاسم الثلاثي", "الاسم الرباعي", "name_ar", "arabic_name",
                     "full_name_arabic", "name_arabic"),
    "full_name_latin": ("name_latin", "latin_name", "english_name", "full_name_en", "full_name_english", "name_en",
                        "name_english", "الاسم باللاتينية", "الاسم بالانكليزية", "الاسم بالإنجليزية"),
    "first_name": ("الاسم الاول", "given_name", "first", "firstname", "forename", "الاسم الشخصي"),
    "father_name": ("اسم الاب", "father", "fathers_name", "father's name", "اسم الوالد"),
    "grandfather_name": ("grandfather", "grandfathers_name", "grandfather's name"),
    "family_name": ("اسم العائلة", "العائلة", "اللقب", "الشهرة", "النسبة", "surname", "last_name", "lastname"),
    "mother_name": ("اسم الام", "mother", "mothers_name", "mother's name", "اسم الام وشهرتها", "اسم الوالدة"),
    "sex": ("gender", "الجنس", "نوع الجنس"),
    "birth_year": ("year_of_birth", "birth_date", "date_of_birth", "dob", "born", "تاريخ الولادة", "سنة الميلاد",
                   "تاريخ الميلاد", "المواليد", "مواليد", "التولد", "تولد"),
    "birth_place": ("place_of_birth", "مكان الميلاد", "محل الولادة"),
    "governorate": ("province", "محافظة"),
    "city": ("town", "village", "hometown", "home_town", "residence", "place_of_residence", "البلدة", "القرية",
             "مدينة", "مكان السكن", "مكان الاقامة"),
    "neighbourhood": ("neighborhood", "district_of_city"),
    "arrest_date": ("date_of_arrest", "detention_date", "date_of_detention", "date_detained",
                    "disappearance_date", "date_of_disappearance", "missing_since", "تاريخ الاختفاء",
                    "تاريخ الاعتقال أو الاختفاء", "تاريخ الفقدان", "تاريخ الاختطاف", "تاريخ الاحتجاز"),
    "arrest_place": ("place_of_arrest", "arrest_location", "location_of_arrest", "مكان الاختفاء", "مكان الاختطاف"),
    "arresting_agency": ("branch", "agency", "الفرع", "الجهة الأمنية", "arrested_by", "security_branch",
                         "perpetrator", "جهة الاعتقال", "الفرع الأمني", "الجهة الخاطفة"),
    "distinguishing_marks": ("marks", "العلامات الفارقة"),
    "detainee_number": ("detainee_no", "prisoner_number", "رقم المعتقل في الفرع", "رقم السجين"),
    "reported_status": ("status",),
    "reporter_relation": ("relation", "صلة القرابة", "صلة المبلغ"),
    "reporter_contact": ("contact", "contact_info", "phone", "رقم الهاتف", "الهاتف"),
    "notes": ("ملاحظات إضافية",),
    "publication_consent": ("consent", "consent_to_publication", "publication", "موافقة النشر", "الموافقة",
                            "موافقة على النشر"),
}

# The Syrian Detainee Finder registry's CSV (values in Arabic or English).
SDF_COLUMNS = ("full_name", "date_of_detention", "last_seen_location", "detention_facility",
               "physical_description", "age_at_detention", "gender", "status", "contact_info",
               "additional_notes", "organization")
SDF_MAP = {
    "date_of_detention": "arrest_date", "last_seen_location": "arrest_place",
    "detention_facility": "arresting_agency", "physical_description": "distinguishing_marks",
    "gender": "sex", "status": "reported_status", "contact_info": "reporter_contact",
    "additional_notes": "notes", "organization": "source",
}
SDF_LABELS = {"الاسم الكامل", "تاريخ الاعتقال", "اخر مكان شوهد فيه", "مكان الاحتجاز", "الوصف الجسدي",
              "العمر عند الاعتقال", "الجنس", "الحالة", "معلومات الاتصال", "ملاحظات اضافية", "المنظمة",
              "full name", "date of detention", "last seen location", "detention facility",
              "physical description", "age at detention", "gender", "status", "contact info",
              "additional notes", "organization"}


def header_key(text: str) -> str:
    """A header compared loosely: Arabic normalised, lower case, spaces and dashes as ``_``."""
    value = normalize_arabic(text or "").strip().lower()
    return re.sub(r"[\s\-]+", "_", value)


def _header_index() -> dict[str, str]:
    index: dict[str, str] = {}
    for field, arabic, _help_en, _help_ar in TEMPLATE:
        index[header_key(field)] = field
        index[header_key(arabic)] = field
    for field, names in ALIASES.items():
        for name in names:
            index.setdefault(header_key(name), field)
    return index


HEADER_INDEX = _header_index()


def is_sdf_header(header: list[str]) -> bool:
    """True when the header is the Syrian Detainee Finder format (full_name + its own columns)."""
    keys = {header_key(h) for h in header}
    return "full_name" in keys and len(keys & set(SDF_COLUMNS)) >= 3


def map_header(header: list[str], sdf: bool) -> dict[str, str]:
    """File column → Report field (template or SDF); unknown columns are left out."""
    mapping: dict[str, str] = {}
    for column in header:
        key = header_key(column)
        if sdf and key in SDF_COLUMNS:
            mapping[column] = SDF_MAP.get(key, key)
        elif key in HEADER_INDEX:
            mapping[column] = HEADER_INDEX[key]
    return mapping


def is_descriptive_row(values: list[str]) -> bool:
    """A second header row of labels (the Syrian Detainee Finder templates carry one)."""
    cells = [header_key(v).replace("_", " ") for v in values if v.strip()]
    if not cells:
        return False
    labels = {header_key(x).replace("_", " ") for x in SDF_LABELS} | {
        header_key(a).replace("_", " ") for _f, a, _h, _ha in TEMPLATE}
    return sum(cell in labels for cell in cells) * 2 >= len(cells)
