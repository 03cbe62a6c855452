"""Names as real lists write them: every rule of data/written_forms.yaml on real-looking strings."""

from __future__ import annotations

import pytest

from athar.matching.names import name_tokens, parse_full_name
from athar.matching.names.written import read_written_name, written_extras


@pytest.mark.parametrize(("written", "name", "titles"), [
    ("الطالب محمد أحمد الخطيب", "محمد أحمد الخطيب", ("الطالب",)),
    ("المعتقلة فاطمة علي السالم", "فاطمة علي السالم", ("المعتقلة",)),
    ("الحاج عبد الرحمن الحلبي", "عبد الرحمن الحلبي", ("الحاج",)),
    ("الشيخ أحمد الصياصنة", "أحمد الصياصنة", ("الشيخ",)),
    ("الدكتور عدنان وهبة", "عدنان وهبة", ("الدكتور",)),
    ("د. عبد العزيز الخير", "عبد العزيز الخير", ("د.",)),
    ("Dr. Ahmad Ali Hassan", "Ahmad Ali Hassan", ("Dr.",)),
    ("Mr. Khalil Maatouk", "Khalil Maatouk", ("Mr.",)),
    ("Eng. Samer Khaled al-Homsi", "Samer Khaled al-Homsi", ("Eng.",)),
    ("el hadj Mohamed Salah Benali", "Mohamed Salah Benali", ("el hadj",)),
    # twenty-fourth session: a staff officer's rank, the political detainee (read as a family name first)
    ("العقيد الركن خالد عمر", "خالد عمر", ("العقيد الركن",)),
    ("المعتقل السياسي محمد علي حسن", "محمد علي حسن", ("المعتقل السياسي",)),
])
def test_titles_and_descriptors_are_set_apart(written: str, name: str, titles: tuple[str, ...]) -> None:
    read = read_written_name(written)
    assert (read.name, read.titles) == (name, titles)


@pytest.mark.parametrize(("written", "name", "titles"), [
    ("Dr.Ahmad Ali Hassan", "Ahmad Ali Hassan", ("Dr.",)),
    ("Eng.Samer Khaled al-Homsi", "Samer Khaled al-Homsi", ("Eng.",)),
    ("د.عبد العزيز الخير", "عبد العزيز الخير", ("د.",)),
    ("م.أحمد علي حسن", "أحمد علي حسن", ("م.",)),
    ("الدكتورأحمد علي حسن", "أحمد علي حسن", ("الدكتور",)),
    ("المهندسمحمد خالد العلي", "محمد خالد العلي", ("المهندس",)),
    ("المهندسةسارة علي حسن", "سارة علي حسن", ("المهندسة",)),
    ("الطالب د.أحمد علي حسن", "أحمد علي حسن", ("الطالب", "د.")),
])
def test_a_title_glued_to_the_name_is_set_apart(written: str, name: str, titles: tuple[str, ...]) -> None:
    """Issue 28: "a title or a profession glued to the name" was read as the given name."""
    read = read_written_name(written)
    assert (read.name, read.titles) == (name, titles)


@pytest.mark.parametrize("written", ["المحاميد أحمد علي", "أحمد علي المحاميد", "Mhd.Ali Hasan", "A.Ali Hasan",
                                     "المهندسي أحمد علي"])
def test_a_word_that_only_begins_as_a_title_stays_whole(written: str) -> None:
    assert not read_written_name(written).titles


@pytest.mark.parametrize("written", ["محمد الشيخ", "Ahmad al-Sheikh", "Mohammad Dr"])
def test_a_title_word_at_the_end_is_a_family_name(written: str) -> None:
    assert read_written_name(written).name == written


def test_a_kunya_in_brackets() -> None:
    read = read_written_name("محمد أحمد الحسن (أبو محمد)")
    assert (read.name, read.kunya, read.notes) == ("محمد أحمد الحسن", ("أبو محمد",), ())
    read = read_written_name("Omar Kamal (Abu Khaled)")
    assert (read.name, read.kunya) == ("Omar Kamal", ("Abu Khaled",))


def test_other_bracketed_text_is_a_note() -> None:
    read = read_written_name("Ahmad Kamal (lawyer)")
    assert (read.name, read.notes) == ("Ahmad Kamal", ("lawyer",))
    assert read_written_name("سامر خليل [من داريا]").notes == ("من داريا",)


def test_a_descriptor_after_a_comma_is_a_note() -> None:
    read = read_written_name("Ahmad Ali Hassan, lawyer")
    assert (read.name, read.notes, read.family_first) == ("Ahmad Ali Hassan", ("lawyer",), False)


def test_a_nickname_after_a_marker() -> None:
    read = read_written_name("محمد علي الملقب بأبو سمرة")
    assert (read.name, read.nickname) == ("محمد علي", "أبو سمرة")
    assert read_written_name("Ahmad Jarrah aka Abu Jaber").nickname == "Abu Jaber"


@pytest.mark.parametrize(("written", "name", "place"), [
    ("محمد المحمود - خناصر", "محمد المحمود", "خناصر"),
    ("أحمد خالد العبدالله – دير الزور", "أحمد خالد العبدالله", "دير الزور"),
    ("Yasser Ali / Daraa", "Yasser Ali", "Daraa"),
    ("خالد محمد الحسين من داريا", "خالد محمد الحسين", "داريا"),
    # a witness's "Muhammad from Darayya": one name, and a place of one to three words (field_lists.py)
    ("محمد من داريا", "محمد", "داريا"),
    ("أحمد علي من دير الزور", "أحمد علي", "دير الزور"),
    ("Mohammad from Darayya", "Mohammad", "Darayya"),
    ("أبو خالد من بابا عمرو", "أبو خالد", "بابا عمرو"),
])
def test_a_place_glued_after_the_name(written: str, name: str, place: str) -> None:
    read = read_written_name(written)
    assert (read.name, read.place) == (name, place)


def test_from_without_a_place_after_it_or_a_birth_year_after_it_is_no_place() -> None:
    assert read_written_name("محمد من").place == ""
    read = read_written_name("محمد علي الحسن من مواليد 1985")
    assert (read.name, read.place, read.notes) == ("محمد علي الحسن", "", ("من مواليد 1985",))


def test_a_hyphen_inside_a_name_is_not_a_place() -> None:
    assert read_written_name("Ahmad al-Salem").place == ""
    assert read_written_name("Abdel-Rahman Kassem").name == "Abdel-Rahman Kassem"


@pytest.mark.parametrize(("written", "name"), [
    ("AL-SALIH Muhammad Yusuf", "Muhammad Yusuf AL-SALIH"),
    ("al-Miqdad, Ahmad Mahmud", "Ahmad Mahmud al-Miqdad"),
    ("SHALISH, Zuhayr", "Zuhayr SHALISH"),
    ("MAKHLUF Rami", "Rami MAKHLUF"),
    ("الخطيب، محمد أحمد", "محمد أحمد الخطيب"),
    ("السالم محمد أحمد", "محمد أحمد السالم"),
    ("فاعوري مصطفى حسين", "مصطفى حسين فاعوري"),
    ("الأسعد معاذ", "معاذ الأسعد"),
    # the family name, then "son of" and the father's line, before the comma (OFAC's aliases)
    ("TOUMEH BIN MOHAMMED, Nabil", "Nabil BIN MOHAMMED TOUMEH"),
    ("QATIRJI BIN AHMED RUSHDI, Hussam", "Hussam BIN AHMED RUSHDI QATIRJI"),
    ("طعمة بن محمد، نبيل", "نبيل بن محمد طعمة"),
    ("BIN ALI, Khodr Taher", "Khodr Taher BIN ALI"),  # a marker that opens the part: the family name
])
def test_family_name_first(written: str, name: str) -> None:
    read = read_written_name(written)
    assert read.name == name and read.family_first


@pytest.mark.parametrize("written", ["ALI HASSAN", "Muhammad Yusuf al-Salih", "محمد أحمد السالم", "الياس خوري جبران",
                                     "شادي محمد علي", "Ali Hassan", "حجي النجار", "محمد الأسعد"])
def test_given_names_first_stay_as_written(written: str) -> None:
    read = read_written_name(written)
    assert read.name == written and not read.family_first


@pytest.mark.parametrize("written", ["عبدالهادي محمود إبراهيم", "عبدالعلي محمد حسن", "عبدالباقي احمد خليل"])
def test_a_glued_compound_of_abd_is_a_given_name_not_a_nisba(written: str) -> None:
    """عبد and the article glued (عبدالهادي) open a theophoric given name; read as an unknown nisba
    written first, "عبدالهادي محمود إبراهيم" became Mahmoud son of Ibrahim of the family Abd al-Hadi
    and met no other report of him (issue 28, field lists)."""
    read = read_written_name(written)
    assert read.name == written and not read.family_first


@pytest.mark.parametrize(("written", "first"), [
    ("Mhd Ali Hassan", "muhammad"), ("Moh'd Khair Suleiman", "muhammad"), ("M. Ali Hassan", "muhammad"),
    ("Mohd. Nour Kassem", "muhammad"),
])
def test_abbreviations_of_muhammad(written: str, first: str) -> None:
    assert read_written_name(written).name.split()[0] == first


def test_the_parsed_parts_of_a_written_name() -> None:
    parts = parse_full_name(read_written_name("المعتقل AL-HASAN Khaled Omar (Abu Omar)").name)
    assert parts.as_text() == {"first": "khaled", "father": "omar", "grandfather": None, "family": "al-hasan"}


@pytest.mark.parametrize(("one", "other"), [
    ("عبدالكريم", "عبد الكريم"), ("Abdulkarim", "Abd al-Karim"), ("Abdelkarim", "Abd el Karim"),
    ("نورالدين", "نور الدين"), ("Nureddin", "Nour al-Din"),
])
def test_joined_and_split_compounds_are_one_name(one: str, other: str) -> None:
    assert [t.block_key for t in name_tokens(one)] == [t.block_key for t in name_tokens(other)]


@pytest.mark.parametrize(("one", "other"), [("کریم", "كريم"), ("علی", "علي"), ("فاطمة", "فاطمه"), ("مصطفى", "مصطفي")])
def test_persian_letters_and_final_forms_fold(one: str, other: str) -> None:
    assert name_tokens(one)[0].key == name_tokens(other)[0].key


@pytest.mark.parametrize(("arabic", "latin"), [
    ("حجي عبيدة الصالح", "Haji Obeida Salih"), ("حجي جاسر عمر", "Hajji Jasir Omar")])
def test_haji_is_a_given_name_in_both_scripts(arabic: str, latin: str) -> None:
    """حجي is a given name; its Latin spelling was read as a title, which split the person."""
    assert read_written_name(arabic).titles == read_written_name(latin).titles == ()
    assert len(name_tokens(read_written_name(latin).name)) == 3


@pytest.mark.parametrize(("written", "name"), [
    ("Haj Ahmad Ali Hasan", "Ahmad Ali Hasan"), ("Al-Hajj Ahmad Ali Hasan", "Ahmad Ali Hasan"),
    ("al Haj Mohamed Ali", "Mohamed Ali")])
def test_haj_and_hajj_write_the_title(written: str, name: str) -> None:
    assert read_written_name(written).name == name


@pytest.mark.parametrize(("written", "texts"), [
    ("جمعة أبي الحسين", ["جمعه", "ابي", "حسين"]), ("Jumaa Abi L'houcine", ["jumaa", "abi", "houcine"]),
    ("أبي حسين عمر", ["ابي", "حسين", "عمر"]), ("Georges Abi Nader", ["georges", "abi", "nader"]),
    ("علي بن أبي طالب", ["علي", "ابي طالب"]), ("Ali ibn Abi Talib", ["ali", "abi talib"]),
    ("أبو بكر الصديق", ["ابو بكر", "صديق"]),
])
def test_the_genitive_abi_joins_a_name_only_after_bin(written: str, texts: list[str]) -> None:
    """أبي alone is a name (أُبي, or the first word of a family name written apart, أبي نادر);
    joined to the next word it turned a three-name report into two names."""
    assert [t.text for t in name_tokens(written)] == texts


@pytest.mark.parametrize(("written", "name", "kunya"), [
    ("محمد أحمد الحلبي - أبو خالد", "محمد أحمد الحلبي", ("أبو خالد",)),
    ("محمود حسن درويش - أبو عمر", "محمود حسن درويش", ("أبو عمر",)),
    ("فاطمة علي السالم - أم خالد", "فاطمة علي السالم", ("أم خالد",)),
    ("Ahmad Ali Hasan / Abu Omar", "Ahmad Ali Hasan", ("Abu Omar",)),
    # the dash glued to the kunya, and a kunya after a family name with its article (seventh session)
    ("محمد أحمد الحلبي-أبو خالد", "محمد أحمد الحلبي", ("أبو خالد",)),
    ("Ahmad Ali al-Halabi-Abu Omar", "Ahmad Ali al-Halabi", ("Abu Omar",)),
    ("محمد أحمد الحلبي أبو خالد", "محمد أحمد الحلبي", ("أبو خالد",)),
    ("Mohamed Ahmed al-Halabi Abu Khaled", "Mohamed Ahmed al-Halabi", ("Abu Khaled",)),
    # twenty-fourth session: two words of name before it, and a slash typed against it
    ("محمد الخطيب ابو خالد", "محمد الخطيب", ("ابو خالد",)),
    ("محمد أحمد الخطيب/أبو خالد", "محمد أحمد الخطيب", ("أبو خالد",)),
])
def test_a_kunya_after_a_dash_is_a_kunya_not_a_place(written: str, name: str, kunya: tuple[str, ...]) -> None:
    read = read_written_name(written)
    assert (read.name, read.kunya, read.place) == (name, kunya, "")


@pytest.mark.parametrize("written", ["محمد أحمد علي أبو زيد", "محمد أحمد أبو زيد", "Ali Ahmad Abu-Zeid Hasan",
                                     "أبو زيد محمد أحمد",  # a family name أبو زيد written first
                                     "عبد الرزاق ابو حسين",  # the article of a compound's name
                                     "أبو بكر أحمد محمد الفاعوري"])  # a given name that begins as a kunya
def test_abu_x_after_a_name_without_article_stays_the_family_name(written: str) -> None:
    assert read_written_name(written).kunya == ()


@pytest.mark.parametrize(("written", "name", "titles"), [
    ("الشهيد البطل محمد أحمد الحلبي", "محمد أحمد الحلبي", ("الشهيد البطل",)),
    ("المرحوم محمد أحمد الحلبي", "محمد أحمد الحلبي", ("المرحوم",)),
    ("المغدورة سارة علي الحسن", "سارة علي الحسن", ("المغدورة",)),
    ("البطل محمد أحمد", "محمد أحمد البطل", ()),  # Al-Batal alone is a family name, written first
])
def test_how_lists_of_the_dead_name_them(written: str, name: str, titles: tuple[str, ...]) -> None:
    read = read_written_name(written)
    assert (read.name, read.titles) == (name, titles)


def test_a_place_after_a_dash_is_still_a_place() -> None:
    read = read_written_name("محمد المحمود - خناصر")
    assert (read.name, read.kunya, read.place) == ("محمد المحمود", (), "خناصر")


@pytest.mark.parametrize(("written", "name"), [
    ("الحلبي مصطفى عبد الكريم", "مصطفى عبد الكريم الحلبي"),
    ("الزعبي فادي عبد الرحمن", "فادي عبد الرحمن الزعبي"),
])
def test_a_family_name_first_before_a_compound_given_name(written: str, name: str) -> None:
    read = read_written_name(written)
    assert (read.name, read.family_first) == (name, True)


@pytest.mark.parametrize(("latin", "arabic"), [("DJAMEL", "جمال"), ("Jamel", "جمال"), ("LAAGOUB", "يعقوب"),
                                               ("Yaacoub", "يعقوب"), ("Oualid", "وليد"), ("Kacem", "قاسم"),
                                               ("Youcef", "يوسف"), ("Mostefa", "مصطفى"), ("Hamdy", "حمدي")])
def test_maghrebi_and_french_spellings_are_the_arabic_name(latin: str, arabic: str) -> None:
    assert name_tokens(latin)[0].canonical == name_tokens(arabic)[0].canonical is not None


@pytest.mark.parametrize(("persian", "arabic"), [("کریم", "كريم"), ("علی", "علي"), ("زینب", "زينب"),
                                                 ("کوچر", "كوجر"), ("پاشا", "باشا"), ("ژیان", "زيان")])
def test_persian_letters_are_read_as_arabic_ones(persian: str, arabic: str) -> None:
    assert name_tokens(persian)[0].text == name_tokens(arabic)[0].text


@pytest.mark.parametrize(("latin", "arabic"), [("Belal", "بلال"), ("Bilal", "بلال"), ("Heba", "هبة"),
                                               ("Hossam", "حسام"), ("Abeer", "عبير"), ("Shereen", "شيرين")])
def test_common_syrian_given_names_are_in_the_table(latin: str, arabic: str) -> None:
    assert name_tokens(latin)[0].canonical == name_tokens(arabic)[0].canonical is not None


# Issue 28, eighth session: forms an independent set (benchmarks/linkage/independent_syrian.py) wrote
# and athar misread.
@pytest.mark.parametrize(("written", "name", "kunya"), [
    ("أبو إبراهيم - عبد الغني حسن الكردي", "عبد الغني حسن الكردي", ("أبو إبراهيم",)),
    ("Abu Mohammad - Hassan Mohamed Ayoubi", "Hassan Mohamed Ayoubi", ("Abu Mohammad",)),
    ("أم خالد - فاطمة علي السالم", "فاطمة علي السالم", ("أم خالد",)),
    # twenty-fourth session: no dash, three words of name after it, the last with its article
    ("أبو خالد محمد أحمد الخطيب", "محمد أحمد الخطيب", ("أبو خالد",)),
])
def test_a_kunya_before_a_dash_is_a_kunya(written: str, name: str, kunya: tuple[str, ...]) -> None:
    read = read_written_name(written)
    assert (read.name, read.kunya, read.place) == (name, kunya, "")


@pytest.mark.parametrize(("written", "name", "titles"), [
    ("me el nabulsi esmail", "esmail el nabulsi", ("me",)),  # Maître, a lawyer (French lists)
    ("Me ALRIFAII Mansur", "Mansur ALRIFAII", ("Me",)),
    ("الطالب الجامعي عبد الله خضر السمان", "عبد الله خضر السمان", ("الطالب الجامعي",)),
    ("الطالبة الجامعية سارة علي", "سارة علي", ("الطالبة الجامعية",)),
    # (twelfth session) a title of two words before one word of name, as a given-name column holds it
    ("الطالب الجامعي محمود", "محمود", ("الطالب الجامعي",)),
    ("الطالبة الجامعية سارة", "سارة", ("الطالبة الجامعية",)),
])
def test_more_titles_and_a_family_name_first_with_its_article_apart(written: str, name: str,
                                                                    titles: tuple[str, ...]) -> None:
    read = read_written_name(written)
    assert (read.name, read.titles) == (name, titles)


def test_a_name_field_without_its_brackets() -> None:
    from athar.matching.names.written import without_brackets

    assert without_brackets("الكحال (أبو عبد الرحمن)") == "الكحال"
    assert without_brackets("عبيد [أبو إسماعيل]") == "عبيد"
    assert without_brackets("الأحمد") == "الأحمد"


def test_abd_alone_before_a_given_name_is_a_fathers_name_cut_short() -> None:
    # "فادي عبد فادي الأحمد": Fadi son of Abd… (cut), grandson of Fadi; not a compound "Abd Fadi"
    assert [t.text for t in name_tokens("فادي عبد فادي الاحمد")] == ["فادي", "عبد", "فادي", "احمد"]
    assert [t.text for t in name_tokens("أحمد عبد محمد الفرحان")] == ["احمد", "عبد", "محمد", "فرحان"]
    assert [t.text for t in name_tokens("علي عبد ربه حسن")] == ["علي", "عبد ربه", "حسن"]
    assert [t.text for t in name_tokens("محمد عبد الله الحلبي")] == ["محمد", "عبد الله", "حلبي"]
    # (thirteenth session) a person's name without its article is a given name, the grandfather's:
    # "حسن عبد حسن أبازيد" is Hasan son of Abd…, grandson of Hasan; with the article it is the compound
    # (عبد الحسين), and a name of God without its article still is one (عبد كريم: Abd al-Karim)
    assert [t.text for t in name_tokens("حسن عبد حسن أبازيد")] == ["حسن", "عبد", "حسن", "ابازيد"]
    assert [t.text for t in name_tokens("مهدي عبد مهدي اللحام")] == ["مهدي", "عبد", "مهدي", "لحام"]
    assert [t.text for t in name_tokens("علي عبد الحسين الموسوي")] == ["علي", "عبد الحسين", "موسوي"]
    assert [t.text for t in name_tokens("علي عبد كريم الحسن")] == ["علي", "عبد كريم", "حسن"]


@pytest.mark.parametrize(("written", "texts"), [
    # Latin: "Abdel" before a last word that is no name of God is a father's name cut short
    ("Ahmed Abdel Barakat", ["ahmed", "abdel", "barakat"]),
    ("Samir Abdel Halabi", ["samir", "abdel", "halabi"]),
    # and a compound with a name of God stays one name, with or without its article
    ("Ahmed Abdel Aziz", ["ahmed", "abdel aziz"]),
    ("Ahmed Abd al-Rahman", ["ahmed", "abd al-rahman"]),
    ("Mohammad Abdel Kader", ["mohammad", "abdel kader"]),
    ("Hassan Abd El Nour", ["hassan", "abd el nour"]),
])
def test_latin_abd_before_the_family_name(written: str, texts: list[str]) -> None:
    assert [t.text for t in name_tokens(written)] == texts


@pytest.mark.parametrize("written", [
    "الطالب محمد أحمد الحلبي", "Dr. Ahmad Ali Hasan", "الدكتورأحمد علي", "محمد أحمد - أبو خالد", "أبو إبراهيم - عبد الغني حسن الكردي",
    "محمد أحمد الحلبي-أبو خالد", "محمد أحمد الحلبي أبو خالد", "الكحال (أبو عبد الرحمن)", "Ahmad Ali (lawyer)",
    "Ahmad Ali, lawyer", "al-Miqdad, Ahmad Mahmud", "محمد المحمود - خناصر", "علي حسن من حلب", "محمد الملقب بالأسمر",
    "AL-SALIH Muhammad Yusuf", "Mhd Ali Hasan", "السالم محمد احمد", "", "  ", "محمد, ", "ALI HASSAN",
])
def test_what_the_import_reads_is_what_the_full_reading_sets_apart(written: str) -> None:
    """The import reads only what a name carries besides the names (written_extras): the same titles,
    kunya, nickname, notes and place as the full reading, whatever the order of the names."""
    full, extras = read_written_name(written), written_extras(written)
    assert (extras.titles, extras.kunya, extras.nickname, extras.notes, extras.place) == (
        full.titles, full.kunya, full.nickname, full.notes, full.place)


@pytest.mark.parametrize(("written", "name", "titles"), [
    ("الملازم أول محمد علي الحسن", "محمد علي الحسن", ("الملازم أول",)),
    ("المساعد الأول خالد أحمد العمر", "خالد أحمد العمر", ("المساعد الأول",)),
    ("العسكري المنشق محمد علي الحسن", "محمد علي الحسن", ("العسكري المنشق",)),
    ("العقيد المنشق حسين هرموش", "حسين هرموش", ("العقيد", "المنشق")),
    ("First Lieutenant Ahmad Ali Hasan", "Ahmad Ali Hasan", ("First Lieutenant",)),
    ("Cpl. Ahmad Ali Hasan", "Ahmad Ali Hasan", ("Cpl.",)),
])
def test_military_ranks_of_two_words_and_the_defector_are_titles(written: str, name: str,
                                                                 titles: tuple[str, ...]) -> None:
    """Officers and conscripts who left the army are many among the detained: "أول" of "الملازم أول"
    (first lieutenant) was read as the given name, "العسكري المنشق" (the defecting soldier) as two names."""
    read = read_written_name(written)
    assert (read.name, read.titles) == (name, titles)


@pytest.mark.parametrize("written", ["الجندي محمد علي", "العسكري محمد علي"])
def test_jundi_and_askari_alone_are_family_names(written: str) -> None:
    assert not read_written_name(written).titles


@pytest.mark.parametrize(("written", "name", "notes", "place"), [
    ("محمد علي الحسن - مواليد 1985", "محمد علي الحسن", ("مواليد 1985",), ""),
    ("محمد علي الحسن - من مواليد 1990", "محمد علي الحسن", ("من مواليد 1990",), ""),
    ("محمد علي الحسن - طالب", "محمد علي الحسن", ("طالب",), ""),
    ("محمد علي الحسن - داريا - مواليد 1985", "محمد علي الحسن", ("مواليد 1985",), "داريا"),
    ("Ahmad Ali Hasan - born 1985", "Ahmad Ali Hasan", ("born 1985",), ""),
    ("محمد علي الحسن، والدته فاطمة", "محمد علي الحسن", ("والدته فاطمة",), ""),
    ("Mohammad Ali Hasan, 25", "Mohammad Ali Hasan", ("25",), ""),
    ("محمد المحمود - خناصر", "محمد المحمود", (), "خناصر"),
    ("محمد علي الحسن - من داريا", "محمد علي الحسن", (), "من داريا"),
])
def test_a_birth_year_a_profession_or_a_parent_after_the_name_is_a_note_not_a_place(
        written: str, name: str, notes: tuple[str, ...], place: str) -> None:
    """Read as a place, "- مواليد 1985" or "- طالب" became the report's town when its town field was
    empty, and weighed as a town different from the other report's; after a comma "والدته فاطمة" (his
    mother Fatima) was read as the given names and the name before it as the family name."""
    read = read_written_name(written)
    assert (read.name, read.notes, read.place, read.family_first) == (name, notes, place, False)


@pytest.mark.parametrize(("written", "name", "notes"), [
    ("محمد علي الحسن مواليد 1985 داريا", "محمد علي الحسن", ("مواليد 1985 داريا",)),
    ("محمد علي الحسن من مواليد 1985", "محمد علي الحسن", ("من مواليد 1985",)),
    ("Ahmad Ali Hasan born 1985", "Ahmad Ali Hasan", ("born 1985",)),
    ("محمد علي ١٩٨٥", "محمد علي", ("١٩٨٥",)),
    ("محمد 1985", "محمد 1985", ()),  # a name must remain: kept as written
])
def test_a_birth_year_written_in_the_name_ends_the_name(written: str, name: str, notes: tuple[str, ...]) -> None:
    """"مواليد 1985" (born 1985) read as names: "مواليد" was a father's or a family name."""
    read = read_written_name(written)
    assert (read.name, read.notes) == (name, notes)


def test_a_kunya_after_a_nickname_marker_is_the_nickname() -> None:
    """"الملقب أبو علي" after the family name: the kunya rule took "أبو علي" and left the marker
    "الملقب" in the name as a fourth name."""
    read = read_written_name("محمد علي الحسن الملقب أبو علي")
    assert (read.name, read.nickname, read.kunya) == ("محمد علي الحسن", "أبو علي", ())


@pytest.mark.parametrize(("written", "name", "kunya", "notes"), [
    ('Mohammed "Abu Ali" Al-Hassan', "Mohammed Al-Hassan", ("Abu Ali",), ()),
    ("Mohammed Al-Hassan 'Abu Ali'", "Mohammed Al-Hassan", ("Abu Ali",), ()),
    ("محمد “أبو علي” الحسن", "محمد الحسن", ("أبو علي",), ()),
    ("محمد 'ابو علي' الحسن", "محمد الحسن", ("ابو علي",), ()),
    ('Mohammed "Hamoudi" Hasan', "Mohammed Hasan", (), ("Hamoudi",)),
    ("Ja'far 'Abd al-Karim", "Ja'far 'Abd al-Karim", (), ()),  # apostrophes that write ع
])
def test_quotation_marks_hold_a_kunya_or_a_note_as_brackets_do(written: str, name: str, kunya: tuple[str, ...],
                                                                  notes: tuple[str, ...]) -> None:
    """A kunya in quotation marks was read as two more names ("Abu Ali" between the given and the
    family name)."""
    read = read_written_name(written)
    assert (read.name, read.kunya, read.notes) == (name, kunya, notes)


@pytest.mark.parametrize(("written", "name", "notes"), [
    ("محمد علي الحسن Mohammad Ali Al-Hasan", "محمد علي الحسن", ("Mohammad Ali Al-Hasan",)),
    ("محمد علي الحسن / Mohammad Ali Al-Hasan", "محمد علي الحسن", ("Mohammad Ali Al-Hasan",)),
    ("Mohammad Ali Al-Hasan - محمد علي الحسن", "Mohammad Ali Al-Hasan", ("محمد علي الحسن",)),
    ("Mohammad محمد Ali علي", "Mohammad محمد Ali علي", ()),  # not two runs: read as written
])
def test_a_field_with_the_name_in_both_scripts_reads_the_first(written: str, name: str,
                                                               notes: tuple[str, ...]) -> None:
    """Read whole, "محمد علي الحسن Mohammad Ali Al-Hasan" was a name of six parts (its family name
    Hasan, its father's name علي … الحسن); with a slash its Latin half was the report's town."""
    read = read_written_name(written)
    assert (read.name, read.notes, read.place) == (name, notes, "")


@pytest.mark.parametrize(("written", "name", "mother"), [
    ("احمد ابن مريم", "احمد", "مريم"),
    ("مصطفى ابن رقية", "مصطفى", "رقية"),
    ("هبة بنت فاطمة", "هبة", "فاطمة"),
    ("احمد ابن مريم الحلبي", "احمد الحلبي", "مريم"),
    ("رشيد قريطم (ابن زينب)", "رشيد قريطم", "زينب"),
    ("محمد بن احمد", "محمد بن احمد", ""),   # a man's name after ابن: the father's, as always
    ("ابن مريم", "ابن مريم", ""),            # no name of his own: kept as written
    # a woman's name of the mothers' generation (given_names.yaml, twenty-fourth session)
    ("محمد ابن سعدية", "محمد", "سعدية"),
    ("ياسر ابن حليمه", "ياسر", "حليمه"),
    # ابن typed without its space (a list typed on a phone)
    ("عبد الرحمن ابنآمنة", "عبد الرحمن", "آمنة"),
    ("احمدابن يسرى", "احمد", "يسرى"),
    ("عبد الغنيابن فوزيه", "عبد الغني", "فوزيه"),
    ("احمدابن علي", "احمدابن علي", ""),     # a man's name after it: not the mother's, nothing cut
    ("خالد بنتاجي", "خالد بنتاجي", ""),      # a family name that begins with the letters of بنت
])
def test_a_man_named_by_his_mother(written: str, name: str, mother: str) -> None:
    """"Ahmad son of Maryam": people who know the family name a man by his mother (field_lists.py)."""
    read = read_written_name(written)
    assert (read.name, read.mother) == (name, mother)
