"""Field lists: a linkage dev set of reports about Syrian detainees as they reach a documentation desk.

Written from a fresh description (the brief of the thirteenth session and general knowledge of how
Syrian names, places, dates and lists are written), WITHOUT reading athar's linkage or name code,
its YAML name tables or the other dev-set generators. Nothing here was tuned on athar's results.

    generate(n_persons, seed) -> DataFrame   # one row per report, deterministic per seed

Columns: the import template (first_name, father_name, family_name, mother_name, sex, birth_year,
birth_place, governorate, city, arrest_date, arresting_agency, full_name_ar, full_name_latin; any
may be empty), report_id, person_id (truth), family_id (household truth), and two hidden columns:
``noise`` (``;``-separated tags of what was applied to the report) and ``truth`` (the person's
given|father|grandfather|family|town|birth_year|arrest_date|mother).

World model
-----------
* Places: 14 governorates weighted by how many detainees came from them (Rif Dimashq 20, Homs 13,
  Damascus 12, Aleppo 12, Daraa 10, Hama 9, Idlib 8, Deir ez-Zor 5, Latakia 3, Raqqa 2, Hasakah 2,
  Suwayda 1.5, Tartus 1.5, Quneitra 1); each has towns or city neighbourhoods (Douma, Darayya,
  Moadamiyeh, Zamalka, Harasta, Baba Amr, Khalidiya, al-Waer, Salaheddine, Daraa al-Balad, ...).
  Town weights are Zipf-like (first towns larger).
* Family names: each town draws 10-18 family names from a regional pool plus a pan-Syrian pool
  (with and without the article), Zipf-weighted (s=1.1) so a few families dominate a town.
* Clans: a (town, family) has 1-3 lines, each with its grandfather; households of one line are
  cousins (same grandfather and family name, different father and mother).
* Households: father (older-generation given names), mother (given + her own family name, 45 %
  from the same town's families); missing members 1 (55 %), 2 (28 %), 3 (12 %), 4 (5 %):
  sons (85 %), daughters (9 %), the father himself (6 %). The eldest son is named after his paternal
  grandfather 30 % of the time (so cousins share given + grandfather + family name). 8 % of
  households reuse the given name of a person of another household of the same family and town
  (namesakes: same given + family + town, different father, mother, birth year). With the Zipf
  draws this leaves about a quarter of persons (seed 31: 634 of 2,500) sharing given + family +
  town with someone else.
  Given names Zipf-weighted (s=1.0) from a male (~90 incl. compounds "محمد خير", "عبد الرحمن") or
  female (~40) list; Kurdish names in Hasakah/Aleppo (25 %), Druze names in Suwayda (50 %).
* Brothers are arrested in one raid (same day, same agency) 50 % of the time. Arrest dates
  2011-03 .. 2016-12, peaking 2012-2013. Birth years: sons 1960-1998, fathers 1940-1970.
* Agencies: a branch per person from the governorate's plausible list (branch numbers 215, 227,
  235, 248, 251, 261, 290, 245, 243, Air Force Intelligence / al-Mezzeh airport, Political Security,
  State Security, Military Police, checkpoints); written as number, nickname or agency name.

Reports per person: 1 (33 %), 2 (30 %), 3 (19 %), 4 (11 %), 5 (7 %) -> about 2.3 reports per person.
Each report comes from one of seven sources (weights):
  hr_db 24       human-rights documentation database export: full_name_ar (grandfather 30 %),
                 English transliteration in full_name_latin 40 %, mother 50 %, dates d/m/y (Arabic-
                 Indic digits 25 %), governorate + city, agency as written by the documenter.
  whatsapp 16    list typed from an activist's WhatsApp message: short names ("given family" 55 %,
                 "given father family" 25 %, "ابن فلانة" 10 %, kunya "أبو X" 10 %; nickname 10 %,
                 "محمد خير" -> "خير" 40 % of compounds), spaces lost 12 %,
                 neighbourhood as city, no governorate 60 %, age instead of birth year 35 %,
                 month-year or season dates.
  tracing 18     Red Crescent / ICRC tracing request typed in Latin by an English-speaking clerk:
                 first/father/family/mother in Latin, per-clerk transliteration habits (Mohammed /
                 Muhammad / Mhd. / Mohd, Abdul / Abd el / Abdel, Al- / El- / none, ch for sh,
                 ou for u, ee for i, doubled letters), keyboard typos 6 %, English date formats
                 (US month-first 10 % of dated tracing reports), father typed into first_name 15 %.
  testimony 10   a released detainee's testimony: partial name ("given family", "given from town",
                 kunya + town nisba, "X الداراني"), father only 15 %, approximate date ("ربيع 2013", "أواخر 2012") of when he
                 was seen, branch where seen (a different branch 30 %), age in words 30 %.
  caesar 10      a family's Caesar-photo identification claim: first/father/family/mother fields in
                 Arabic, birth year, the photo card's branch number, arrest date d-m-y.
  roster 12      a leaked detention/court roster: family-name-first (70 %) full_name_ar, "بن" 30 %,
                 mother in her own field 85 %, birth place, "1/1/YEAR" birth dates 25 %, no arrest.
  diaspora 10    an online form filled by a relative abroad (Germany/Turkey/France): first/father/
                 family in Latin with German (sch, j for y), French (ch, ou) or Turkish (Muhammet,
                 ş) spelling, or in Arabic 30 %, dates 15.03.2012, mother with her family name.
Per-report typist habits (Arabic): hamza dropped 45 %, final ة as ه 20 %, final ى as ي 20 %,
Persian keyboard letters (ی ک) 3 %, عبد / أبو compounds joined 35 %, article dropped from the family
name 12 %, tatweel 1 %; careful typists (hr_db, half of caesar) have the first three at 0.4x.

Slips (one report of a person, each at most once, rates per person with >= 2 reports):
  by_off1 8 %, by_off_far 3 %, date_other 5 %, sibling_given 1.5 %, father_grand_swap 2 %,
  mother_other 4 %, typo_family 5 %, typo_given 4 %, gov_birthplace 4 %, family_as_nisba 4 %,
  sex_missing 2 %, latin_in_ar 1 %.
  (typo_given / typo_family hit the Arabic keyboard in Arabic sources, QWERTY in Latin ones.)

Noise tags (column ``noise``): src_<source>; slips above; Arabic typing ar_hamza, ar_ta_ha, ar_ya,
ar_persian_letters, ar_abd_joined, ar_article_dropped, ar_tatweel, ar_fields (diaspora form typed in
Arabic); Latin lat_mohammed, lat_abd_form, lat_article, lat_spelling, lat_keyboard_typo,
lat_father_in_first (father's name typed into first_name); names grandfather, nickname, kunya,
compound_given_short ("محمد خير" -> "خير"), mother_in_name ("ابن فلانة"), space_lost,
name_from_town ("X من داريا"), town_nisba_as_family ("X الداراني"), family_first, roster_order, ben;
birth age_for_year, age_in_words, by_approx_text, by_jan1; dates date_dmy, date_ymd_slash,
date_indic_digits, date_month_ar, date_month_num_ar, date_month_eg, date_month_en, date_d_mon_y,
date_iso, date_us_mdy, date_year_only, date_dotted, date_m_y, date_season, date_part_of_year,
date_no_year, date_vague, seen_date (a testimony's date is when he was seen, after the arrest);
agency branch_seen (the branch where he was seen, not the arresting one), caesar_card_branch.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pandas as pd

# ---------------------------------------------------------------------------------------------
# Names: "arabic:Latin" (the Latin is an English-clerk spelling; variants are made from it)

MALE = """محمد:Mohammed أحمد:Ahmad محمود:Mahmoud عبد الرحمن:Abdul Rahman خالد:Khaled مصطفى:Mustafa
عمر:Omar علي:Ali حسن:Hasan حسين:Hussein إبراهيم:Ibrahim يوسف:Yousef عبد الله:Abdullah سامر:Samer
ماهر:Maher بلال:Bilal حمزة:Hamza أنس:Anas عمار:Ammar وائل:Wael مازن:Mazen باسل:Basel فادي:Fadi
رامي:Rami طارق:Tareq سعيد:Said عبد القادر:Abdul Qader عبد الرزاق:Abdul Razzaq إسماعيل:Ismail
ياسر:Yaser مهند:Muhannad معاذ:Muaz عدنان:Adnan زياد:Ziad هيثم:Haitham نزار:Nizar غياث:Ghiath
قتيبة:Qutaiba منهل:Manhal أيمن:Ayman عبد الكريم:Abdul Karim عبد الحميد:Abdul Hamid
عبد الباسط:Abdul Basit عبد السلام:Abdul Salam محمد خير:Mohammed Khair محمد نور:Mohammed Nour
محمد سعيد:Mohammed Said محمد ديب:Mohammed Dib أسامة:Osama جهاد:Jihad عصام:Issam فراس:Firas لؤي:Louay
مؤيد:Muayad ضياء:Diaa إياد:Iyad نضال:Nidal رائد:Raed سليمان:Suleiman عيسى:Issa موسى:Musa يحيى:Yahya
أبو بكر:Abu Bakr عثمان:Othman صهيب:Suhaib مجد:Majd نور الدين:Nour al-Din علاء:Alaa شادي:Shadi
محمد علي:Mohammed Ali عبد العزيز:Abdul Aziz عبد الهادي:Abdul Hadi معتز:Moataz ثائر:Thaer
غسان:Ghassan منذر:Munzer صالح:Saleh قاسم:Qasem ياسين:Yassin أمجد:Amjad بشار:Bashar وسيم:Wassim
حازم:Hazem هشام:Hisham مهدي:Mahdi جمال:Jamal كنان:Kinan عبادة:Ubada ربيع:Rabie عامر:Amer"""

ELDER = """محمد:Mohammed أحمد:Ahmad محمود:Mahmoud عبد الله:Abdullah حسن:Hasan علي:Ali خليل:Khalil
صالح:Saleh سليم:Salim عبد الغني:Abdul Ghani عبد الرزاق:Abdul Razzaq ديب:Dib أديب:Adib نايف:Nayef
فايز:Fayez حسين:Hussein قاسم:Qasem ياسين:Yassin توفيق:Tawfiq رشيد:Rashid جميل:Jamil عارف:Aref
سعيد:Said مصطفى:Mustafa إبراهيم:Ibrahim يوسف:Yousef عبد الرحمن:Abdul Rahman عبد القادر:Abdul Qader
محمد علي:Mohammed Ali عبد الوهاب:Abdul Wahhab رضوان:Radwan نعيم:Naim شحادة:Shehadeh عبدو:Abdo
درويش:Darwish عبد اللطيف:Abdul Latif فاروق:Farouq مرعي:Marei حمدي:Hamdi ممدوح:Mamdouh عدنان:Adnan"""

FEMALE = """فاطمة:Fatima خديجة:Khadija عائشة:Aisha مريم:Maryam زينب:Zeinab آمنة:Amina نور:Nour هبة:Hiba
رشا:Rasha رنا:Rana سلمى:Salma ريم:Reem لينا:Lina أسماء:Asmaa رغد:Raghad ياسمين:Yasmin علا:Ola
سوسن:Sawsan سمر:Samar ديما:Dima هالة:Hala منى:Mona نجلاء:Najlaa وفاء:Wafaa غادة:Ghada إيمان:Iman
رهف:Rahaf سناء:Sanaa أمل:Amal نسرين:Nisreen ليلى:Laila هدى:Huda سعاد:Suad"""

MOTHER = """فاطمة:Fatima خديجة:Khadija عائشة:Aisha آمنة:Amina زينب:Zeinab حليمة:Halima نعيمة:Naima
سميرة:Samira وداد:Widad جميلة:Jamila حياة:Hayat مريم:Maryam نجاح:Najah فوزية:Fawzia سهام:Siham
ثناء:Thanaa انتصار:Intisar عفاف:Afaf بديعة:Badia يسرى:Yusra نوال:Nawal رقية:Ruqaya صباح:Sabah
أمينة:Amina هيام:Hiyam ماجدة:Majida خيرية:Khairiya سعدية:Saadia"""

KURD_M = "آزاد:Azad شيار:Shiyar جوان:Jwan هوزان:Hozan بروار:Berwar دلشاد:Dilshad رودي:Rodi كاوا:Kawa"
KURD_F = "روجين:Rojin بيريفان:Berivan نسرين:Nisreen شيرين:Shirin"
DRUZE_M = "كمال:Kamal فواز:Fawaz وليد:Walid سلمان:Salman نبيل:Nabil مهنا:Muhanna شبلي:Shibli ضافي:Dafi"

NICK = {"محمد": ["حمودة", "حمو"], "أحمد": ["حمادة"], "إبراهيم": ["برهوم"], "عبد الرحمن": ["عبدو", "عبود"],
        "عبد الله": ["عبدو"], "مصطفى": ["صطيف"], "إسماعيل": ["سمعو"], "عبد القادر": ["قدور"],
        "عبد الرزاق": ["رزوق"], "يوسف": ["أبو يوسف"], "فاطمة": ["فطوم"], "خديجة": ["خدوج"],
        "عائشة": ["عيوش"], "محمود": ["حمودي"], "خالد": ["خلودة"], "عبد الكريم": ["كرومي"],
        "حسن": ["حسون"], "علي": ["علوش"], "عمر": ["عمورة"], "سليمان": ["سلومة"]}

PAN_FAMILY = """الأحمد:al-Ahmad المحمد:al-Mohammed العلي:al-Ali الحسن:al-Hasan الخطيب:al-Khatib
الشيخ:al-Sheikh عثمان:Othman قاسم:Qasem حمدان:Hamdan دياب:Diab شحادة:Shehadeh الحلبي:al-Halabi
الحمصي:al-Homsi الشامي:al-Shami المصري:al-Masri النجار:al-Najjar الحداد:al-Haddad الخياط:al-Khayyat
العمر:al-Omar السيد:al-Sayed يوسف:Yousef إبراهيم:Ibrahim عيسى:Issa سليمان:Suleiman الزعبي:al-Zoubi
الحريري:al-Hariri الموسى:al-Mousa الصالح:al-Saleh الأسعد:al-Asaad العبد الله:al-Abdullah"""

REGION_FAMILY = {
    "dam": """طه:Taha بويضاني:Buwaydani دلوان:Dalwan قريطم:Qreitem الخولاني:al-Khawlani مطر:Matar زيادة:Ziadeh
عليان:Alyan الدرة:al-Durra الكردي:al-Kurdi عيون:Ayoun النعسان:al-Naasan السقا:al-Saqqa الفليطاني:al-Fleitani
الغوطاني:al-Ghoutani الدقاق:al-Daqqaq كيوان:Kiwan الريس:al-Rayyes حمشو:Hamsho خبية:Khabiyeh عبيد:Obeid
المعضماني:al-Moadamani الصباغ:al-Sabbagh الشربجي:al-Sharbaji البيطار:al-Bitar ضاهر:Daher الجبان:al-Jabban""",
    "hom": """الدروبي:al-Droubi الأتاسي:al-Atassi السباعي:al-Sibai البكور:al-Bakour طلاس:Tlass الجندلي:al-Jundi
الشيخ يوسف:al-Sheikh Yousef العبد:al-Abd الحمود:al-Hamoud الفاعوري:al-Faouri البويضاني:al-Buwaidani
الخالد:al-Khaled الزهوري:al-Zahouri عكاري:Akkari النحاس:al-Nahhas المصطفى:al-Mustafa الرفاعي:al-Rifai""",
    "ham": """الحموي:al-Hamawi الكيلاني:al-Kilani البرازي:al-Barazi العظم:al-Azm الشيشكلي:al-Shishakli
القصاب:al-Qassab الحسين:al-Hussein الدالاتي:al-Dalati المرعي:al-Marei الحاج حسين:al-Hajj Hussein
الرحال:al-Rahhal الطيار:al-Tayyar الأصفر:al-Asfar""",
    "idl": """الإدلبي:al-Idlibi اليوسف:al-Yousef الحاج علي:al-Hajj Ali البكري:al-Bakri العمر:al-Omar قدور:Qaddour
الشيخ علي:al-Sheikh Ali الضاهر:al-Daher حاج قدور:Hajj Qaddour السعيد:al-Saeed المحمود:al-Mahmoud
الخلف:al-Khalaf جمعة:Jumaa""",
    "alp": """الحلبي:al-Halabi الجابري:al-Jabiri الكيالي:al-Kayyali حج حسين:Hajj Hussein الشهابي:al-Shehabi
عبد الحي:Abdul Hay بيطار:Bitar الحسن:al-Hasan الدادا:al-Dada حبال:Habbal الطباع:al-Tabbaa
العكام:al-Akkam مرعي:Marei بكور:Bakour""",
    "dra": """الزعبي:al-Zoubi الحريري:al-Hariri المسالمة:al-Masalmeh أبازيد:Abazeed الرفاعي:al-Rifai
المقداد:al-Miqdad الحوراني:al-Hourani الغزالي:al-Ghazali البردان:al-Bardan القداح:al-Qaddah
العودات:al-Oudat الصياصنة:al-Sayasneh الجهماني:al-Jahmani الكفري:al-Kafri""",
    "der": """العبيد:al-Obeid الحسين:al-Hussein العيسى:al-Issa الخلف:al-Khalaf الدندل:al-Dandal
الشعيطي:al-Shaitat العكيدي:al-Ukaidi الجاسم:al-Jasem النايف:al-Nayef البكارة:al-Baggara الفرحان:al-Farhan""",
    "coa": """ديوب:Dayoub إسماعيل:Ismail سليمان:Suleiman الخير:al-Khair جبور:Jabbour الشيخ:al-Sheikh
غانم:Ghanem حسن:Hasan طراف:Tarraf الأسعد:al-Asaad القاضي:al-Qadi شريتح:Shreitah""",
    "raq": """العجيلي:al-Ujaili الحمد:al-Hamad العلي:al-Ali البريج:al-Breij الحويدي:al-Huweidi الشواخ:al-Shawakh""",
    "has": """حسو:Hasso شيخو:Sheikho عثمان:Othman حاجي:Haji بكر:Bakr خليل:Khalil الجبوري:al-Jubouri
طي:Tayy العلي:al-Ali""",
    "suw": """الأطرش:al-Atrash أبو فخر:Abu Fakhr الحناوي:al-Hinnawi عزام:Azzam نصر:Nasr أبو الحسن:Abu al-Hassan
الشوفي:al-Shoufi أبو عاصي:Abu Assi""",
    "qun": """الخطيب:al-Khatib العلي:al-Ali الجولاني:al-Joulani الحسين:al-Hussein السيد:al-Sayed""",
}

# governorate -> (weight, ar, Latin variants, region, [(town ar, Latin, nisba ar)])
GOVS = [
    (20, "ريف دمشق", ["Rif Dimashq", "Damascus Countryside", "Rural Damascus", "Reef Damascus", "Rif Damascus"], "dam",
     "دوما:Douma:الدوماني داريا:Darayya:الداراني المعضمية:Moadamiyeh:المعضماني زملكا:Zamalka:الزملكاني "
     "حرستا:Harasta:الحرستاني عربين:Arbin:العربيني كفربطنا:Kafr Batna:الكفربطناوي سقبا:Saqba:السقباوي "
     "التل:al-Tall:التلي قدسيا:Qudsaya:القدسياوي الزبداني:Zabadani:الزبداني مضايا:Madaya:المضاياني "
     "يبرود:Yabroud:اليبرودي الكسوة:al-Kiswah:الكسواني ببيلا:Babbila:الببيلاوي"),
    (12, "دمشق", ["Damascus", "Dimashq", "Damas"], "dam",
     "الميدان:al-Midan:الميداني القابون:Qaboun:القابوني برزة:Barzeh:البرزاوي ركن الدين:Rukn al-Din:الركني "
     "المزة:Mezzeh:المزاوي كفرسوسة:Kafr Sousa:الكفرسوساني التضامن:al-Tadamon:التضامني "
     "مخيم اليرموك:Yarmouk Camp:اليرموكي القدم:al-Qadam:القدماني جوبر:Jobar:الجوبراني"),
    (13, "حمص", ["Homs", "Hims"], "hom",
     "بابا عمرو:Baba Amr:العمراوي الخالدية:Khalidiya:الخالدي الوعر:al-Waer:الوعراوي الإنشاءات:al-Inshaat:الحمصي "
     "باب السباع:Bab al-Sebaa:الحمصي القصور:al-Qusour:الحمصي دير بعلبة:Deir Baalba:البعلبي الرستن:al-Rastan:الرستناوي "
     "تلبيسة:Talbiseh:التلبيساوي القصير:al-Qusayr:القصيراوي الحولة:al-Houla:الحولاني تلكلخ:Talkalakh:التلكلخي"),
    (12, "حلب", ["Aleppo", "Halab", "Alep"], "alp",
     "صلاح الدين:Salaheddine:الحلبي الشعار:al-Shaar:الحلبي السكري:al-Sukkari:الحلبي بستان القصر:Bustan al-Qasr:الحلبي "
     "الصاخور:al-Sakhour:الحلبي هنانو:Hanano:الحلبي عندان:Anadan:العنداني تل رفعت:Tal Rifaat:الرفعتاوي "
     "الأتارب:al-Atarib:الأتاربي منبج:Manbij:المنبجي الباب:al-Bab:البابي اعزاز:Azaz:الاعزازي مارع:Marea:المارعي"),
    (10, "درعا", ["Daraa", "Deraa", "Dara'a", "Der'a"], "dra",
     "درعا البلد:Daraa al-Balad:الدرعاوي طفس:Tafas:الطفساوي الحراك:al-Hirak:الحراكي نوى:Nawa:النواوي "
     "جاسم:Jasim:الجاسمي إنخل:Inkhil:الإنخلي الصنمين:al-Sanamayn:الصنميني بصرى الشام:Busra al-Sham:البصراوي "
     "داعل:Dael:الداعلي"),
    (9, "حماة", ["Hama", "Hamah", "Hamat"], "ham",
     "الحاضر:al-Hader:الحموي باب قبلي:Bab Qibli:الحموي طريق حلب:Tariq Halab:الحموي كفرزيتا:Kafr Zita:الكفرزيتاوي "
     "اللطامنة:al-Latamneh:اللطامني مورك:Morek:المورقاوي حلفايا:Halfaya:الحلفاوي السلمية:Salamiyah:السلموني"),
    (8, "إدلب", ["Idlib", "Idleb", "Edlib"], "idl",
     "إدلب:Idlib:الإدلبي سراقب:Saraqib:السراقبي معرة النعمان:Maarat al-Numan:المعراوي جسر الشغور:Jisr al-Shughur:الجسراوي "
     "بنش:Binnish:البنشي كفرنبل:Kafranbel:الكفرنبلي أريحا:Ariha:الأريحاوي سرمين:Sarmin:السرميني"),
    (5, "دير الزور", ["Deir ez-Zor", "Deir al-Zour", "Deir Ezzor", "Dayr az-Zawr"], "der",
     "الحويقة:al-Huweiqa:الديري الجورة:al-Joura:الديري موحسن:Mohassan:الموحسني الميادين:al-Mayadin:المياديني "
     "البوكمال:Albukamal:الكمالي"),
    (3, "اللاذقية", ["Latakia", "Lattakia", "Lathqiya"], "coa",
     "الصليبة:al-Sleibeh:اللاذقاني الرمل الجنوبي:al-Ramel al-Janoubi:الرملاوي الحفة:al-Haffa:الحفاوي "
     "جبلة:Jableh:الجبلاوي"),
    (2, "الرقة", ["Raqqa", "al-Raqqah", "Rakka"], "raq",
     "الرقة:Raqqa:الرقاوي الطبقة:al-Tabqa:الطبقاوي تل أبيض:Tal Abyad:الأبيضاوي"),
    (2, "الحسكة", ["Hasakah", "al-Hasakah", "Hassakeh"], "has",
     "الحسكة:Hasakah:الحسكاوي القامشلي:Qamishli:القامشلاوي رأس العين:Ras al-Ain:العيناوي عامودا:Amuda:العامودي"),
    (1.5, "السويداء", ["Suwayda", "Sweida", "As-Suwayda"], "suw",
     "السويداء:Suwayda:السويداوي شهبا:Shahba:الشهباوي صلخد:Salkhad:الصلخدي"),
    (1.5, "طرطوس", ["Tartus", "Tartous", "Tartous"], "coa",
     "طرطوس:Tartus:الطرطوسي بانياس:Baniyas:البانياسي البيضا:al-Bayda:البيضاوي"),
    (1, "القنيطرة", ["Quneitra", "Kuneitra"], "qun",
     "خان أرنبة:Khan Arnabah:الأرنباوي جباتا الخشب:Jubata al-Khashab:الجباتاوي"),
]

# agencies: (ar written forms, latin forms, branch number or "")
AGENCY = {
    "215": (["فرع 215", "الفرع 215", "فرع سرية المداهمة 215", "الأمن العسكري - فرع 215"],
            ["Branch 215", "Military Intelligence Branch 215", "215 Raid Branch"]),
    "227": (["فرع 227", "فرع المنطقة", "فرع المنطقة 227", "الأمن العسكري فرع المنطقة"],
            ["Branch 227", "Area Branch 227", "Military Intelligence 227"]),
    "235": (["فرع فلسطين", "فرع 235", "فرع فلسطين 235", "الأمن العسكري - فلسطين"],
            ["Palestine Branch", "Branch 235", "Far' Falastin"]),
    "248": (["فرع 248", "فرع التحقيق العسكري 248", "الأمن العسكري"], ["Branch 248", "Military Intelligence"]),
    "251": (["فرع الخطيب", "فرع 251", "أمن الدولة - الخطيب", "المخابرات العامة فرع الخطيب"],
            ["al-Khatib Branch", "Branch 251", "State Security (al-Khatib)", "General Intelligence 251"]),
    "air": (["المخابرات الجوية", "المزة الجوية", "فرع المخابرات الجوية بمطار المزة", "الجوية"],
            ["Air Force Intelligence", "Mezzeh Airport", "Air Force Int.", "AFI"]),
    "pol": (["الأمن السياسي", "فرع الأمن السياسي", "السياسية"], ["Political Security", "Political Security Branch"]),
    "sts": (["أمن الدولة", "المخابرات العامة"], ["State Security", "General Intelligence"]),
    "mp": (["الشرطة العسكرية", "الشرطة العسكرية بالقابون"], ["Military Police", "Military Police Qaboun"]),
    "261": (["فرع 261", "الأمن العسكري بحمص", "فرع الأمن العسكري 261"], ["Branch 261", "Military Intelligence Homs"]),
    "290": (["فرع 290", "الأمن العسكري بحلب", "فرع 290 حلب"], ["Branch 290", "Military Intelligence Aleppo"]),
    "245": (["فرع 245", "الأمن العسكري بدرعا", "فرع 245 درعا"], ["Branch 245", "Military Intelligence Daraa"]),
    "243": (["فرع 243", "الأمن العسكري بدير الزور"], ["Branch 243", "Military Intelligence Deir ez-Zor"]),
    "chk": (["حاجز", "حاجز للجيش", "حاجز الجوية", "حاجز على الطريق"], ["checkpoint", "army checkpoint"]),
}
REGION_AGENCY = {"dam": "215 227 235 248 251 air air pol sts mp chk", "hom": "261 261 air pol sts 215 chk",
                 "alp": "290 290 air air pol sts chk", "dra": "245 245 air sts 235 chk", "ham": "air air pol sts 215 chk",
                 "idl": "air pol sts 215 chk", "der": "243 243 air pol chk", "coa": "air pol sts 215",
                 "raq": "air pol sts chk", "has": "pol sts air", "suw": "air pol sts 215", "qun": "227 235 air chk"}

MONTHS_AR = ["كانون الثاني", "شباط", "آذار", "نيسان", "أيار", "حزيران", "تموز", "آب", "أيلول", "تشرين الأول",
             "تشرين الثاني", "كانون الأول"]
MONTHS_EG = ["يناير", "فبراير", "مارس", "أبريل", "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر", "أكتوبر", "نوفمبر", "ديسمبر"]
MONTHS_EN = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
             "November", "December"]
SEASON_AR = ["شتاء", "شتاء", "ربيع", "ربيع", "ربيع", "صيف", "صيف", "صيف", "خريف", "خريف", "خريف", "شتاء"]
INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")

AR_ROWS = ["ضصثقفغعهخحجد", "شسيبلاتنمكط", "ئءؤرلاىةوزظ"]
EN_ROWS = ["qwertyuiop", "asdfghjkl", "zxcvbnm"]


def _name_list(text: str) -> list[tuple[str, str]]:
    """Parse "ar:Latin" items separated by spaces, where both sides may hold spaces ("عبد الرحمن:Abdul Rahman")."""
    items: list[tuple[str, str]] = []
    words = text.replace("\n", " ").split()
    i = 0
    while i < len(words):
        ar_parts = []
        while ":" not in words[i]:
            ar_parts.append(words[i])
            i += 1
        a, lat = words[i].split(":", 1)
        ar_parts.append(a)
        lat_parts = [lat]
        i += 1
        # Latin continues while the next word is Latin and has no colon
        while i < len(words) and ":" not in words[i] and words[i][0].isascii():
            lat_parts.append(words[i])
            i += 1
        items.append((" ".join(ar_parts), " ".join(lat_parts)))
    return items


def _towns(text: str) -> list[tuple[str, str, str]]:
    out = []
    # town entries are "ar:Latin:nisba" separated by spaces; both ar and Latin may contain spaces
    words = text.split()
    i = 0
    while i < len(words):
        ar = []
        while words[i].count(":") == 0:
            ar.append(words[i])
            i += 1
        if words[i].count(":") == 2:
            a, lat, nis = words[i].split(":")
            ar.append(a)
            out.append((" ".join(ar), lat, nis))
            i += 1
            continue
        a, lat = words[i].split(":")
        ar.append(a)
        lat_parts = [lat]
        i += 1
        while words[i].count(":") == 0:
            lat_parts.append(words[i])
            i += 1
        last, nis = words[i].split(":")
        lat_parts.append(last)
        out.append((" ".join(ar), " ".join(lat_parts), nis))
        i += 1
    return out


MALE_L, ELDER_L, FEMALE_L, MOTHER_L = (_name_list(t) for t in (MALE, ELDER, FEMALE, MOTHER))
KURD_M_L, KURD_F_L, DRUZE_M_L = (_name_list(t) for t in (KURD_M, KURD_F, DRUZE_M))
PAN_L = _name_list(PAN_FAMILY)
REGION_L = {k: _name_list(v) for k, v in REGION_FAMILY.items()}
GOV_L = [(w, ar, lat, reg, _towns(t)) for w, ar, lat, reg, t in GOVS]
LATIN = {ar: lat for lst in (MALE_L, ELDER_L, FEMALE_L, MOTHER_L, KURD_M_L, KURD_F_L, DRUZE_M_L, PAN_L,
                              *REGION_L.values()) for ar, lat in lst}


def _zipf(n: int, s: float) -> list[float]:
    return [1.0 / (i + 1) ** s for i in range(n)]


@dataclass
class Person:
    pid: str
    hid: str
    sex: str
    given: str
    father: str
    grand: str
    family: str
    mother: str
    mother_family: str
    by: int
    gov: int
    town: tuple[str, str, str]
    birth_town: tuple[str, str, str]
    arrest: tuple[int, int, int]
    agency: str
    siblings: list[str]


# ---------------------------------------------------------------------------------------------
# Writing: Arabic typists, Latin clerks, dates


class ArTypist:
    def __init__(self, r: random.Random, careful: bool = False):
        k = 0.4 if careful else 1.0
        self.no_hamza = r.random() < 0.45 * k
        self.ta_ha = r.random() < 0.20 * k
        self.ya = r.random() < 0.20 * k
        self.persian = r.random() < 0.03
        self.join_abd = r.random() < 0.35
        self.drop_article = r.random() < 0.12 * k
        self.tatweel = r.random() < 0.01
        self.tags: set[str] = set()

    def word(self, s: str, family: bool = False) -> str:
        orig = s
        if self.join_abd and ("عبد " in s or "أبو " in s and not family):
            s = s.replace("عبد ", "عبد").replace("أبو ", "أبو")
            self.tags.add("ar_abd_joined")
        if family and self.drop_article and s.startswith("ال") and len(s) > 4:
            s = s[2:]
            self.tags.add("ar_article_dropped")
        if self.no_hamza:
            t = s.replace("أ", "ا").replace("إ", "ا").replace("آ", "ا").replace("ؤ", "و")
            if t != s:
                self.tags.add("ar_hamza")
            s = t
        if self.ta_ha:
            t = " ".join(w[:-1] + "ه" if w.endswith("ة") else w for w in s.split(" "))
            if t != s:
                self.tags.add("ar_ta_ha")
            s = t
        if self.ya:
            t = " ".join(w[:-1] + "ي" if w.endswith("ى") else w for w in s.split(" "))
            if t != s:
                self.tags.add("ar_ya")
            s = t
        if self.persian:
            t = s.replace("ي", "ی").replace("ك", "ک")
            if t != s:
                self.tags.add("ar_persian_letters")
            s = t
        if self.tatweel and len(s) > 3 and s == orig:
            s = s[:2] + "ـ" + s[2:]
            self.tags.add("ar_tatweel")
        return s


SUN = set("tdrzsnl")


class Clerk:
    """A Latin transliterator with fixed habits (English, French, German or Turkish leaning)."""

    def __init__(self, r: random.Random, style: str = "en"):
        self.r = r
        self.style = style
        self.moh = r.choice(["Mohammed", "Muhammad", "Mohamed", "Mohammad", "Mohamad", "Mhd.", "Mohd", "Mhd"])
        if style == "fr":
            self.moh = r.choice(["Mohamed", "Mouhammad", "Mohammed"])
        elif style == "de":
            self.moh = r.choice(["Mohamad", "Mohammad", "Muhammed"])
        elif style == "tr":
            self.moh = r.choice(["Muhammet", "Muhammed", "Mehmet"])
        self.abd = r.choice(["Abdul ", "Abdul", "Abd al-", "Abd el ", "Abdel", "Abdel ", "Abd Al", "Abd-al-"])
        self.art = r.choice(["al-", "Al-", "Al ", "al ", "El-", "el ", "", "Al", "sun"])
        self.ou = style == "fr" or r.random() < 0.25
        self.ee = r.random() < 0.2
        self.ch = style == "fr" or r.random() < 0.08
        self.undouble = r.random() < 0.3
        self.e_for_a = r.random() < 0.25
        self.q_k = r.random() < 0.3
        self.upper = r.random() < 0.25
        self.tags: set[str] = set()

    def name(self, ar: str) -> str:
        lat = LATIN.get(ar) or LATIN.get(ar.replace("ال", "", 1)) or _rough_latin(ar)
        if lat.startswith("Abdul "):
            rest = self._word(lat[6:])
            if self.abd != "Abdul ":
                self.tags.add("lat_abd_form")
            s = self.abd + (rest.lower() if self.abd[-1].isalpha() else rest)
        else:
            s = " ".join(self._word(w) for w in lat.split(" "))
        return s.upper() if self.upper else s

    def _word(self, w: str) -> str:
        if w == "Mohammed":
            if self.moh != "Mohammed":
                self.tags.add("lat_mohammed")
            return self.moh
        art = ""
        if w.lower().startswith("al-"):
            core = w[3:]
            a = self.art
            if a == "sun":
                head = core[:2].lower() if core[:2].lower() in ("sh", "th", "dh") else core[0].lower()
                a = f"a{head}-" if head[0] in SUN else "al-"
            art, w = a, core
            if a != "al-":
                self.tags.add("lat_article")
            if a in ("Al", ""):
                w = w.lower() if a == "Al" else w
        t = w
        if self.ou:
            t = t.replace("u", "ou").replace("oou", "ou")
        if self.ee:
            j = t.rfind("i", 0, len(t) - 1)
            t = t.replace("ee", "i") if "ee" in t else (t[:j] + "ee" + t[j + 1:] if j > 0 else t)
        if self.ch:
            t = t.replace("sh", "ch").replace("Sh", "Ch")
        if self.style == "de":
            t = t.replace("sh", "sch").replace("Sh", "Sch").replace("y", "j").replace("Y", "J")
        if self.style == "tr":
            t = t.replace("sh", "ş").replace("Sh", "Ş").replace("j", "c").replace("J", "C")
        if self.undouble:
            for c in "mdlrsbtyn":
                t = t.replace(c + c, c)
        if self.e_for_a and len(t) > 3 and t.endswith("a"):
            t = t[:-1] + "eh"
        if self.q_k:
            t = t.replace("q", "k").replace("Q", "K")
        if t != w:
            self.tags.add("lat_spelling")
        return art + t


AR2L = dict(zip("ابتثجحخدذرزسشصضطظعغفقكلمنهوي", ["a", "b", "t", "th", "j", "h", "kh", "d", "th", "r", "z", "s", "sh",
                                                    "s", "d", "t", "z", "a", "gh", "f", "q", "k", "l", "m", "n", "h",
                                                    "ou", "i"], strict=True))


def _rough_latin(ar: str) -> str:
    out = "".join(AR2L.get(c, "a" if c in "أإآءئؤةى" else c) for c in ar)
    return " ".join(w.capitalize() for w in out.split())


def _typo(s: str, r: random.Random, rows: list[str]) -> str:
    idx = [i for i, c in enumerate(s) if any(c.lower() in row for row in rows)]
    if len(idx) < 3:
        return s
    i = r.choice(idx[1:])
    c = s[i]
    kind = r.random()
    if kind < 0.5:
        for row in rows:
            j = row.find(c.lower())
            if j >= 0:
                nb = [row[k] for k in (j - 1, j + 1) if 0 <= k < len(row)]
                d = r.choice(nb)
                return s[:i] + (d.upper() if c.isupper() else d) + s[i + 1:]
    if kind < 0.75:
        return s[:i] + s[i + 1:]
    if kind < 0.9 and i + 1 < len(s):
        return s[:i] + s[i + 1] + s[i] + s[i + 2:]
    return s[:i] + c + s[i:]


def _date(d: tuple[int, int, int], r: random.Random, style: str) -> tuple[str, str]:
    y, m, day = d
    if style == "ar_db":
        opts = [(f"{day}/{m}/{y}", "date_dmy"), (f"{day:02d}/{m:02d}/{y}", "date_dmy"),
                (f"{y}/{m}/{day}", "date_ymd_slash"), (f"{day}-{m}-{y}", "date_dmy")]
        s, tag = r.choice(opts)
        if r.random() < 0.25:
            return s.translate(INDIC), tag + ";date_indic_digits"
        return s, tag
    if style == "whatsapp":
        u = r.random()
        if u < 0.3:
            return f"{MONTHS_AR[m - 1]} {y}", "date_month_ar"
        if u < 0.4:
            return f"شهر {m} {y}", "date_month_num_ar"
        if u < 0.55:
            return f"{SEASON_AR[m - 1]} {y}", "date_season"
        if u < 0.65:
            return (f"أواخر {y}" if m > 8 else f"أوائل {y}" if m < 5 else f"منتصف {y}"), "date_part_of_year"
        if u < 0.75:
            return f"{day}/{m}", "date_no_year"
        if u < 0.85:
            return f"{MONTHS_EG[m - 1]} {y}".translate(INDIC) if r.random() < 0.3 else f"{MONTHS_EG[m - 1]} {y}", \
                "date_month_eg"
        return f"{day}/{m}/{y}", "date_dmy"
    if style == "en":
        u = r.random()
        if u < 0.3:
            return f"{MONTHS_EN[m - 1]} {y}", "date_month_en"
        if u < 0.5:
            return f"{day} {MONTHS_EN[m - 1][:3]} {y}", "date_d_mon_y"
        if u < 0.65:
            return f"{y}-{m:02d}-{day:02d}", "date_iso"
        if u < 0.75:
            return f"{m:02d}/{day:02d}/{y}", "date_us_mdy"
        if u < 0.9:
            return f"{day:02d}/{m:02d}/{y}", "date_dmy"
        return str(y), "date_year_only"
    if style == "de":
        return (f"{day:02d}.{m:02d}.{y}", "date_dotted") if r.random() < 0.7 else (f"{m:02d}/{y}", "date_m_y")
    if style == "approx":
        u = r.random()
        if u < 0.45:
            return f"{SEASON_AR[m - 1]} {y}", "date_season"
        if u < 0.65:
            return (f"أواخر {y}" if m > 8 else f"أوائل {y}" if m < 5 else f"منتصف {y}"), "date_part_of_year"
        if u < 0.85:
            return f"{MONTHS_AR[m - 1]} {y}", "date_month_ar"
        return f"بعد رمضان {y}" if r.random() < 0.5 else f"{y}", "date_vague"
    # caesar / dash
    return (f"{day}-{m}-{y}", "date_dmy") if r.random() < 0.6 else (f"{y}/{m}/{day}", "date_ymd_slash")


# ---------------------------------------------------------------------------------------------
# World


class World:
    def __init__(self, n_persons: int, r: random.Random):
        self.r = r
        self.persons: list[Person] = []
        self.town_fams: dict[tuple[int, int], list[tuple[str, str]]] = {}
        self.clans: dict[tuple[int, int, str], list[str]] = {}
        self.by_town_family: dict[tuple[int, int, str], list[Person]] = {}
        hid = 0
        while len(self.persons) < n_persons:
            hid += 1
            self._household(f"h{hid}")
        self.persons = self.persons[:n_persons]

    def _draw(self, lst: list[tuple[str, str]], s: float = 1.0) -> str:
        return self.r.choices(lst, weights=_zipf(len(lst), s))[0][0]

    def _given(self, sex: str, reg: str) -> str:
        r = self.r
        if sex == "F":
            if reg == "has" and r.random() < 0.25:
                return r.choice(KURD_F_L)[0]
            return self._draw(FEMALE_L)
        if reg == "has" and r.random() < 0.25 or reg == "alp" and r.random() < 0.05:
            return r.choice(KURD_M_L)[0]
        if reg == "suw" and r.random() < 0.5:
            return r.choice(DRUZE_M_L)[0]
        return self._draw(MALE_L)

    def _household(self, hid: str) -> None:
        r = self.r
        gi = r.choices(range(len(GOV_L)), weights=[g[0] for g in GOV_L])[0]
        _, _, _, reg, towns = GOV_L[gi]
        ti = r.choices(range(len(towns)), weights=_zipf(len(towns), 0.8))[0]
        town = towns[ti]
        key = (gi, ti)
        if key not in self.town_fams:
            pool = REGION_L[reg] + r.sample(PAN_L, 8)
            r.shuffle(pool)
            self.town_fams[key] = pool[: r.randint(10, 18)]
        fam = self._draw(self.town_fams[key], 1.1)
        ck = (gi, ti, fam)
        if ck not in self.clans:
            self.clans[ck] = [self._draw(ELDER_L) for _ in range(r.choice([1, 1, 2, 3]))]
        grand = r.choice(self.clans[ck])
        father = self._draw(ELDER_L)
        while father == grand and r.random() < 0.9:
            father = self._draw(ELDER_L)
        mother = self._draw(MOTHER_L)
        mfam = self._draw(self.town_fams[key], 1.1) if r.random() < 0.45 else self._draw(PAN_L + REGION_L[reg])
        n = r.choices([1, 2, 3, 4], weights=[55, 28, 12, 5])[0]
        raid = (r.random() < 0.5, self._arrest(), r.choice(REGION_AGENCY[reg].split()))
        born_elsewhere = r.random() < 0.1
        btown = r.choice(towns) if born_elsewhere else town
        members: list[Person] = []
        used: set[str] = set()
        father_by = r.randint(1940, 1970)
        for k in range(n):
            role = r.choices(["son", "daughter", "father"], weights=[85, 9, 6])[0]
            if role == "father" and any(m.given == father for m in members):
                role = "son"
            if role == "father":
                p = Person("", hid, "M", father, grand, self._draw(ELDER_L), fam, self._draw(MOTHER_L),
                           self._draw(PAN_L), father_by, gi, town, btown, (0, 0, 0), "", [])
            else:
                sex = "F" if role == "daughter" else "M"
                g = self._given(sex, reg)
                if k == 0 and sex == "M" and r.random() < 0.3:
                    g = grand
                others = self.by_town_family.get(ck, [])
                if sex == "M" and others and r.random() < 0.08:
                    g = r.choice(others).given  # namesake of another household
                tries = 0
                while g in used and tries < 20:
                    g = self._given(sex, reg)
                    tries += 1
                by = r.randint(max(father_by + 18, 1960), min(father_by + 45, 1998))
                p = Person("", hid, sex, g, father, grand, fam, mother, mfam, by, gi, town, btown,
                           (0, 0, 0), "", [])
            used.add(p.given)
            if raid[0]:
                p.arrest, p.agency = raid[1], raid[2]
            else:
                p.arrest, p.agency = self._arrest(), r.choice(REGION_AGENCY[reg].split())
            p.pid = f"p{len(self.persons) + 1}"
            members.append(p)
            self.persons.append(p)
            self.by_town_family.setdefault(ck, []).append(p)
        for p in members:
            p.siblings = [m.given for m in members if m is not p and m.father == p.father]

    def _arrest(self) -> tuple[int, int, int]:
        r = self.r
        y = r.choices([2011, 2012, 2013, 2014, 2015, 2016], weights=[18, 30, 26, 12, 8, 6])[0]
        m = r.randint(3, 12) if y == 2011 else r.randint(1, 12)
        return (y, m, r.randint(1, 28))


# ---------------------------------------------------------------------------------------------
# Reports

SOURCES = ["hr_db", "whatsapp", "tracing", "testimony", "caesar", "roster", "diaspora"]
SOURCE_W = [24, 16, 18, 10, 10, 12, 10]
SLIPS = [("by_off1", 0.08), ("by_off_far", 0.03), ("date_other", 0.05), ("sibling_given", 0.015),
         ("father_grand_swap", 0.02), ("mother_other", 0.04), ("typo_family", 0.05), ("typo_given", 0.04),
         ("gov_birthplace", 0.04), ("family_as_nisba", 0.04), ("sex_missing", 0.02), ("latin_in_ar", 0.01)]


def _kunya(p: Person, r: random.Random) -> str:
    if p.sex == "F":
        return "أم " + r.choice(MALE_L[:20])[0]
    if 2013 - p.by > 28:
        return "أبو " + r.choice(MALE_L[:30])[0]
    conventional = {"إبراهيم": "أبو خليل", "يوسف": "أبو يعقوب", "عمر": "أبو حفص", "علي": "أبو حسن",
                    "حسين": "أبو علي", "محمد": "أبو جاسم", "أحمد": "أبو حميد", "خالد": "أبو الوليد"}
    if p.given in conventional:
        return conventional[p.given]
    return "أبو " + (p.given if " " not in p.given else r.choice(MALE_L[:30])[0])


def _report(p: Person, src: str, slips: set[str], r: random.Random, world: World) -> dict[str, str]:
    tags = [f"src_{src}"]
    row = dict.fromkeys(["first_name", "father_name", "family_name", "mother_name", "sex", "birth_year",
                         "birth_place", "governorate", "city", "arrest_date", "arresting_agency",
                         "full_name_ar", "full_name_latin"], "")
    gw, gar, glat, reg, _ = GOV_L[p.gov]
    given, father, grand, family, mother = p.given, p.father, p.grand, p.family, p.mother
    by, arrest, agency = p.by, p.arrest, p.agency
    gov_ar, gov_lat = gar, glat
    if "sibling_given" in slips and p.siblings:
        given = r.choice(p.siblings)
    if "father_grand_swap" in slips:
        father, grand = grand, father
    if "mother_other" in slips:
        mother = r.choice(NICK[mother]) if mother in NICK and r.random() < 0.5 else world._draw(MOTHER_L)
    if "by_off1" in slips:
        by += r.choice([-1, 1])
    if "by_off_far" in slips:
        by += r.choice([-5, -4, -3, -2, 2, 3, 4, 5])
    if "date_other" in slips:
        arrest = world._arrest()
    if "family_as_nisba" in slips:
        family = p.town[2]
    if "gov_birthplace" in slips:
        og = world.r.choice(GOV_L)
        gov_ar, gov_lat = og[1], og[2]
    latin_src = src in ("tracing", "diaspora")
    if "typo_family" in slips and not latin_src:
        family = _typo(family, r, AR_ROWS)
    if "typo_given" in slips and not latin_src:
        given = _typo(given, r, AR_ROWS)
    tags += sorted(slips)
    town_ar, town_lat, _ = p.town
    sex_ar = {"M": r.choice(["ذكر", "ذكر", "M"]), "F": r.choice(["أنثى", "انثى", "F"])}[p.sex]
    ag_ar, ag_lat = AGENCY[agency]

    if src == "hr_db":
        t = ArTypist(r, careful=True)
        parts = [given, father] + ([grand] if r.random() < 0.3 else []) + [family]
        if len(parts) == 4:
            tags.append("grandfather")
        row["full_name_ar"] = " ".join(t.word(w, family=(i == len(parts) - 1)) for i, w in enumerate(parts))
        if r.random() < 0.4:
            c = Clerk(r)
            row["full_name_latin"] = " ".join(c.name(w) for w in parts)
            tags += sorted(c.tags)
        if r.random() < 0.5:
            row["mother_name"] = t.word(mother) + ((" " + t.word(p.mother_family, True)) if r.random() < 0.5 else "")
        row["sex"] = sex_ar
        row["birth_year"] = str(by) if r.random() < 0.8 else ""
        row["governorate"], row["city"] = t.word(gov_ar), t.word(town_ar)
        row["arrest_date"], dt = _date(arrest, r, "ar_db")
        tags.append(dt)
        row["arresting_agency"] = r.choice(ag_ar) if r.random() < 0.8 else ""
        tags += sorted(t.tags)
    elif src == "whatsapp":
        t = ArTypist(r)
        u = r.random()
        g = given
        if u < 0.1 and given in NICK:
            g = r.choice(NICK[given])
            tags.append("nickname")
        if given.startswith("محمد ") and r.random() < 0.4:
            g = given.split(" ", 1)[1]
            tags.append("compound_given_short")
        if u >= 0.9:
            name = [_kunya(p, r), family]
            tags.append("kunya")
        elif u < 0.55:
            name = [g, family]
        elif u < 0.8:
            name = [g, father, family]
        else:
            ibn = "ابن" if p.sex == "M" else "بنت"
            name = [g, ibn, mother] if r.random() < 0.5 else [g, family, f"({ibn} {mother})"]
            tags.append("mother_in_name")
        s = " ".join(t.word(w, family=(w == family)) for w in name)
        if r.random() < 0.12:
            words = s.split(" ")
            j = r.randrange(len(words) - 1) if len(words) > 1 else 0
            if len(words) > 1:
                s = " ".join(words[:j]) + (" " if j else "") + words[j] + words[j + 1] + \
                    ("" if j + 2 >= len(words) else " " + " ".join(words[j + 2:]))
                tags.append("space_lost")
        row["full_name_ar"] = s
        row["city"] = t.word(town_ar) if r.random() < 0.85 else ""
        if r.random() < 0.4:
            row["governorate"] = t.word(gov_ar)
        if r.random() < 0.35:
            age = arrest[0] - by
            row["birth_year"] = r.choice([f"{age}", f"عمره {age}", f"{age} سنة", f"العمر {age}"])
            tags.append("age_for_year")
        elif r.random() < 0.4:
            row["birth_year"] = str(by)
        if r.random() < 0.8:
            row["arrest_date"], dt = _date(arrest, r, "whatsapp")
            tags.append(dt)
        if r.random() < 0.5:
            row["arresting_agency"] = r.choice(ag_ar)
        tags += sorted(t.tags)
    elif src in ("tracing", "diaspora"):
        style = "en" if src == "tracing" else r.choice(["de", "de", "fr", "tr"])
        c = Clerk(r, style)
        if src == "diaspora" and r.random() < 0.3:
            t = ArTypist(r)
            row["first_name"], row["father_name"] = t.word(given), t.word(father)
            row["family_name"] = t.word(family, True)
            row["mother_name"] = t.word(mother) + " " + t.word(p.mother_family, True)
            tags += ["ar_fields", *sorted(t.tags)]
        else:
            row["first_name"], row["father_name"] = c.name(given), c.name(father)
            row["family_name"] = c.name(family)
            if r.random() < (0.7 if src == "tracing" else 0.8):
                row["mother_name"] = c.name(mother) + ((" " + c.name(p.mother_family))
                                                       if src == "diaspora" or r.random() < 0.3 else "")
            for f, slip in (("first_name", "typo_given"), ("family_name", "typo_family")):
                if slip in slips:
                    row[f] = _typo(row[f], r, EN_ROWS)
            if r.random() < 0.06:
                f = r.choice(["first_name", "family_name", "father_name"])
                row[f] = _typo(row[f], r, EN_ROWS)
                tags.append("lat_keyboard_typo")
            if src == "tracing" and r.random() < 0.15 and row["father_name"]:
                row["first_name"] = row["first_name"] + " " + row["father_name"]
                row["father_name"] = ""
                tags.append("lat_father_in_first")
            tags += sorted(c.tags)
        row["sex"] = {"M": r.choice(["M", "Male", "m"]), "F": r.choice(["F", "Female", "f"])}[p.sex]
        if r.random() < 0.85:
            row["birth_year"] = str(by)
        else:
            row["birth_year"] = f"approx. {by}" if r.random() < 0.5 else f"{by - 1}/{by}"
            tags.append("by_approx_text")
        row["birth_place"] = p.birth_town[1] if r.random() < 0.6 else ""
        row["governorate"] = r.choice(gov_lat) if r.random() < 0.8 else ""
        row["city"] = town_lat if r.random() < 0.7 else ""
        if r.random() < 0.85:
            row["arrest_date"], dt = _date(arrest, r, "en" if src == "tracing" else "de")
            tags.append(dt)
        if r.random() < 0.6:
            row["arresting_agency"] = r.choice(ag_lat)
    elif src == "testimony":
        t = ArTypist(r)
        u = r.random()
        if given.startswith("محمد ") and r.random() < 0.4:
            given = given.split(" ", 1)[1]
            tags.append("compound_given_short")
        if u < 0.35:
            name = f"{given} {family}"
        elif u < 0.6:
            name = f"{given} من {town_ar}"
            tags.append("name_from_town")
        elif u < 0.75:
            name = f"{given} {father} {family}"
        elif u < 0.88:
            name = f"{_kunya(p, r)} {p.town[2]}"
            tags.append("kunya")
        else:
            name = f"{given} {p.town[2]}"
            tags.append("town_nisba_as_family")
        row["full_name_ar"] = " ".join(t.word(w) for w in name.split(" "))
        row["city"] = t.word(town_ar) if r.random() < 0.7 else ""
        seen = (arrest[0] + (1 if arrest[1] > 8 and r.random() < 0.5 else 0),
                min(12, arrest[1] + r.randint(0, 4)), 1)
        row["arrest_date"], dt = _date(seen, r, "approx")
        tags += [dt, "seen_date"]
        seen_ag = agency
        if r.random() < 0.3:
            seen_ag = r.choice(["215", "227", "235", "251", "air", "248"])
            tags.append("branch_seen")
        row["arresting_agency"] = r.choice(AGENCY[seen_ag][0])
        if r.random() < 0.3:
            age = arrest[0] - by
            row["birth_year"] = r.choice(["بالعشرينات" if 20 <= age < 30 else f"حوالي {age // 5 * 5}",
                                          f"شب عمره حوالي {age}"])
            tags.append("age_in_words")
        row["sex"] = "" if r.random() < 0.6 else sex_ar
        tags += sorted(t.tags)
    elif src == "caesar":
        t = ArTypist(r, careful=r.random() < 0.5)
        row["first_name"], row["father_name"] = t.word(given), t.word(father)
        row["family_name"] = t.word(family, True)
        row["mother_name"] = t.word(mother) if r.random() < 0.8 else ""
        row["sex"] = sex_ar
        row["birth_year"] = str(by)
        row["governorate"], row["city"] = t.word(gov_ar), t.word(town_ar)
        row["arrest_date"], dt = _date(arrest, r, "caesar")
        tags.append(dt)
        num = agency if agency.isdigit() else r.choice(["215", "227", "248"])
        row["arresting_agency"] = r.choice([num, f"{num}/{r.randint(1000, 5999)}", f"فرع {num}"])
        tags.append("caesar_card_branch")
        tags += sorted(t.tags)
    elif src == "roster":
        t = ArTypist(r)
        fam_first = r.random() < 0.7
        ben = r.random() < 0.3
        fw = t.word(family, True)
        core = [t.word(given)] + (["بن"] if ben else []) + [t.word(father)]
        name = [fw, *core] if fam_first else [*core, fw]
        tags.append("family_first" if fam_first else "roster_order")
        if ben:
            tags.append("ben")
        row["full_name_ar"] = " ".join(name)
        if r.random() < 0.85:
            row["mother_name"] = t.word(mother)
        row["birth_place"] = t.word(p.birth_town[0])
        row["birth_year"] = f"1/1/{by}" if r.random() < 0.25 else (f"تولد {by}" if r.random() < 0.2 else str(by))
        if row["birth_year"].startswith("1/1"):
            tags.append("by_jan1")
        if r.random() < 0.5:
            row["governorate"] = t.word(gov_ar)
        row["arresting_agency"] = r.choice(ag_ar) if r.random() < 0.7 else ""
        tags += sorted(t.tags)
    if "latin_in_ar" in slips and row["full_name_ar"]:
        c = Clerk(r)
        row["full_name_latin"] = " ".join(c.name(w) for w in [given, father, family])
        row["full_name_ar"] = ""
    if "sex_missing" in slips:
        row["sex"] = ""
    row["noise"] = ";".join(dict.fromkeys(tags))
    return row


def generate(n_persons: int = 2500, seed: int = 31) -> pd.DataFrame:
    """Reports about ``n_persons`` persons, deterministic per ``seed`` (see the module docstring)."""
    r = random.Random(seed)
    world = World(n_persons, r)
    rows = []
    for p in world.persons:
        k = r.choices([1, 2, 3, 4, 5], weights=[33, 30, 19, 11, 7])[0]
        srcs = r.choices(SOURCES, weights=SOURCE_W, k=k)
        slip_at: dict[int, set[str]] = {}
        if k >= 2:
            for name, rate in SLIPS:
                if r.random() < rate:
                    slip_at.setdefault(r.randrange(k), set()).add(name)
        truth = "|".join([p.given, p.father, p.grand, p.family, p.town[0], str(p.by),
                          "{:04d}-{:02d}-{:02d}".format(*p.arrest), p.mother])
        for i, src in enumerate(srcs):
            row = _report(p, src, slip_at.get(i, set()), r, world)
            row.update(person_id=p.pid, family_id=p.hid, truth=truth)
            rows.append(row)
    order = list(range(len(rows)))
    r.shuffle(order)
    df = pd.DataFrame([rows[i] for i in order])
    df.insert(0, "report_id", [f"fl{seed}-{i}" for i in range(len(df))])
    return df.fillna("")
