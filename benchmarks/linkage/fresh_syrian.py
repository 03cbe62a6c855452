"""Syrian missing-person reports for MEASURING linkage only: a dev set nobody tuned on.

Written in the eleventh session from a fresh description and docs DOMAIN.md only, without reading
athar's linkage or name code or any other generator in the repository. Names, places and agencies
below were typed for this module.

``generate(n_persons, seed)`` returns one row per report. ``person_id`` is the truth, ``family_id``
the household (brothers and sisters share it). The hidden column ``noise`` lists what was applied
to each report (``;``-separated tags), and ``truth`` the person's true name parts, town, birth
year, arrest date and mother (``|``-separated); drop both before linkage.

World model
-----------
* Households (``family_id``) live in one town of one governorate. A town has its own pool of 8–16
  family names drawn from a concentrated (Zipf) national list, so the same family name recurs in a
  town. Given names are Zipf-weighted (محمد, أحمد, علي, حسن, خالد … on top).
* Missing members per household: 1 (60 %), 2 (25 %), 3 (10 %), 4 (5 %): siblings share father,
  grandfather, mother and family name and town, never a given name; 12 % of siblings are sisters;
  arrested on the same day with probability 0.6, else within ~18 months.
* Cousins: 20 % of households get a cousin household (same grandfather and family name, the
  father's brother as father, another mother; same town 80 %).
* Namesakes: 18 % of new households copy an existing person's family name, town and given name;
  40 % of these also the father's name. Mother, grandfather, birth year and arrest date differ.
* Birth years 1950–2000 (mostly 1975–1995); arrest dates 2011-03 … 2015-12.

Reports
-------
Each person has 1–5 reports (1: 35 %, 2: 33 %, 3: 17 %, 4: 10 %, 5: 5 %) from different sources:
* ``family``: Arabic, name in parts (full Arabic name too in 50 %, four parts in half of those),
  mother's name 90 %, exact dates (birth as a full date 30 %), birth place 60 %, governorate+town.
* ``ngo``: full name in one field: Arabic 50 %, Latin 25 %, both 25 %; month-level dates; family
  name first 20 %; first+family only 15 %; mother 30 %.
* ``lawyer``: Latin only, French-style spellings 70 % (OU for U, DJ, CH, K for Q, E for final A),
  upper case 70 %; agency in English; exact or month date.
* ``committee``: Arabic, first+family only 60 % (else three parts), family first 20 %, town only,
  year-month or year date, birth year 30 %.

Writing noise, per report (a typist's habit, applied to every Arabic name field of the report):
hamza forms أ/إ/آ → ا 35 %; final ة → ه 15 %; final ي → ى 10 %; Persian ی ک 4 %; عبد compounds
joined/split 30 %; "ال" on the family name dropped/added 15 % (Latin: Al-/El-/none/joined varies
freely); title or profession glued to the name (المهندس، الدكتور، المحامي، الطالب، الحاج، الشيخ; Dr.,
Eng., Hajj) 7 %; kunya (أبو محمد) in brackets or after a dash 5 %. Latin spellings vary freely
between the hand-typed variants of each name, with vowel changes 15 %.

Slips, each on ONE report of a person with ≥2 reports, independently: father's compound name cut
to "عبد" 30 % of persons whose father's name is an عبد compound; two adjacent letters swapped 5 %;
a letter dropped 5 %; sex wrong 2 %; birth year one off 6 %, two off 2 %; arrest date a month off
4 % (crossing the year boundary when in Dec/Jan: tag ``month_yearb``), a year off 1.5 %; town
written as the governorate 4 %. The branch is written per source in one of its forms ("فرع فلسطين",
"الفرع 235", "Palestine Branch", "Military Intelligence 235"), so two reports often differ there.
Fields go missing by source (see above); agency missing 25 %.
"""

from __future__ import annotations

import random
import re

import pandas as pd

# --- names: "arabic:Latin|Latin variants" ------------------------------------------------------

MALE = """
محمد:Muhammad|Mohammad|Mohammed|Mohamed|Mhd
أحمد:Ahmad|Ahmed
علي:Ali
حسن:Hasan|Hassan
خالد:Khaled|Khalid
عمر:Omar|Umar
محمود:Mahmoud|Mahmud
مصطفى:Mustafa|Moustafa|Mostafa
إبراهيم:Ibrahim|Ebrahim
حسين:Hussein|Husayn|Hussain
يوسف:Yousef|Yusuf|Youssef
عبد الله:Abdullah|Abdallah|Abd Allah|Abdulla
عبد الرحمن:Abdulrahman|Abd al-Rahman|Abdul Rahman|Abdelrahman
عبد الكريم:Abdulkarim|Abd al-Karim|Abdel Karim
عبد القادر:Abdulkader|Abd al-Qader|Abdel Kader
عبد الرزاق:Abdulrazzaq|Abd al-Razzaq|Abdel Razak
عبد الحميد:Abdulhamid|Abd al-Hamid|Abdel Hamid
عبد العزيز:Abdulaziz|Abd al-Aziz|Abdel Aziz
عبد الناصر:Abdulnasser|Abd al-Nasser|Abdel Nasser
عبد الباسط:Abdulbaset|Abd al-Basit|Abdel Basset
عبد السلام:Abdulsalam|Abd al-Salam|Abdel Salam
عبد الهادي:Abdulhadi|Abd al-Hadi|Abdel Hadi
عبد المجيد:Abdulmajid|Abd al-Majid|Abdel Majid
عبد اللطيف:Abdullatif|Abd al-Latif|Abdel Latif
عبد الغني:Abdulghani|Abd al-Ghani|Abdel Ghani
عبد الفتاح:Abdulfattah|Abd al-Fattah|Abdel Fattah
عبد الرحيم:Abdulrahim|Abd al-Rahim|Abdel Rahim
عبد الوهاب:Abdulwahab|Abd al-Wahhab|Abdel Wahab
عبد الحكيم:Abdulhakim|Abd al-Hakim|Abdel Hakim
عبد الجليل:Abduljalil|Abd al-Jalil|Abdel Jalil
محمد خير:Mohammad Khair|Muhammad Khayr|Mhd Kheir
محمد علي:Mohammad Ali|Muhammad Ali
نور الدين:Nour al-Din|Nureddin|Nour Eddine
صلاح الدين:Salah al-Din|Salahuddin|Salah Eddine
علاء الدين:Alaa al-Din|Alaeddin|Alaa Eddine
سامر:Samer
سمير:Samir|Sameer
ماهر:Maher
باسل:Basel|Basil
وائل:Wael|Wa'il
رامي:Rami
فادي:Fadi
مازن:Mazen|Mazin
عماد:Imad|Emad
جمال:Jamal
كمال:Kamal
نزار:Nizar|Nezar
غسان:Ghassan
أيمن:Ayman
أسامة:Osama|Usama|Oussama
أنس:Anas
معاذ:Muaz|Moaz|Mu'adh
حمزة:Hamza|Hamzah
بلال:Bilal|Belal
عمار:Ammar
ياسر:Yaser|Yasser|Yasir
ياسين:Yasin|Yassin|Yaseen
يحيى:Yahya|Yehia
زكريا:Zakaria|Zakariya
طارق:Tarek|Tariq|Tareq
زياد:Ziad|Ziyad
رياض:Riyad|Riad
فراس:Firas|Feras
هيثم:Haitham|Haytham
حازم:Hazem|Hazim
حسام:Hussam|Hossam|Husam
عصام:Issam|Essam
هشام:Hisham|Hesham
وليد:Walid|Waleed
خليل:Khalil
إسماعيل:Ismail|Esmail
موسى:Musa|Moussa|Mousa
عيسى:Issa|Eisa
سليمان:Suleiman|Sulayman|Soliman
داود:Dawood|Daoud|Dawud
يعقوب:Yaqoub|Yacoub|Yaqub
صالح:Saleh|Salih
سعيد:Said|Saeed
رضوان:Radwan|Ridwan
مروان:Marwan
عدنان:Adnan
عثمان:Othman|Uthman|Osman
أكرم:Akram
منذر:Munther|Monzer|Mundhir
مهند:Muhannad|Mohannad
نضال:Nidal|Nedal
جهاد:Jihad|Jehad
إياد:Iyad|Eyad
رائد:Raed|Ra'id
فايز:Fayez|Faiz
فيصل:Faisal|Faysal
قاسم:Qasem|Kassem|Qasim
ناصر:Nasser|Nasir
منصور:Mansour|Mansur
مأمون:Mamoun|Ma'mun
مؤيد:Muayyad|Moayad
لؤي:Louay|Luay
قتيبة:Qutaiba|Qutayba|Kutaiba
عبادة:Obada|Ubada
مجد:Majd
نبيل:Nabil|Nabeel
شادي:Shadi
ثائر:Thaer|Tha'ir
معتز:Moataz|Mu'taz
مصعب:Musab|Mos'ab
عامر:Amer|Aamer
سامي:Sami
عادل:Adel|Adil
فؤاد:Fouad|Fuad
رشيد:Rashid|Rasheed
أديب:Adib|Adeeb
توفيق:Tawfiq|Tawfik
شريف:Sharif|Sherif
عارف:Aref|Arif
ضياء:Diaa|Dia'
همام:Humam|Homam
أيهم:Ayham
يزن:Yazan
غياث:Ghiath|Ghiyath
ربيع:Rabie|Rabee'
بكر:Bakr|Baker
جميل:Jamil|Jameel
إدريس:Idris|Edris
نادر:Nader|Nadir
راشد:Rashed|Rashid
هاني:Hani
عمران:Imran|Omran
حمدي:Hamdi
منير:Munir|Mounir
بسام:Bassam
عبدو:Abdo|Abdu
"""

FEMALE = """
فاطمة:Fatima|Fatmeh|Fatma
عائشة:Aisha|Aysha|Aicha
مريم:Maryam|Mariam
خديجة:Khadija|Khadijeh
زينب:Zainab|Zeinab
رنا:Rana
رغد:Raghad
هبة:Hiba|Heba
نور:Nour|Noor
سارة:Sara|Sarah
آمنة:Amina|Amneh
أسماء:Asmaa|Asma
هدى:Huda|Houda
سعاد:Suad|Souad
منى:Mona|Muna
ليلى:Layla|Leila
سلمى:Salma
رشا:Rasha
ريم:Reem|Rim
دعاء:Duaa|Doaa
إيمان:Iman|Eman
ولاء:Walaa
رزان:Razan
لمى:Lama
سمر:Samar
غادة:Ghada
نسرين:Nisreen|Nesrine
سوسن:Sawsan|Sausan
نجاح:Najah
وفاء:Wafaa
حنان:Hanan
ابتسام:Ibtisam|Ebtisam
انتصار:Intisar|Entissar
عبير:Abeer|Abir
هناء:Hanaa
سهام:Siham
أمل:Amal
رهف:Rahaf
بشرى:Bushra|Boushra
ختام:Khitam
رقية:Ruqaya|Rokaya
صفاء:Safaa
نوال:Nawal
هيام:Hiyam|Hayam
فدوى:Fadwa
ماجدة:Majida|Majdeh
جميلة:Jamila|Jamileh
سميرة:Samira
نادية:Nadia
لينا:Lina
ديما:Dima
يسرى:Yusra|Yousra
شيماء:Shaimaa|Shayma
رحاب:Rehab|Rihab
فاتن:Faten
سناء:Sanaa
رولا:Rula|Roula
إسراء:Israa|Esraa
آلاء:Alaa
حياة:Hayat
وداد:Widad|Wedad
"""

FAMILY = """
الحسن:al-Hasan|Alhassan
المحمد:al-Mohammad|Almohammad
العلي:al-Ali|Alali
الأحمد:al-Ahmad|Alahmad
الخطيب:al-Khatib|Alkhatib
الحمصي:al-Homsi|Alhomsi
المصري:al-Masri|Almasri
الشامي:al-Shami|Alshami|ash-Shami
الحلبي:al-Halabi|Alhalabi
السيد:al-Sayed|Alsayed|as-Sayyid
الزعبي:al-Zoubi|Alzoubi|az-Zu'bi
المقداد:al-Miqdad|Almekdad
الحريري:al-Hariri|Alhariri
الأسعد:al-Asaad|Alasad
العبدالله:al-Abdullah|Alabdallah
الخالد:al-Khaled|Alkhalid
الصالح:al-Saleh|Alsaleh
الحسين:al-Hussein|Alhussain
العمر:al-Omar|Alomar
الإبراهيم:al-Ibrahim|Alibrahim
الجاسم:al-Jasem|Aljassem
الموسى:al-Mousa|Almusa
النجار:al-Najjar|Alnajjar|an-Najjar
الحداد:al-Haddad|Alhaddad
الشيخ:al-Sheikh|Alsheikh
قاسم:Qasem|Kassem
حمدان:Hamdan
عثمان:Othman|Osman
يوسف:Youssef|Yousef
درويش:Darwish|Darweesh
سليمان:Suleiman|Sleiman
عيسى:Issa|Eissa
البكور:al-Bakkour|Albakkour
الحمود:al-Hamoud|Alhammoud
الرفاعي:al-Rifai|Alrefai
العيسى:al-Issa|Aleissa
الجبر:al-Jaber|Aljabr
الفارس:al-Fares|Alfaris
الشهابي:al-Shihabi|Alshehabi
البيطار:al-Bitar|Albitar
الطحان:al-Tahhan|Altahan
الدباغ:al-Dabbagh|Aldabbagh
القدسي:al-Qudsi|Alkudsi
العطار:al-Attar|Alattar
الحمادة:al-Hamada|Alhamadeh
الكردي:al-Kurdi|Alkurdi
الديري:al-Deiri|Aldiri
الحوراني:al-Hourani|Alhorani
الأتاسي:al-Atassi|Alatasi
الدروبي:al-Droubi|Aldroubi
السباعي:al-Sibai|Alsibaei
الجندي:al-Jundi|Aljundi
الزين:al-Zein|Alzain
النعسان:al-Naasan|Alnasan
الأبرش:al-Abrash|Alabrash
المحاميد:al-Mahameed|Almhamid
أبازيد:Abazid|Abazeed
الغوثاني:al-Ghouthani|Alghothani
الخلف:al-Khalaf|Alkhalaf
العبود:al-Abboud|Alabboud
الحمد:al-Hamad|Alhamad
الدندل:al-Dandal|Aldandal
الشمالي:al-Shamali|Alshamali
المسالمة:al-Masalmeh|Almasalma
الرشيد:al-Rashid|Alrasheed
السعدي:al-Saadi|Alsaadi
الحلاق:al-Hallaq|Alhallak
البرازي:al-Barazi|Albarazi
الكيلاني:al-Kilani|Alkeilani
العظم:al-Azm|Alazem
القباني:al-Qabbani|Kabbani
التلي:al-Telli|Altalli
خضور:Khaddour|Khadour
زيدان:Zaidan|Zeidan
سلامة:Salameh|Salama
نصر:Nasr|Nassr
حجازي:Hijazi|Hegazi
عرنوس:Arnous|Arnoos
شحادة:Shehadeh|Shahada
مراد:Murad|Mourad
بكري:Bakri|Bakry
سويد:Sweid|Suwaid
طه:Taha
حيدر:Haidar|Hayder
عبد الرحمن:Abdulrahman|Abdel Rahman
الحاج علي:al-Hajj Ali|Alhaj Ali
شيخ موسى:Sheikh Mousa|Cheikh Moussa
أبو حسين:Abu Hussein|Abou Hussein
أبو زيد:Abu Zaid|Abou Zeid
الضاهر:al-Daher|Aldaher
الجراد:al-Jarrad|Aljarad
الرحال:al-Rahhal|Alrahal
البدوي:al-Badawi|Albadawi
الحراكي:al-Harraki|Alharaki
الطويل:al-Tawil|Altaweel
المرعي:al-Marei|Almarai
الخضر:al-Khoder|Alkhidr
الهلال:al-Hilal|Alhelal
الحجي:al-Hajji|Alhaji
العباس:al-Abbas|Alabbas
المصطفى:al-Mustafa|Almoustafa
"""


def _table(text: str) -> list[tuple[str, list[str]]]:
    out = []
    for line in text.strip().splitlines():
        ar, lat = line.split(":")
        out.append((ar.strip(), [x.strip() for x in lat.split("|")]))
    return out


MALE_NAMES = _table(MALE)
FEMALE_NAMES = _table(FEMALE)
FAMILY_NAMES = _table(FAMILY)
LATIN = {ar: lat for ar, lat in MALE_NAMES + FEMALE_NAMES}
FAMILY_LATIN = dict(FAMILY_NAMES)

# --- places: governorate -> (weight, latin forms, towns "ar:Latin|Latin") -----------------------

PLACES = {
    "دمشق": (10, ["Damascus", "Dimashq", "Damas"], "دمشق:Damascus|Damas"),
    "ريف دمشق": (16, ["Rif Dimashq", "Damascus Countryside", "Rural Damascus"],
                 "دوما:Douma|Duma;داريا:Darayya|Daraya;المعضمية:Moadamiyeh|Al-Muadamiyah;التل:Al-Tall|Et Tall;"
                 "الزبداني:Zabadani|Al-Zabadani;حرستا:Harasta;عربين:Arbin|Erbin;زملكا:Zamalka;يبرود:Yabroud|Yabrud;"
                 "قدسيا:Qudsaya|Kudsaya;جيرود:Jayroud|Jairoud;الكسوة:Al-Kiswah|Kisweh;النبك:An-Nabk|Nabek;"
                 "سقبا:Saqba|Sakba;كفربطنا:Kafr Batna|Kafarbatna;ببيلا:Babbila|Beit Sahm;مضايا:Madaya"),
    "حمص": (11, ["Homs", "Hims"], "حمص:Homs|Hims;تلبيسة:Talbiseh|Talbisa;الرستن:Al-Rastan|Rastan;"
                                   "القصير:Al-Qusayr|Qusair;تلكلخ:Talkalakh|Tell Kalakh;الحولة:Al-Houla|Houleh"),
    "حماة": (8, ["Hama", "Hamah"], "حماة:Hama|Hamah;السلمية:Salamiyah|Salamieh;مورك:Morek|Murak;"
                                  "كفرزيتا:Kafr Zita|Kafarzita;اللطامنة:Al-Lataminah|Latamneh;محردة:Mhardeh|Mahardah"),
    "حلب": (9, ["Aleppo", "Halab", "Alep"], "حلب:Aleppo|Halab|Alep;الباب:Al-Bab;منبج:Manbij|Menbij;"
                                           "اعزاز:Azaz|A'zaz;عندان:Anadan|Andan;تل رفعت:Tal Rifaat|Tell Rifat;"
                                           "دارة عزة:Darat Izza|Daret Azza"),
    "إدلب": (8, ["Idlib", "Idleb"], "إدلب:Idlib|Idleb;معرة النعمان:Maarat al-Numan|Maarat Al Nouman;"
                                    "سراقب:Saraqib|Saraqeb;جسر الشغور:Jisr al-Shughur|Jisr Ash Shughur;بنش:Binnish|Binnish;"
                                    "كفرنبل:Kafr Nabl|Kafranbel;أريحا:Ariha|Areeha"),
    "درعا": (11, ["Daraa", "Deraa", "Dar'a"], "درعا:Daraa|Deraa|Dar'a;نوى:Nawa|Nawa;طفس:Tafas|Tafas;"
                                            "الصنمين:As-Sanamayn|Sanamein;إنخل:Inkhil|Inkhel;جاسم:Jasim|Jassem;"
                                            "بصرى الشام:Busra al-Sham|Bosra;الحراك:Al-Hirak|Herak"),
    "دير الزور": (5, ["Deir ez-Zor", "Deir al-Zour", "Deir Ezzor"],
                  "دير الزور:Deir ez-Zor|Deir Ezzor;الميادين:Al-Mayadin|Mayadeen;البوكمال:Abu Kamal|Albukamal;"
                  "العشارة:Al-Ashara|Asharah"),
    "الرقة": (3, ["Raqqa", "Al-Raqqah", "Rakka"], "الرقة:Raqqa|Rakka;الطبقة:Al-Tabqa|Tabqah;تل أبيض:Tal Abyad|Tell Abiad"),
    "الحسكة": (3, ["Hasakah", "Al-Hasakah", "Hassakeh"], "الحسكة:Hasakah|Hassakeh;القامشلي:Qamishli|Kamishli;"
                                                        "رأس العين:Ras al-Ayn|Ras al-Ain;عامودا:Amuda|Amouda"),
    "اللاذقية": (4, ["Latakia", "Lattakia", "Al-Ladhiqiyah"], "اللاذقية:Latakia|Lattakia;جبلة:Jableh|Jablah;الحفة:Al-Haffah|Haffeh"),
    "طرطوس": (2, ["Tartus", "Tartous"], "طرطوس:Tartus|Tartous;بانياس:Baniyas|Banias"),
    "السويداء": (2, ["As-Suwayda", "Sweida", "Suwaida"], "السويداء:As-Suwayda|Sweida;شهبا:Shahba|Chahba"),
    "القنيطرة": (1, ["Quneitra", "Kuneitra"], "خان أرنبة:Khan Arnabah|Khan Arnaba"),
}
GOV_LIST = list(PLACES)
TOWNS = []  # (gov, town_ar, [latin])
for _gov, (_w, _glat, _towns) in PLACES.items():
    _parts = [t for t in _towns.split(";") if t]
    for _t in _parts:
        _ar, _lat = _t.split(":")
        TOWNS.append((_gov, _ar, _lat.split("|"), _w / len(_parts) * (3 if _ar == _gov or _ar in ("حلب", "درعا", "حمص", "حماة", "إدلب") else 1)))

# --- agencies: (arabic forms, latin forms) -----------------------------------------------------

AGENCIES = [
    (["فرع فلسطين", "الفرع 235", "فرع 235", "الأمن العسكري - فرع فلسطين", "شعبة المخابرات العسكرية فرع 235"],
     ["Palestine Branch", "Military Intelligence 235", "Branch 235", "Far' Falastin"], 14),
    (["فرع المداهمة", "الفرع 215", "سرية المداهمة 215", "الأمن العسكري 215"],
     ["Raid Branch 215", "Branch 215", "Military Intelligence 215"], 10),
    (["فرع المنطقة", "الفرع 227", "فرع 227", "الأمن العسكري - فرع المنطقة"],
     ["Branch 227", "Area Branch", "Military Intelligence 227"], 8),
    (["فرع الخطيب", "الفرع 251", "أمن الدولة - فرع الخطيب", "المخابرات العامة 251"],
     ["Al-Khatib Branch", "Branch 251", "General Intelligence 251", "State Security Khatib"], 8),
    (["فرع التحقيق العسكري", "الفرع 248", "فرع 248"], ["Military Interrogation Branch 248", "Branch 248"], 5),
    (["فرع سعسع", "الفرع 220", "فرع 220"], ["Sa'sa' Branch 220", "Branch 220"], 3),
    (["المخابرات الجوية", "المزة الجوية", "مطار المزة العسكري", "فرع التحقيق - المخابرات الجوية"],
     ["Air Force Intelligence", "Mezzeh Airport", "Air Force Intelligence - Mezzeh", "Air Force Int."], 10),
    (["الأمن السياسي", "فرع الأمن السياسي", "شعبة الأمن السياسي"], ["Political Security", "Political Security Branch"], 5),
    (["الشرطة العسكرية", "الشرطة العسكرية في القابون"], ["Military Police", "Military Police Qaboun"], 4),
    (["أمن الدولة", "المخابرات العامة"], ["State Security", "General Intelligence"], 4),
    (["فرع الأمن العسكري في حمص", "الفرع 261"], ["Military Intelligence Homs 261", "Branch 261"], 2),
    (["فرع الأمن العسكري في درعا", "الفرع 245"], ["Military Intelligence Daraa 245", "Branch 245"], 2),
    (["فرع الأمن العسكري في حلب", "الفرع 290"], ["Military Intelligence Aleppo 290", "Branch 290"], 2),
]

TITLES_AR = ["المهندس", "الدكتور", "المحامي", "الطالب", "الحاج", "الشيخ", "المعلم", "الصيدلاني"]
TITLES_LAT = ["Dr.", "Eng.", "Hajj", "Sheikh", "Student", "Lawyer"]

SLIP_RATES = {"swap": 0.05, "drop": 0.05, "sex": 0.02, "year1": 0.06, "year2": 0.02,
              "month": 0.04, "arrest_year": 0.015, "town_as_gov": 0.04}
FATHER_CUT_RATE = 0.30


def _zipf(n: int, s: float) -> list[float]:
    return [1.0 / (i + 1) ** s for i in range(n)]


MALE_W = _zipf(len(MALE_NAMES), 0.95)
MALE_W[0] *= 2.5  # محمد
FEMALE_W = _zipf(len(FEMALE_NAMES), 0.8)
FAMILY_W = _zipf(len(FAMILY_NAMES), 0.7)


# --- writing -----------------------------------------------------------------------------------

def _french(s: str, rng: random.Random) -> str:
    t = s
    t = re.sub(r"(?i)\babd(?:ul|al|el|[ -]al)?[ -]?", lambda m: "Abdel " if m.group(0)[-1:] in " -" else "Abdel", t)
    t = t.replace("sh", "ch").replace("Sh", "Ch")
    t = re.sub(r"(?<![oO])u", "ou", t)
    t = re.sub(r"(?<![oO])U", "Ou", t)
    t = re.sub(r"\bJ", "Dj", t)
    t = re.sub(r"(?<=[a-z])j", "dj", t)
    t = t.replace("q", rng.choice(["k", "g", "q"])).replace("Q", rng.choice(["K", "G"]))
    t = re.sub(r"\bW", "Ou", t)
    t = t.replace("ee", "i").replace("'", "")
    if rng.random() < 0.5:
        t = re.sub(r"a(?=[lrdnm]\b)", "e", t)  # Jamal -> Jamel
    return t


def _vowel_noise(s: str, rng: random.Random) -> str:
    idx = [i for i, c in enumerate(s) if c in "aeiouAEIOU" and i > 0]
    if not idx:
        return s
    i = rng.choice(idx)
    alt = {"a": "e", "e": "a", "i": "e", "o": "u", "u": "o"}.get(s[i].lower(), s[i])
    return s[:i] + alt + s[i + 1:]


def _latin_given(ar: str, rng: random.Random) -> str:
    if ar == "عبد":
        return rng.choice(["Abd", "Abdul", "Abdel"])
    forms = LATIN.get(ar)
    if not forms:
        return ar
    return rng.choice(forms)


def _latin_family(ar: str, rng: random.Random, drop_al: bool) -> str:
    forms = FAMILY_LATIN.get(ar, [ar])
    f = rng.choice(forms)
    m = re.match(r"(?i)^(al|as|az|ash|an)-(.+)$", f)
    if m:
        core = m.group(2)
        core = core[0].upper() + core[1:]
        if drop_al:
            return core
        return rng.choice(["Al-", "Al ", "El-", "El ", "al-", ""] + ["Al-"] * 3) + core
    if f.lower().startswith("al") and f[2:3].islower() and drop_al:
        return f[2].upper() + f[3:]
    return f


def _ar_habit(rng: random.Random) -> dict[str, bool]:
    return {"hamza": rng.random() < 0.35, "taa": rng.random() < 0.15, "ya": rng.random() < 0.10,
            "persian": rng.random() < 0.04, "abd": rng.random() < 0.30}


def _ar_write(text: str, habit: dict[str, bool], tags: set[str]) -> str:
    if not text:
        return text
    out = text
    if habit["hamza"]:
        out = re.sub("[أإآ]", "ا", out)
    if habit["taa"]:
        out = re.sub(r"ة\b", "ه", out)
    if habit["ya"]:
        out = re.sub(r"ي\b", "ى", out)
    if habit["abd"]:
        out = out.replace("عبد ال", "عبدال") if "عبد ال" in out else out.replace("عبدال", "عبد ال")
    if habit["persian"]:
        out = out.replace("ي", "ی").replace("ك", "ک")
    if out != text:
        for k in ("hamza", "taa", "ya", "abd", "persian"):
            if habit[k]:
                tags.add(k)
    return out


def _swap(s: str, rng: random.Random) -> str:
    idx = [i for i in range(len(s) - 1) if s[i] != " " and s[i + 1] != " " and s[i] != s[i + 1]]
    if not idx:
        return s
    i = rng.choice(idx)
    return s[:i] + s[i + 1] + s[i] + s[i + 2:]


def _drop(s: str, rng: random.Random) -> str:
    idx = [i for i in range(1, len(s)) if s[i] != " " and s[i - 1] != " "]
    if not idx:
        return s
    i = rng.choice(idx)
    return s[:i] + s[i + 1:]


# --- world -------------------------------------------------------------------------------------

def _date(rng: random.Random) -> tuple[int, int, int]:
    while True:
        y = rng.choices([2011, 2012, 2013, 2014, 2015], [22, 32, 24, 13, 9])[0]
        m = rng.randint(3 if y == 2011 else 1, 12)
        return (y, m, rng.randint(1, 28))


def _shift_months(d: tuple[int, int, int], k: int) -> tuple[int, int, int]:
    y, m, day = d
    t = y * 12 + (m - 1) + k
    return (t // 12, t % 12 + 1, day)


def _birth_year(rng: random.Random) -> int:
    return max(1950, min(2000, int(round(rng.gauss(1986, 8)))))


class _World:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.town_families: dict[str, list[int]] = {}
        self.persons: list[dict] = []
        self.n_families = 0

    def town(self):
        rng = self.rng
        return rng.choices(TOWNS, [t[3] for t in TOWNS])[0]

    def family_in(self, town_ar: str) -> int:
        rng = self.rng
        if town_ar not in self.town_families:
            k = rng.randint(8, 16)
            pool: list[int] = []
            while len(pool) < k:
                i = rng.choices(range(len(FAMILY_NAMES)), FAMILY_W)[0]
                if i not in pool:
                    pool.append(i)
            self.town_families[town_ar] = pool
        pool = self.town_families[town_ar]
        return rng.choices(pool, _zipf(len(pool), 0.9))[0]

    def male(self, avoid=()) -> str:
        while True:
            n = self.rng.choices(MALE_NAMES, MALE_W)[0][0]
            if n not in avoid:
                return n

    def female(self, avoid=()) -> str:
        while True:
            n = self.rng.choices(FEMALE_NAMES, FEMALE_W)[0][0]
            if n not in avoid:
                return n

    def household(self, family: int, town, father: str, grandfather: str, kind: str,
                  first: str | None = None, avoid_birth: int | None = None,
                  avoid_date=None) -> None:
        rng = self.rng
        self.n_families += 1
        fid = f"F{self.n_families:05d}"
        mother = f"{self.female()} {self.rng.choices(FAMILY_NAMES, FAMILY_W)[0][0]}"
        size = 1 if first else rng.choices([1, 2, 3, 4], [60, 25, 10, 5])[0]
        date0 = _date(rng)
        while avoid_date and date0[:2] == avoid_date[:2]:
            date0 = _date(rng)
        base_birth = _birth_year(rng)
        while avoid_birth is not None and abs(base_birth - avoid_birth) < 1:
            base_birth = _birth_year(rng)
        used: list[str] = [father, grandfather]
        for k in range(size):
            sex = "F" if (k > 0 and rng.random() < 0.12) else "M"
            if k == 0 and first:
                given = first
            else:
                given = self.male(used) if sex == "M" else self.female(used)
            used.append(given)
            birth = base_birth if k == 0 else max(1950, min(2000, base_birth + rng.choice([-1, 1]) * rng.randint(1, 8)))
            date = date0 if (k == 0 or rng.random() < 0.6) else _shift_months(date0, rng.randint(1, 18))
            if date[0] > 2015:
                date = date0
            birth_town = town if rng.random() < 0.8 else self.town()
            self.persons.append({
                "person_id": f"P{len(self.persons) + 1:05d}", "family_id": fid, "kind": kind if k == 0 else "sibling",
                "first": given, "father": father, "grandfather": grandfather, "family": FAMILY_NAMES[family][0],
                "mother": mother, "sex": sex, "birth": birth, "gov": town[0], "town": town[1],
                "town_lat": town[2], "birth_town": birth_town, "date": date,
                "agency": rng.choices(range(len(AGENCIES)), [a[2] for a in AGENCIES])[0],
                "kunya": self.male(used),
            })


# --- reports -----------------------------------------------------------------------------------

SOURCES = ["family", "ngo", "lawyer", "committee"]


def _report(p: dict, source: str, slips: set[str], rng: random.Random) -> dict:
    tags: set[str] = {f"src:{source}"} | {f"slip:{s}" for s in slips}
    habit = _ar_habit(rng)
    first, father, gfather, family = p["first"], p["father"], p["grandfather"], p["family"]
    if "father_cut" in slips:
        father = "عبد"
    drop_al = rng.random() < 0.15
    fam_ar = family
    if drop_al:
        if family.startswith("ال"):
            fam_ar = family[2:]
        elif " " not in family:
            fam_ar = "ال" + family
        else:
            drop_al = False
        if drop_al:
            tags.add("al")
    sex = p["sex"]
    if "sex" in slips:
        sex = "F" if sex == "M" else "M"
    birth = p["birth"]
    if "year1" in slips:
        birth += rng.choice([-1, 1])
    if "year2" in slips:
        birth += rng.choice([-2, 2])
    date = p["date"]
    if "month" in slips:
        k = -1 if date[1] == 1 else (1 if date[1] == 12 else rng.choice([-1, 1]))
        date = _shift_months(date, k)
        if date[0] != p["date"][0]:
            tags.add("slip:month_yearb")
    if "arrest_year" in slips:
        date = (date[0] + (1 if date[0] < 2015 else -1), date[1], date[2])
    town_ar, town_lat = p["town"], rng.choice(p["town_lat"])
    gov_lat = rng.choice(PLACES[p["gov"]][1])
    if "town_as_gov" in slips:
        town_ar, town_lat = p["gov"], gov_lat
    ag_ar, ag_lat, _ = AGENCIES[p["agency"]]

    title = rng.random() < 0.07
    kunya = rng.random() < 0.05
    family_first = False
    short = False
    row = {"sex": "", "birth_year": "", "birth_place": "", "governorate": "", "city": "", "arrest_date": "",
           "arresting_agency": "", "first_name": "", "father_name": "", "family_name": "", "mother_name": "",
           "full_name_ar": "", "full_name_latin": ""}

    def slip_name(s: str) -> str:
        if "swap" in slips:
            s2 = _swap(s, rng)
        elif "drop" in slips:
            s2 = _drop(s, rng)
        else:
            return s
        return s2

    def ar_parts(parts: list[str]) -> list[str]:
        return [_ar_write(x, habit, tags) for x in parts]

    def lat_given(ar: str, french: bool) -> str:
        s = _latin_given(ar, rng)
        if french:
            s = _french(s, rng)
        if rng.random() < 0.15:
            s = _vowel_noise(s, rng)
            tags.add("vowel")
        return s

    def lat_name(parts_ar: list[str], fam: str, french: bool, fam_first: bool) -> str:
        given = [lat_given(first if i == 0 else x, french) for i, x in enumerate(parts_ar)]
        given[0] = slip_name(given[0])
        f = _latin_family(fam, rng, drop_al or rng.random() < 0.2)
        if french:
            f = _french(f, rng)
        words = [f] + given if fam_first else given + [f]
        return " ".join(words)

    def name_ar_full(parts: list[str], fam: str, fam_first: bool) -> str:
        ps = ar_parts(parts + [fam])
        words = [ps[-1]] + ps[:-1] if fam_first else ps
        return " ".join(words)

    def add_title_kunya_ar(name: str) -> str:
        if title:
            name = rng.choice(TITLES_AR) + " " + name
            tags.add("title")
        if kunya:
            k = _ar_write("أبو " + p["kunya"], habit, tags)
            name = name + (f" ({k})" if rng.random() < 0.5 else f" - {k}")
            tags.add("kunya")
        return name

    def add_title_kunya_lat(name: str, french: bool) -> str:
        if title:
            name = rng.choice(TITLES_LAT) + " " + name
            tags.add("title")
        if kunya:
            k = ("Abou " if french else "Abu ") + lat_given(p["kunya"], french)
            name = name + (f" ({k})" if rng.random() < 0.5 else f" - {k}")
            tags.add("kunya")
        return name

    first_w = slip_name(first) if ("swap" in slips or "drop" in slips) else first

    if source == "family":
        fw, fa, fm = ar_parts([first_w, father, fam_ar])
        if title:
            fw = rng.choice(TITLES_AR) + " " + fw
            tags.add("title")
        row.update(first_name=fw, father_name=fa, family_name=fm)
        if rng.random() < 0.5:
            parts = [first_w, father, gfather] if rng.random() < 0.5 else [first_w, father]
            row["full_name_ar"] = add_title_kunya_ar(name_ar_full(parts, fam_ar, False))
        if rng.random() < 0.9:
            row["mother_name"] = " ".join(ar_parts(p["mother"].split()))
        row["sex"] = "ذكر" if sex == "M" else "أنثى"
        row["birth_year"] = (f"{birth}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}" if rng.random() < 0.3
                             else str(birth))
        if rng.random() < 0.6:
            row["birth_place"] = p["birth_town"][1] if "town_as_gov" not in slips else town_ar
        row["governorate"], row["city"] = p["gov"], town_ar
        row["arrest_date"] = f"{date[0]}-{date[1]:02d}-{date[2]:02d}"
        if rng.random() < 0.8:
            row["arresting_agency"] = rng.choice(ag_ar)
    elif source == "ngo":
        family_first = rng.random() < 0.2
        short = rng.random() < 0.15
        parts = [first_w] if short else [first_w, father]
        script = rng.choices(["ar", "lat", "both"], [50, 25, 25])[0]
        if script in ("ar", "both"):
            row["full_name_ar"] = add_title_kunya_ar(name_ar_full(parts, fam_ar, family_first))
        if script in ("lat", "both"):
            row["full_name_latin"] = add_title_kunya_lat(lat_name(parts, family, False, family_first), False)
        if script == "lat":
            tags.add("latin_only")
        if rng.random() < 0.3:
            row["mother_name"] = " ".join(ar_parts(p["mother"].split())) if script != "lat" else \
                lat_given(p["mother"].split()[0], False) + " " + _latin_family(p["mother"].split(" ", 1)[1], rng, False)
        row["sex"] = sex if rng.random() < 0.85 else ""
        row["birth_year"] = str(birth) if rng.random() < 0.7 else ""
        row["governorate"] = p["gov"] if script != "lat" else gov_lat
        row["city"] = town_ar if script != "lat" else town_lat
        row["arrest_date"] = f"{date[0]}-{date[1]:02d}"
        if rng.random() < 0.75:
            row["arresting_agency"] = rng.choice(ag_ar) if script != "lat" else rng.choice(ag_lat)
    elif source == "lawyer":
        french = rng.random() < 0.7
        if french:
            tags.add("french")
        parts = [first_w, father] if rng.random() < 0.7 else [first_w, father, gfather]
        name = add_title_kunya_lat(lat_name(parts, family, french, False), french)
        if rng.random() < 0.7:
            name = name.upper()
        row["full_name_latin"] = name
        tags.add("latin_only")
        if rng.random() < 0.2:
            m1, m2 = p["mother"].split(" ", 1)
            row["mother_name"] = lat_given(m1, french) + " " + _latin_family(m2, rng, False)
        row["sex"] = sex
        row["birth_year"] = str(birth) if rng.random() < 0.8 else ""
        row["governorate"] = gov_lat
        row["city"] = town_lat
        row["arrest_date"] = (f"{date[0]}-{date[1]:02d}-{date[2]:02d}" if rng.random() < 0.5
                              else f"{date[0]}-{date[1]:02d}")
        if rng.random() < 0.75:
            row["arresting_agency"] = rng.choice(ag_lat)
    else:  # committee
        short = rng.random() < 0.6
        family_first = rng.random() < 0.2
        parts = [first_w] if short else [first_w, father]
        row["full_name_ar"] = add_title_kunya_ar(name_ar_full(parts, fam_ar, family_first))
        row["sex"] = ("ذكر" if sex == "M" else "أنثى") if rng.random() < 0.5 else ""
        row["birth_year"] = str(birth) if rng.random() < 0.3 else ""
        row["city"] = town_ar
        row["arrest_date"] = f"{date[0]}-{date[1]:02d}" if rng.random() < 0.6 else str(date[0])
        if rng.random() < 0.6:
            row["arresting_agency"] = rng.choice(ag_ar)
    if family_first:
        tags.add("family_first")
    if short:
        tags.add("short")
    if ("swap" in slips or "drop" in slips) and first_w == first:
        tags.discard("slip:swap")
        tags.discard("slip:drop")
    row["noise"] = ";".join(sorted(tags))
    return row


def generate(n_persons: int = 2500, seed: int = 21) -> pd.DataFrame:
    """Reports of ``n_persons`` persons (see the module docstring for the model and rates)."""
    rng = random.Random(seed)
    world = _World(rng)
    while len(world.persons) < n_persons:
        r = rng.random()
        if world.persons and r < 0.18:  # namesake of an existing person
            q = rng.choice(world.persons)
            if q["sex"] != "M":
                continue
            fam = next(i for i, f in enumerate(FAMILY_NAMES) if f[0] == q["family"])
            town = next(t for t in TOWNS if t[1] == q["town"])
            father = q["father"] if rng.random() < 0.4 else world.male([q["father"]])
            world.household(fam, town, father, world.male([q["grandfather"]]), "namesake", first=q["first"],
                            avoid_birth=q["birth"], avoid_date=q["date"])
            continue
        town = world.town()
        fam = world.family_in(town[1])
        grandfather = world.male()
        father = world.male([grandfather])
        world.household(fam, town, father, grandfather, "household")
        if rng.random() < 0.2:  # a cousin household
            uncle = world.male([father, grandfather])
            ctown = town if rng.random() < 0.8 else world.town()
            world.household(fam, ctown, uncle, grandfather, "cousin")
    persons = world.persons[:n_persons]
    rows = []
    for p in persons:
        n = rng.choices([1, 2, 3, 4, 5], [35, 33, 17, 10, 5])[0]
        sources = rng.sample(SOURCES, min(n, 4)) + ["ngo"] * max(0, n - 4)
        slips_by_report: list[set[str]] = [set() for _ in range(n)]
        if n >= 2:
            for kind, rate in SLIP_RATES.items():
                if rng.random() < rate:
                    slips_by_report[rng.randrange(n)].add(kind)
            if p["father"].startswith("عبد ") and rng.random() < FATHER_CUT_RATE:
                slips_by_report[rng.randrange(n)].add("father_cut")
        for src, slips in zip(sources, slips_by_report):
            row = _report(p, src, slips, rng)
            row.update(person_id=p["person_id"], family_id=p["family_id"])
            row["noise"] = row["noise"] + f";kind:{p['kind']}"
            row["truth"] = "|".join([p["first"], p["father"], p["grandfather"], p["family"], p["town"],
                                     str(p["birth"]), "-".join(map(str, p["date"])), p["mother"]])
            rows.append(row)
    rng.shuffle(rows)
    for i, row in enumerate(rows):
        row["report_id"] = f"FS{seed}-{i + 1:05d}"
    cols = ["report_id", "person_id", "family_id", "full_name_ar", "full_name_latin", "first_name", "father_name",
            "family_name", "mother_name", "sex", "birth_year", "birth_place", "governorate", "city", "arrest_date",
            "arresting_agency", "noise", "truth"]
    return pd.DataFrame(rows)[cols]
