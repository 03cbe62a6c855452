"""Arabic names and their Latin spellings in English, ALA-LC/UN and French/Maghrebi styles
share one cross-script key (the block key the linkage compares)."""

from __future__ import annotations

import pytest

from athar.matching.names import name_tokens, normalize_name


def _keys(name: str) -> list[str]:
    return [t.block_key for t in name_tokens(name)]


@pytest.mark.parametrize(("latin", "arabic"), [
    ("Djamel", "جمال"), ("Youcef", "يوسف"), ("Chérif", "شريف"), ("Hocine", "حسين"), ("Messaoud", "مسعود"),
    ("Mouloud", "مولود"), ("Slimane", "سليمان"), ("Saïd", "سعيد"), ("Oussama", "أسامة"), ("Ouassim", "وسيم"),
    ("Oualid", "وليد"), ("Abdelkader", "عبد القادر"), ("Abderrahmane", "عبد الرحمن"), ("Noureddine", "نور الدين"),
    ("Kheireddine", "خير الدين"), ("Bou Ali", "أبو علي"), ("Mohamed Ben Ali", "محمد بن علي"),
    ("Tariq Aziz", "طارق عزيز"), ("Ghassan", "غسان"), ("Abd al-Karim", "عبدالكريم"), ("Abdul Karim", "عبد الكريم"),
    ("Abdulkarim", "عبد الكريم"), ("L'houcine", "الحسين"), ("El'Arbi", "العربي"), ("Alifa", "أليفة"),
    ("Altaf", "ألطاف"), ("Hosny", "الحسني"), ("Muhammad ibn Yusuf", "محمد بن يوسف"), ("Khaled", "خالد"), ("Khalid", "خالد"),
    ("Amor", "عمر"),  # the Tunisian spelling, not Amr (عمرو)
])
def test_one_key_across_scripts_and_romanisations(latin: str, arabic: str) -> None:
    assert _keys(latin) == _keys(arabic)


@pytest.mark.parametrize(("one", "other"), [("Samer", "تامر"), ("Hilmi", "سالم"), ("Oussama", "وسام")])
def test_different_names_keep_different_keys(one: str, other: str) -> None:
    assert _keys(one) != _keys(other)


@pytest.mark.parametrize(("short", "other"), [("عامر", "عمر"), ("حامد", "حمد"), ("باسم", "بسام")])
def test_a_long_vowel_in_a_short_arabic_name_is_another_name(short: str, other: str) -> None:
    """عامر (Amer) is not عمر (Omar) with a typo: one person's reports were "two known names"."""
    a, b = name_tokens(short)[0], name_tokens(other)[0]
    assert a.canonical != b.canonical or a.canonical is None


@pytest.mark.parametrize(("typo", "name"), [("Yousf", "yusuf"), ("Mohamd", "muhammad"), ("Ahmd", "ahmad")])
def test_a_latin_vowel_left_out_is_still_a_typo(typo: str, name: str) -> None:
    assert name_tokens(typo)[0].canonical == name


@pytest.mark.parametrize(("latin", "arabic"), [
    ("Ousmane", "عثمان"), ("Othmane", "عثمان"), ("Imane", "إيمان"), ("Hanane", "حنان"),  # mute final e
    ("Lassaad", "الأسعد"), ("El-Lassaad", "الأسعد"),  # the article's l fused to the name
    ("Lhoussine", "الحسين"), ("Lhassan", "الحسن"),  # and before an h (twenty-fourth session)
])
def test_french_and_maghrebi_spellings_meet_the_arabic(latin: str, arabic: str) -> None:
    assert name_tokens(latin)[0].block_key == name_tokens(arabic)[0].block_key


@pytest.mark.parametrize("name", ["Latifa", "Layla", "Lamees", "Lubna", "Lhouari"])
def test_a_name_that_begins_with_l_keeps_it(name: str) -> None:
    token = name_tokens(name)[0]
    assert token.text == name.lower() and not token.article


def test_amor_is_umar_not_amr() -> None:
    """Amor is the usual Tunisian spelling of عمر; the one-typo lookup read it as Amr (عمرو)."""
    assert name_tokens("Amor")[0].canonical == name_tokens("عمر")[0].canonical == "umar"
    assert name_tokens("Amro")[0].canonical == name_tokens("عمرو")[0].canonical == "amr"


@pytest.mark.parametrize(("latin", "arabic"), [
    ("Khabib", "حبيب"), ("Khasan", "حسن"), ("Khuseyn", "حسين"), ("Akhmed", "أحمد"), ("Mukhammad", "محمد"),
])
def test_russian_kh_for_ha_meets_the_arabic(latin: str, arabic: str) -> None:
    """Russian and Turkic romanisation writes ح as kh; Khabib was read one typo away as Khatib."""
    assert _keys(latin) == _keys(arabic)
    assert name_tokens(latin)[0].canonical == name_tokens(arabic)[0].canonical


@pytest.mark.parametrize(("latin", "arabic"), [("Khalid", "خالد"), ("Khatib", "خطيب"), ("Khani", "خاني")])
def test_kh_that_writes_kha_stays_kha(latin: str, arabic: str) -> None:
    """Listed kh names keep their خ, and a short unknown one is not guessed (Khani is not Hani)."""
    assert _keys(latin) == _keys(arabic)
    assert name_tokens("Khani")[0].canonical is None


@pytest.mark.parametrize(("latin", "arabic"), [
    ("Nour Eddene", "نور الدين"), ("Nour Uddeen", "نور الدين"), ("Ala Eddyn", "علاء الدين"),
    ("Salah Eldene", "صلاح الدين"), ("Kheireddene", "خير الدين"),
])
def test_the_din_of_a_compound_typed_with_another_vowel_is_still_din(latin: str, arabic: str) -> None:
    """"Nour Eddene" was three names (nour / eddene / …): the father's name moved one place and a
    lawyer's file of the fresh Syrian set met its Arabic reports on nothing (fifteenth session)."""
    tokens = name_tokens(latin)
    assert len(tokens) == 1 and tokens[0].compound == "din"
    assert tokens[0].canonical == name_tokens(arabic)[0].canonical is not None


@pytest.mark.parametrize("name", ["Mohammad Aden", "Eden Hazard"])
def test_one_d_is_not_the_din_of_a_compound(name: str) -> None:
    assert all(t.compound != "din" for t in name_tokens(name)[:1]) and len(name_tokens(name)) == 2


@pytest.mark.parametrize(("latin", "arabic"), [
    ("Alahmed", "الأحمد"), ("ALAHMAD", "الأحمد"), ("Alomar", "العمر"), ("Aleissa", "العيسى"), ("Alali", "العلي"),
    ("Alibrahim", "الإبراهيم"), ("Alosman", "العثمان"),
])
def test_the_article_fused_to_a_name_that_begins_with_a_vowel(latin: str, arabic: str) -> None:
    """The commonest Latin spelling of العلي، الأحمد، العمر on Syrian lists fuses the article; before a
    vowel it was kept as part of the name ("HASAN MHD KHEIR ALAHMED": family 'alahmed', not Ahmad)."""
    token = name_tokens(latin)[0]
    assert token.article and token.canonical == name_tokens(arabic)[0].canonical
    assert _keys(latin) == _keys(arabic)


@pytest.mark.parametrize("name", ["Alaa", "Alia", "Aliaa", "Elias", "Alawi", "Alan", "Alyaa"])
def test_a_name_that_begins_with_al_and_a_vowel_keeps_it(name: str) -> None:
    assert not name_tokens(name)[0].article


@pytest.mark.parametrize(("latin", "arabic"), [
    # a Turkish identity card's spelling (3 million Syrians under temporary protection in Turkey)
    ("Halil", "خليل"), ("Halit", "خالد"), ("Cemal", "جمال"), ("Cemil", "جميل"), ("Celal", "جلال"),
    ("Hatice", "خديجة"), ("Fuat", "فؤاد"), ("Şerif", "شريف"),
    ("Hamit", "حامد"), ("Davut", "داود"), ("Hızır", "خضر"), ("Cuma", "جمعة"), ("Nurettin", "نور الدين"),
    ("Alaattin", "علاء الدين"), ("Bahattin", "بهاء الدين"), ("Vahit", "وحيد"),
    ("Hişam", "هشام"), ("Aişa", "عائشة"),  # ş is ش (it was read s)
    ("Hišām", "هشام"),  # the s with a caron of the DIN/ISO romanisations
    # a German document's (ch for خ, j for ي, dsch for ج)
    ("Chalid", "خالد"), ("Chalil", "خليل"), ("Achmad", "أحمد"), ("Jussuf", "يوسف"), ("Jasin", "ياسين"),
    ("Junis", "يونس"), ("Jahja", "يحيى"), ("Dschamal", "جمال"), ("Chadidscha", "خديجة"), ("Dschihad", "جهاد"),
])
def test_turkish_and_german_documents_spellings_meet_the_arabic(latin: str, arabic: str) -> None:
    assert name_tokens(latin)[0].canonical == name_tokens(arabic)[0].canonical is not None


def test_a_turkish_s_with_a_cedilla_is_shin_not_a_name_of_its_own() -> None:
    """ "Alşami" (الشامي) read "alsami" was the given name Sami; "Aişa" read "aisa" was Isa."""
    assert [t.canonical for t in name_tokens("Alşami")] == [t.canonical for t in name_tokens("الشامي")]
    assert name_tokens("Alşami")[0].canonical != name_tokens("Sami")[0].canonical


@pytest.mark.parametrize(("dotless", "dotted"), [("Hacı", "HACI"), ("Rıza", "RIZA"), ("Tarık", "TARIK"),
                                                 ("Sıddık", "SIDDIK")])
def test_a_turkish_dotless_i_is_an_i(dotless: str, dotted: str) -> None:
    """The same name in lower and upper case: "HACI" read i, "Hacı" dropped the letter."""
    assert _keys(dotless) == _keys(dotted)


@pytest.mark.parametrize(("written", "meant"), [
    ("األسود", "الأسود"), ("اإلبراهيم", "الإبراهيم"), ("االحمد", "الأحمد"),  # the لا ligature in visual order
    ("لاخطيب", "الخطيب"), ("لاحسن", "الحسن"),  # the article's letters swapped by a typist
])
def test_an_arabic_article_with_its_letters_swapped_is_the_article(written: str, meant: str) -> None:
    """Text copied out of a PDF writes الأسود as "األسود" (issue 28's independent set: "األسود نبيل
    محمود" never met "نبيل محمود الأسود"); a typist's swap writes "لاخطيب"."""
    token = name_tokens(written)[0]
    assert token.article and token.canonical == name_tokens(meant)[0].canonical is not None
    assert _keys(written) == _keys(meant)


@pytest.mark.parametrize("name", ["لافي", "لارا", "لامع"])
def test_a_name_that_begins_with_la_keeps_it(name: str) -> None:
    assert not name_tokens(name)[0].article and name_tokens(name)[0].core == name


@pytest.mark.parametrize(("chat", "arabic"), [
    ("Mo7ammad", "محمد"), ("5aled", "خالد"), ("6ariq", "طارق"), ("9asem", "قاسم"), ("3'assan", "غسان"),
    ("Sa3eed", "سعيد"), ("7amza", "حمزة"), ("Mus6afa", "مصطفى"),
])
def test_the_chat_alphabet_writes_arabic_letters_with_digits(chat: str, arabic: str) -> None:
    """Arabizi (7 ح, 5 خ, 3 ع, 6 ط, 9 ق, 3' غ) as Syrians type on phones: "Mo7ammad" read "Moammad"."""
    assert name_tokens(chat)[0].canonical == name_tokens(arabic)[0].canonical is not None


def test_a_year_or_a_code_is_no_chat_alphabet() -> None:
    assert [t.key for t in name_tokens("Ahmad 1985")] == [t.key for t in name_tokens("Ahmad")]
    assert normalize_name("B215") == "b215" and normalize_name("A7") == "a7"  # more digits than letters


def test_the_chat_alphabet_is_read_once() -> None:
    """fuzz_names found it: the last digit of a digit run before letters ("555reddin") was read as a
    letter, and again on the next normalisation. Whole words only, after punctuation is cut."""
    text = "Fath Allahu55\u00a4\u00a4\u00a4555555555555555555reddddin"
    once = normalize_name(text)
    assert normalize_name(once) == once and "allahukhkh" in once


@pytest.mark.parametrize(("typed", "words"), [
    ("محمدالخالد", ["محمد", "خالد"]),      # the space before the article lost
    ("محمودعيسى", ["محمود", "عيسي"]),
    ("محمدطه", ["محمد", "طه"]),
    ("يوسفالأحمد", ["يوسف", "احمد"]),
    ("أبوإبراهيم السباعي", ["ابو ابراهيم", "سباعي"]),  # a kunya typed as one word
    ("صهيبالسيد", ["صهيب", "سيد"]),  # a given name of given_names.yaml the variants table does not group
    # two names of four letters or more, one of them the variants table's (twenty-fourth session)
    ("محمدنايف الشيخ", ["محمد", "نايف", "شيخ"]),
    ("فاروقمحمد الحسين", ["فاروق", "محمد", "حسين"]),
    ("عبدالرحمنالخطيب", [t.text for t in name_tokens("عبدالرحمن الخطيب")]),  # a compound of عبد, then the family
])
def test_two_names_typed_without_the_space_between_them_are_two(typed: str, words: list[str]) -> None:
    """A list typed on a phone loses the space between names (field_lists.py's activist lists)."""
    assert [t.text for t in name_tokens(typed)] == words


@pytest.mark.parametrize("name", ["محمداوي", "نوراني", "حسنين", "حسناوي", "سعدالله", "المعضماني", "جمالات",
                                  "موسىمطر", "املحمد", "نورهان", "عبدالله", "عبدالرحمن", "عبدالكريم"])
def test_a_name_that_only_begins_with_a_name_stays_one(name: str) -> None:
    """Family names that begin with a given name and end in an ending (محمداوي, نوراني) or الله are one
    name; a rest the table does not know (مطر) is not guessed, nor a split into two names of the list
    of given names ("املحمد" is المحمد with two letters swapped, not أمل حمد; نورهان is one name)."""
    assert len(name_tokens(name)) == 1


@pytest.mark.parametrize("written", ["Dhu Al Himma", "Dhu Himma", "Dhuil Himma", "Dhu Al-Himma", "Thu Al Hima",
                                     "Zul Himma"])
def test_dhu_and_its_name_have_one_key_however_written(written: str) -> None:
    """ذو is always followed by the article; Latin lists write its ذ as dh, th or z, fuse the article
    to it or drop it (OFAC's aliases of one man: "SHALISH, Dhu Al Himma", "SHALEESH, Dhu Himma",
    "SHALISH, Dhuil Himma", "SHALEESH, Thu Al Hima")."""
    tokens = name_tokens(written)
    assert len(tokens) == 1 and tokens[0].key == name_tokens("Dhu al-Himma")[0].key


@pytest.mark.parametrize(("written", "kunya"), [("أبو عبد الله البرزاوي", "ابو عبد الله"),
                                               ("ابو عبد الرحمن قاسم", "ابو عبد الرحمن"),
                                               ("Abu Abd al-Rahman Qasem", "abu abd al-rahman")])
def test_a_kunya_of_a_compound_of_abd_is_one_name(written: str, kunya: str) -> None:
    """أبو عبد الله was read as "أبو عبد" and a father's name "الله" (field_lists: two witnesses'
    "أبو عبد الله" of two towns were one man by given and father's names)."""
    assert name_tokens(written)[0].text == kunya and len(name_tokens(written)) == 2
