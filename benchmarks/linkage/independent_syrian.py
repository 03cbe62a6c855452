"""An independent dev set for record linkage: reports of missing and detained Syrians.

Written from a description of how families and NGOs write such reports, *not* from athar's own
generators (devset.py, synthetic.py, slips.py were not read). Standard library + pandas only;
the same ``--seed`` gives the same file.

    python benchmarks/linkage/independent_syrian.py --out /tmp/indep.csv --persons 2600 --seed 8

Columns: the import template's report_id, source, full_name_ar, full_name_latin, first_name,
father_name, family_name, mother_name, sex, birth_year, birth_place, governorate, city,
arrest_date, arresting_agency, plus the truth: person_id and family_id (a household). A sidecar
``FILE.tags.csv`` gives, per report, the slips and features applied to it (for error analysis).

Noise model
-----------
Persons. Clans (family name + home town + patriarch) hold 1-3 households (fathers are brothers);
a household holds 1-4 detained persons (72/20/6/2 %): brothers share father, grandfather, mother
and family name and differ in their own given name (hard negatives), are often arrested the same
day by the same branch (50 %); ~8 % women; 5 % of multi-person households hold the father too.
The eldest son is named after his paternal grandfather (40 %), so cousins in one clan share first
name, grandfather, family name and town and differ in the father's name. ~3 % of persons get a
namesake: an unrelated person of the same first, father and family name in the same town.
Given names follow a skewed frequency (Muhammad ~11 %, Ahmad ~6 % of men), family names too.

Reports. 1-4 reports per person (25/35/25/15 %), each from a different source. Each source has
a style: script (Arabic only / Latin only / both), layout (full name in one field or split
first/father/family fields), name length (4-part, 3-part, first + family), transliteration
school (English / French / Syrian-mixed), how it writes dates, branches and places, and how
often it knows the mother, the birth year, the date. Per report:
- Arabic orthography of an informal writer: bare alef for hamza (أ/إ/آ → ا), ة → ه, ى ↔ ي,
  عبد الله ↔ عبدالله, rare tashkeel/tatweel, rare Persian letters (ی ک).
- Latin: one of several spellings per name (Mohammad/Muhammad/Mohamed/Mhd, Khaled/Khalid,
  Oussama/Usama), article al-/Al /El-/none, case, family name first in capitals (French style).
- Slips (one report at a time): father's compound name cut to "عبد"/"Abdul" (30 % of reports
  whose father's name is compound), a letter swapped / dropped / doubled / replaced by a
  look-alike in one name (8 %), wrong sex (2.5 %), birth year +-1 (10 % of those giving one),
  full birth date instead of a year, another branch (where he was seen later, 5 %).
- Wording: the same branch written several ways ("فرع فلسطين", "الفرع 235", "Palestine Branch",
  "235"); the arrest date exact, month only, year only, missing, or approximate (days/a month
  off); governorate only, city only, both, a suburb given as "Damascus", a displaced town.
- Name forms: title glued (المهندس, الدكتور, د., Dr., Eng.), kunya in brackets or after a dash
  (often أبو + the father's name), family name first, shortened to first + family name.
"""

from __future__ import annotations

import argparse
import csv
import random
from dataclasses import dataclass, field

import pandas as pd

# ---------------------------------------------------------------------------------------------
# Names: "Arabic:weight:Latin spellings (English-ish first, French-ish last)"

MALE = """
محمد:110:Mohammad/Muhammad/Mohamed/Mohammed/Mohamad/Mhd
أحمد:60:Ahmad/Ahmed/Ahmad/Ahmed
علي:25:Ali/Ali/Aly
حسن:18:Hasan/Hassan/Hassan
حسين:15:Hussein/Husain/Hussain/Houssein
خالد:22:Khaled/Khalid/Khaled
محمود:22:Mahmoud/Mahmud/Mahmood
مصطفى:14:Mustafa/Moustafa/Mostafa
عمر:20:Omar/Umar/Omar
يوسف:12:Yousef/Youssef/Yusuf/Youcef
إبراهيم:12:Ibrahim/Ibraheem/Brahim
إسماعيل:6:Ismail/Ismael/Esmail
يحيى:5:Yahya/Yehia/Yahia
زكريا:3:Zakaria/Zakariya/Zakariyya
سليمان:6:Suleiman/Sulaiman/Sleiman/Slimane
موسى:5:Mousa/Musa/Moussa
عيسى:4:Issa/Eissa/Isa
هيثم:4:Haitham/Haytham/Haitham
وليد:6:Walid/Waleed/Oualid
سامر:5:Samer/Samer
ماهر:5:Maher/Maher
باسل:4:Basel/Bassel
بشار:3:Bashar/Bachar
فراس:5:Firas/Feras
رامي:5:Rami/Rami
شادي:4:Shadi/Chadi
فادي:5:Fadi/Fadi
هاني:3:Hani/Hany
عماد:5:Imad/Emad
إياد:4:Iyad/Eyad/Iyad
زياد:5:Ziad/Ziyad
نزار:3:Nizar/Nezar
أنس:6:Anas/Anas
أسامة:6:Osama/Usama/Oussama
حمزة:7:Hamza/Hamzeh/Hamza
طارق:5:Tarek/Tariq/Tareq
ياسر:6:Yaser/Yasser/Yasser
عامر:4:Amer/Aamer/Amer
معاذ:4:Muaz/Moaz/Mouaz/Muadh
مازن:3:Mazen/Mazen
مهند:4:Muhannad/Mohannad/Mouhanad
غسان:3:Ghassan/Ghassan
جمال:4:Jamal/Gamal/Djamel
كمال:2:Kamal/Kamel
نبيل:3:Nabil/Nabeel
سمير:3:Samir/Sameer
عادل:3:Adel/Adil
فايز:2:Fayez/Faiz
رياض:3:Riyad/Riad
جهاد:4:Jihad/Jehad
نضال:3:Nidal/Nedal
منذر:2:Munzer/Monther/Mundhir
معتز:3:Moataz/Mutaz/Moutaz
بلال:5:Bilal/Belal
عمار:5:Ammar/Ammar
ياسين:4:Yassin/Yasin/Yassine
صالح:5:Saleh/Salih/Saleh
صلاح:3:Salah/Salah
فيصل:3:Faisal/Faysal
ناصر:3:Nasser/Naser
منير:2:Munir/Mounir
حسام:4:Husam/Hossam/Houssam
وسيم:3:Wassim/Wasim
وائل:4:Wael/Wail
رضوان:3:Radwan/Redwan
عدنان:4:Adnan/Adnan
مروان:3:Marwan/Marouane
قاسم:3:Qasem/Kassem/Qassim
جميل:3:Jamil/Jameel
نادر:2:Nader/Nader
سعيد:4:Said/Saeed/Saïd
سعد:2:Saad/Saad
عبدو:2:Abdo/Abdou
أيمن:4:Ayman/Aiman
أكرم:3:Akram/Akram
أنور:2:Anwar/Anouar
بكري:1:Bakri/Bakry
توفيق:2:Tawfiq/Tawfik/Toufik
ثائر:2:Thaer/Thair
جابر:2:Jaber/Jaber
حازم:3:Hazem/Hazem
حافظ:2:Hafez/Hafiz
حمدي:1:Hamdi/Hamdi
خليل:4:Khalil/Khalil
خضر:2:Khader/Khodr/Khidr
راتب:1:Rateb/Ratib
رائد:3:Raed/Raid
ربيع:2:Rabie/Rabih/Rabee
رشيد:2:Rashid/Rachid
زهير:2:Zuhair/Zouheir/Zuheir
سالم:3:Salem/Salem
سامي:3:Sami/Samy
سلطان:1:Sultan/Soltan
شريف:2:Sharif/Cherif
صبحي:2:Subhi/Sobhi
ضياء:2:Diaa/Diya/Dia
طه:3:Taha/Taha
عارف:1:Aref/Arif
عبود:2:Abboud/Aboud
عدي:2:Udai/Oday/Uday
عصام:3:Issam/Essam
علاء:3:Alaa/Ala/Alaa
غياث:2:Ghiath/Ghayath/Ghiyath
فؤاد:2:Fouad/Fuad
فواز:2:Fawaz/Fawwaz
قصي:2:Qusai/Qusay/Kusay
كنان:2:Kinan/Kenan
لؤي:2:Louay/Luay/Loai
مأمون:2:Mamoun/Mamun
مجد:2:Majd/Majd
محي الدين:2:Mohieddin/Muhyiddin/Mohieddine
مالك:2:Malek/Malik
منصور:2:Mansour/Mansur
مهدي:1:Mahdi/Mehdi
نايف:1:Nayef/Naif
نور الدين:2:Nour al-Din/Nureddin/Noureddine
هشام:3:Hisham/Hisham/Hicham
وحيد:1:Wahid/Wahid
يزن:2:Yazan/Yazan
يامن:1:Yamen/Yamen
أيهم:2:Ayham/Ayham
حسان:2:Hassan/Hassan/Hassane
حيدر:1:Haidar/Hayder
جواد:1:Jawad/Jawad
مرهف:1:Murhaf/Morhaf
مصعب:3:Musab/Mosab/Mousab
عثمان:3:Othman/Uthman/Osman
شاهر:1:Shaher/Chaher
نعمان:1:Nouman/Numan
ممدوح:2:Mamdouh/Mamduh
محسن:1:Mohsen/Muhsin
مؤيد:2:Moayad/Muayyad/Mouayad
بدر:1:Badr/Badr
بسام:3:Bassam/Bassam
تامر:2:Tamer/Tamer
جلال:2:Jalal/Jalal
حمود:2:Hammoud/Hamoud
خلدون:1:Khaldoun/Khaldun
ريان:1:Rayan/Rayan
زكي:1:Zaki/Zaki
سومر:1:Somar/Somar
طلال:2:Talal/Talal
عز الدين:2:Izz al-Din/Ezzeddin/Ezzeddine
علاء الدين:1:Alaa al-Din/Alaeddin/Alaeddine
فتحي:1:Fathi/Fathi
فهد:2:Fahd/Fahad
قتيبة:2:Qutaiba/Qutayba/Koutaiba
ماجد:2:Majed/Majid
معن:1:Maan/Maan
مفيد:1:Mufid/Moufid
نجيب:1:Najib/Nagib
هادي:1:Hadi/Hadi
همام:2:Humam/Hammam
يعقوب:1:Yaqoub/Yacoub
يونس:2:Younes/Yunus/Younis
أمجد:2:Amjad/Amjad
أسعد:2:Asaad/Asad
إدريس:1:Idris/Driss
بهاء:1:Bahaa/Baha
حكمت:1:Hikmat/Hekmat
رفعت:1:Rifaat/Refaat
سهيل:2:Suhail/Souheil
عمران:1:Omran/Imran
غازي:2:Ghazi/Ghazi
كريم:2:Karim/Kareem
وسام:2:Wissam/Wisam
شحادة:1:Shehadeh/Shahada/Chehade
ثامر:1:Thamer/Thamer
"""

# compound "عبد X": Arabic X : weight : Latin root spellings
ABD = """
الله:30:Allah/allah
الرحمن:18:Rahman/Rahmane
الكريم:8:Karim/Kareem
القادر:8:Qader/Kader/Qadir
الرزاق:5:Razzaq/Razak/Razzak
الحميد:4:Hamid/Hamid
الرحيم:3:Rahim/Rahim
السلام:5:Salam/Salam
الغني:3:Ghani/Ghani
العزيز:5:Aziz/Aziz
اللطيف:4:Latif/Latif
الناصر:4:Nasser/Naser
المجيد:3:Majid/Majeed
الباسط:3:Basit/Basset
الهادي:3:Hadi/Hadi
الإله:3:Ilah/Elah
المنعم:2:Monem/Moneim/Munim
الوهاب:2:Wahab/Wahhab
الجبار:1:Jabbar/Jabar
الستار:2:Sattar/Satar
الحكيم:2:Hakim/Hakim
الفتاح:2:Fattah/Fatah
الحليم:2:Halim/Halim
الرؤوف:2:Raouf/Rauf
"""

FEMALE = """
فاطمة:30:Fatima/Fatma/Fatmeh/Fatima
عائشة:10:Aisha/Aysha/Aicha
خديجة:12:Khadija/Khadijeh/Khadija
مريم:10:Maryam/Mariam/Meriem
زينب:8:Zainab/Zeinab/Zaynab
نور:8:Nour/Noor/Nur
رنا:4:Rana/Rana
هبة:5:Hiba/Heba/Hiba
آمنة:7:Amina/Amneh/Amena
سارة:5:Sara/Sarah/Sara
ريم:4:Reem/Rim
لينا:3:Lina/Lina
دعاء:3:Duaa/Doaa/Douaa
أسماء:5:Asmaa/Asma/Asma
سلمى:4:Salma/Salma
رغد:2:Raghad/Raghad
هدى:4:Huda/Hoda/Houda
منى:4:Mona/Muna
سعاد:3:Souad/Suad/Souad
سميرة:3:Samira/Sameera
نادية:3:Nadia/Nadiya
ليلى:4:Layla/Leila/Leila
رشا:3:Rasha/Racha
ديمة:2:Dima/Deema
غادة:3:Ghada/Ghada
وفاء:3:Wafaa/Wafa
إيمان:5:Iman/Eman/Imane
أمل:4:Amal/Amal
سهام:3:Siham/Seham
ابتسام:2:Ibtisam/Ibtissam
رحاب:2:Rehab/Rihab
حنان:4:Hanan/Hanane
جميلة:2:Jamila/Djamila
نجوى:2:Najwa/Najoua
سناء:2:Sanaa/Sana
روعة:2:Rawaa/Rawaa
بشرى:2:Bushra/Boushra
يسرى:2:Yusra/Yousra
رهف:2:Rahaf/Rahaf
آلاء:2:Alaa/Alaa
شيماء:2:Shaimaa/Chaima
إسراء:3:Israa/Esraa
بيان:2:Bayan/Bayane
تغريد:1:Taghrid/Taghreed
ثناء:1:Thanaa/Thanaa
حلا:2:Hala/Hala
خلود:2:Kholoud/Khulud
رزان:3:Razan/Razane
ريما:2:Rima/Reema
زهرة:2:Zahra/Zahraa
سوسن:2:Sawsan/Soussan
شهد:1:Shahd/Shahd
صفاء:2:Safaa/Safa
عبير:2:Abir/Abeer
عفاف:2:Afaf/Afaf
علا:2:Ola/Ula
فرح:2:Farah/Farah
لمى:2:Lama/Lama
مها:2:Maha/Maha
ميساء:2:Maysaa/Mayssa
نسرين:2:Nisreen/Nesrine
هالة:2:Hala/Hala
هيام:1:Hiyam/Hiam
وداد:1:Widad/Widad
يارا:1:Yara/Yara
أميرة:2:Amira/Amira
بتول:1:Batoul/Batul
حياة:2:Hayat/Hayat
دلال:1:Dalal/Dalal
رقية:2:Ruqaya/Roukaya
سلوى:2:Salwa/Salwa
سمر:2:Samar/Samar
عزة:1:Azza/Azza
فدوى:1:Fadwa/Fadoua
كوثر:1:Kawthar/Kaouther
لبنى:1:Lubna/Loubna
ماجدة:1:Majida/Majda
نهى:1:Noha/Nuha
هند:2:Hind/Hind
بسمة:1:Basma/Basma
صباح:2:Sabah/Sabah
مروة:2:Marwa/Maroua
نوال:2:Nawal/Naoual
هناء:1:Hanaa/Hana
سهى:1:Suha/Souha
ميادة:1:Mayada/Mayada
هيفاء:1:Haifa/Haifaa
"""

# family names: Arabic:weight:Latin stems (the article is added by the writer's habit)
FAMILY = """
الحسن:12:Hasan/Hassan
الحسين:10:Hussein/Husain
العلي:14:Ali/Ali
الأحمد:14:Ahmad/Ahmed
المحمد:14:Mohammad/Muhammad/Mohamed
العمر:8:Omar/Omar
الخطيب:8:Khatib/Khateeb
الشيخ:6:Sheikh/Shaykh/Cheikh
السيد:5:Sayed/Sayyed
الحمود:7:Hamoud/Hammoud
الجاسم:6:Jasem/Jassem/Jasim
الخليل:5:Khalil/Khalil
الموسى:6:Mousa/Musa
الإبراهيم:6:Ibrahim/Ibrahim
الصالح:6:Saleh/Salih
العبد الله:6:Abdullah/Abdallah
الدرويش:4:Darwish/Darwiche
النجار:4:Najjar/Najar
الحلبي:4:Halabi/Halabi
المصري:4:Masri/Misri
الحمصي:4:Homsi/Himsi
الشامي:4:Shami/Chami
الحموي:3:Hamwi/Hamawi
الإدلبي:2:Idlibi/Idlibi
الديري:2:Deiri/Dairi
الحوراني:3:Hourani/Horani
الزعبي:6:Zoubi/Zubi/Zoabi
المقداد:3:Miqdad/Mekdad/Mikdad
الحريري:4:Hariri/Hariri
الرفاعي:3:Rifai/Refaai/Rifaii
الكردي:3:Kurdi/Kurdy
التركماني:2:Turkmani/Torkmani
البكور:2:Bakkour/Bakour
السويد:2:Sweid/Suwaid
العكيدي:2:Ogaidi/Akidi
طلاس:2:Tlass/Tallas
قباني:2:Kabbani/Qabbani
الأتاسي:2:Atassi/Atasi
الجندي:3:Jundi/Joundi
سكر:2:Sukkar/Soukkar
الشهابي:2:Shehabi/Chehabi
الأيوبي:2:Ayoubi/Ayyubi
الكيلاني:2:Kilani/Keilani
البيطار:3:Bitar/Baitar
الطباع:2:Tabbaa/Tabaa
الحكيم:2:Hakim/Hakim
الخياط:3:Khayyat/Khayat
الحداد:3:Haddad/Hadad
العطار:3:Attar/Attar
الدباغ:2:Dabbagh/Dabagh
القصاب:3:Qassab/Kassab
الحلاق:2:Hallaq/Hallak
الصباغ:2:Sabbagh/Sabagh
النحاس:2:Nahhas/Nahas
الزين:3:Zein/Zain
الأسعد:3:Asaad/Asad
الخضر:3:Khader/Khodr
الحاج:3:Hajj/Haj
العيسى:4:Issa/Eissa
اليوسف:4:Yousef/Youssef
السليمان:4:Suleiman/Sleiman
الملا:2:Mulla/Molla
الحمادة:3:Hamada/Hamadeh
العبيد:3:Obeid/Ubaid
الخلف:3:Khalaf/Khalaf
الفارس:3:Fares/Faris
الضاهر:2:Daher/Dhaher
الراشد:3:Rashed/Rached
السالم:3:Salem/Salem
الحميد:3:Hamid/Hamid
العثمان:3:Othman/Osman
الرحمون:2:Rahmoun/Rahmun
العواد:3:Awad/Awwad
الفرحان:2:Farhan/Farhan
الدخيل:2:Dakhil/Dakheel
الهلال:2:Hilal/Helal
العبود:3:Abboud/Aboud
الشحادة:2:Shehadeh/Chehade
المحمود:4:Mahmoud/Mahmud
البرازي:2:Barazi/Barazi
الدروبي:2:Droubi/Durubi
الشيشكلي:1:Shishakli/Chichakli
القاسم:3:Qasem/Kassem
الطحان:2:Tahhan/Tahan
النعسان:2:Naasan/Nasan
حجازي:2:Hijazi/Hegazi
قطان:2:Kattan/Qattan
زيدان:2:Zeidan/Zaidan
حمدان:2:Hamdan/Hamdane
سلامة:2:Salameh/Salama
نصر:2:Nasr/Nasr
مراد:2:Mourad/Murad
خضور:2:Khaddour/Khaddur
بركات:2:Barakat/Barakat
حمزة:2:Hamza/Hamzeh
ديب:2:Dib/Deeb
شاهين:2:Shahin/Chahine
عرنوس:1:Arnous/Arnus
قدور:2:Kaddour/Qaddour
منصور:2:Mansour/Mansur
يونس:2:Younes/Younis
حسون:2:Hassoun/Hassun
درويش:2:Darwish/Darwich
أبو زيد:3:Abu Zaid/Abou Zeid/Abuzaid
أبو عمر:2:Abu Omar/Abou Omar
أبو الخير:2:Abu al-Khair/Aboul Kheir/Abulkhair
أبو شقرا:1:Abu Shakra/Abou Chakra
أبو ريشة:1:Abu Risha/Abou Richeh
عبد الرحمن:2:Abdulrahman/Abdel Rahman/Abd al-Rahman
عبد الكريم:2:Abdulkarim/Abdel Karim/Abd al-Karim
عبد الهادي:1:Abdulhadi/Abdel Hadi/Abd al-Hadi
عبد الواحد:1:Abdulwahed/Abdel Wahed/Abd al-Wahid
الأسود:2:Aswad/Aswad
الأبرش:1:Abrash/Abrache
الأشقر:2:Ashkar/Ashqar
الأطرش:2:Atrash/Atrache
الأصفر:2:Asfar/Asfar
الأخرس:1:Akhras/Akhras
البني:1:Bunni/Bounni
الترك:2:Turk/Tork
الجبوري:2:Jubouri/Jbouri
الجمل:2:Jamal/Jamel
الحجي:2:Hajji/Hajji
الحراكي:1:Hraki/Hariki
الحسيني:2:Husseini/Husseini
الحلو:2:Helou/Hilu
الحمدان:2:Hamdan/Hamdan
الخالد:2:Khaled/Khalid
الخوجة:1:Khoja/Khodja
الدالاتي:1:Dalati/Dalati
الدوماني:2:Doumani/Dumani
الرومي:1:Roumi/Rumi
السباعي:2:Sibai/Sebai
السقا:2:Saqqa/Sakka
السمان:2:Samman/Saman
الشعار:2:Shaar/Chaar
الشمالي:1:Shamali/Chamali
الصفدي:2:Safadi/Safadi
الصوفي:2:Soufi/Sufi
الطويل:2:Tawil/Taweel
العاني:1:Ani/Aani
العباس:2:Abbas/Abbas
العرعور:1:Arour/Araour
العسلي:2:Asali/Assali
العقاد:2:Akkad/Aqqad
الغزاوي:1:Ghazawi/Ghazaoui
الغزي:1:Ghazzi/Ghazi
الفرا:1:Farra/Farra
القادري:2:Qadiri/Kadri
القدسي:1:Qudsi/Koudsi
القضماني:1:Qadmani/Kadmani
الكحال:1:Kahhal/Kahal
اللحام:2:Lahham/Laham
المالح:1:Maleh/Malih
المارديني:1:Mardini/Mardini
المصطفى:3:Mustafa/Moustafa
المعلم:2:Moallem/Muallem
المنجد:1:Munajjed/Monajed
المهايني:1:Mahayni/Mahaini
النابلسي:2:Nabulsi/Naboulsi
النوري:2:Nouri/Nuri
الهندي:1:Hindi/Hendi
بدران:2:Badran/Badrane
بكار:2:Bakkar/Bakar
جبر:2:Jabr/Jaber
جمعة:3:Jumaa/Jomaa/Joumaa
حماد:2:Hammad/Hamad
حيدر:2:Haidar/Hayder
خليفة:2:Khalifa/Khalifeh
دياب:2:Diab/Dyab
رمضان:2:Ramadan/Ramadan
زكور:1:Zakkour/Zakour
سليم:2:Salim/Selim
سويدان:1:Swaidan/Souidan
شعبان:2:Shaaban/Chaabane
صالح:2:Saleh/Salah
طه:2:Taha/Taha
عبيد:2:Obeid/Obaid
عرابي:1:Arabi/Orabi
عساف:2:Assaf/Asaf
علوان:2:Alwan/Aloui
عمران:2:Omran/Imran
غنام:1:Ghannam/Ghanam
فاضل:2:Fadel/Fadil
فرحات:1:Farhat/Farhat
قاسم:2:Qasem/Kassem
كنعان:2:Kanaan/Kanan
لبابيدي:1:Lababidi/Lababidi
مخلوف:1:Makhlouf/Makhluf
مرعي:2:Marei/Mer3i
معروف:2:Maarouf/Marouf
نجم:2:Najm/Nejm
نعيم:1:Naim/Naeem
هاشم:2:Hashem/Hachem
ياسين:2:Yassin/Yassine
يوسف:2:Youssef/Yousef
الحلقي:1:Halqi/Halki
المسالمة:2:Masalmeh/Masalma
المحاميد:2:Mahamid/Mhamid
أبازيد:2:Abazeid/Abazid
الصياصنة:1:Sayasneh/Siasna
الشرع:1:Sharaa/Shara
الجوابرة:1:Jawabra/Jawabreh
البلخي:1:Balkhi/Balkhi
الزعيم:1:Zaim/Zaeem
الحشيش:1:Hashish/Hachich
العبد:2:Abd/Abed
الحاج علي:2:Hajj Ali/Haj Ali
الشيخ حسن:1:Sheikh Hasan/Cheikh Hassan
الخطاب:1:Khattab/Khatab
الكعكة:1:Kaaka/Kaake
الرز:1:Rez/Riz
الفحام:1:Fahham/Faham
البغدادي:1:Baghdadi/Baghdadi
الحمادي:1:Hamadi/Hammadi
المحيميد:1:Mheimid/Muhaimid
الدهان:1:Dahhan/Dahan
الجربا:1:Jarba/Jarba
العزو:1:Azzo/Azo
الحميدي:2:Humaidi/Hmeidi
الخلوف:1:Khallouf/Khalluf
النعيمي:2:Nuaimi/Nouaimi
العبد الرحمن:1:Abdulrahman/Abdel Rahman
"""


def _table(text: str) -> list[tuple[str, float, list[str]]]:
    rows = []
    for line in text.strip().splitlines():
        arabic, weight, latin = line.split(":")
        rows.append((arabic, float(weight), latin.split("/")))
    return rows


def _abd_names() -> list[tuple[str, float, list[str]]]:
    out = []
    for tail, weight, roots in _table(ABD):
        spellings = []
        for root in roots:
            r = root[0].upper() + root[1:]
            spellings += [f"Abdul{r.lower()}", f"Abdul {r}", f"Abd al-{r}", f"Abd Al {r}", f"Abdel {r}",
                          f"Abdel{r.lower()}"]
        if tail == "الله":
            spellings = ["Abdullah", "Abdallah", "Abd Allah", "Abdellah", "Abdalla", "Abdulla"]
        out.append(("عبد " + tail, weight, spellings))
    return out


MALE_NAMES = _table(MALE) + _abd_names()
FEMALE_NAMES = _table(FEMALE)
FAMILY_NAMES = _table(FAMILY)
LATIN = {a: spellings for a, _w, spellings in MALE_NAMES + FEMALE_NAMES}
FAMILY_LATIN = {a: spellings for a, _w, spellings in FAMILY_NAMES}

# ---------------------------------------------------------------------------------------------
# Places: governorate -> (Latin spellings, [(city, Latin spellings)])

PLACES = {
    "دمشق": (["Damascus", "Dimashq", "Damas"], [("دمشق", ["Damascus", "Damas"]), ("الميدان", ["Midan", "al-Midan"]),
                                                 ("برزة", ["Barzeh", "Barza"]), ("القابون", ["Qaboun", "Kaboun"]),
                                                 ("جوبر", ["Jobar", "Jawbar"]), ("كفرسوسة", ["Kafr Sousa", "Kafarsouseh"])]),
    "ريف دمشق": (["Rif Dimashq", "Damascus Countryside", "Rural Damascus", "Reef Damascus"],
                 [("دوما", ["Douma", "Duma"]), ("داريا", ["Daraya", "Darayya"]),
                  ("المعضمية", ["Moadamiyeh", "Muadamiyat al-Sham"]), ("حرستا", ["Harasta", "Harasta"]),
                  ("عربين", ["Arbin", "Erbin"]), ("الزبداني", ["Zabadani", "Al-Zabadani"]), ("التل", ["al-Tall", "Al Tal"]),
                  ("يبرود", ["Yabroud", "Yabrud"]), ("قدسيا", ["Qudsaya", "Koudsaya"]), ("ببيلا", ["Babbila", "Beit Sahem"][:1]),
                  ("سقبا", ["Saqba", "Sakba"]), ("كفربطنا", ["Kafr Batna", "Kafrbatna"]), ("زملكا", ["Zamalka", "Zamalka"]),
                  ("مضايا", ["Madaya", "Madaya"]), ("النبك", ["Nabk", "al-Nabek"]), ("الكسوة", ["Kisweh", "Al Kiswah"])]),
    "حمص": (["Homs", "Hims"], [("حمص", ["Homs", "Hims"]), ("تلبيسة", ["Talbiseh", "Talbisah"]), ("الرستن", ["Rastan", "al-Rastan"]),
                             ("القصير", ["Qusayr", "Al-Qusair"]), ("تلكلخ", ["Talkalakh", "Tal Kalakh"]),
                             ("الحولة", ["Houla", "al-Hula"])]),
    "حماة": (["Hama", "Hamah", "Hamat"], [("حماة", ["Hama", "Hamah"]), ("السلمية", ["Salamiyah", "Salamieh"]),
                                        ("كفرزيتا", ["Kafr Zita", "Kafrzita"]), ("اللطامنة", ["Latamneh", "al-Lataminah"]),
                                        ("مورك", ["Morek", "Murek"])]),
    "حلب": (["Aleppo", "Halab", "Alep"], [("حلب", ["Aleppo", "Alep"]), ("منبج", ["Manbij", "Menbij"]), ("الباب", ["al-Bab", "Al Bab"]),
                                       ("اعزاز", ["Azaz", "A'zaz"]), ("عندان", ["Anadan", "Andan"]),
                                       ("تل رفعت", ["Tal Rifaat", "Tell Rifaat"]), ("دارة عزة", ["Darat Izza", "Daret Azza"])]),
    "إدلب": (["Idlib", "Idleb"], [("إدلب", ["Idlib", "Idleb"]), ("معرة النعمان", ["Maarat al-Numan", "Ma'arrat an-Nu'man"]),
                               ("سراقب", ["Saraqib", "Saraqeb"]), ("جسر الشغور", ["Jisr al-Shughur", "Jisr ash-Shughur"]),
                               ("أريحا", ["Ariha", "Areeha"]), ("خان شيخون", ["Khan Shaykhun", "Khan Sheikhoun"]),
                               ("كفرنبل", ["Kafranbel", "Kafr Nabl"])]),
    "درعا": (["Daraa", "Deraa", "Dar'a"], [("درعا", ["Daraa", "Deraa"]), ("نوى", ["Nawa", "Nawa"]),
                                         ("الصنمين", ["al-Sanamayn", "Sanamein"]), ("إنخل", ["Inkhil", "Inkhel"]),
                                         ("طفس", ["Tafas", "Tafas"]), ("بصرى الشام", ["Busra al-Sham", "Bosra"]),
                                         ("جاسم", ["Jasim", "Jassem"]), ("الحراك", ["al-Hirak", "Hrak"])]),
    "دير الزور": (["Deir ez-Zor", "Deir Ezzor", "Dayr al-Zawr"], [("دير الزور", ["Deir ez-Zor", "Deir Ezzor"]),
                                                                 ("الميادين", ["Mayadin", "al-Mayadeen"]),
                                                                 ("البوكمال", ["Abu Kamal", "Albukamal"])]),
    "الرقة": (["Raqqa", "Al-Raqqah", "Rakka"], [("الرقة", ["Raqqa", "Rakka"]), ("الطبقة", ["Tabqa", "al-Thawrah"][:1])]),
    "الحسكة": (["Hasakah", "Hassakeh", "Al-Hasakah"], [("الحسكة", ["Hasakah", "Hassakeh"]), ("القامشلي", ["Qamishli", "Kamishli"])]),
    "اللاذقية": (["Latakia", "Lattakia", "Lattaquie"], [("اللاذقية", ["Latakia", "Lattakia"]), ("جبلة", ["Jableh", "Jablah"])]),
    "طرطوس": (["Tartus", "Tartous"], [("طرطوس", ["Tartus", "Tartous"]), ("بانياس", ["Baniyas", "Banias"])]),
    "السويداء": (["Suwayda", "Sweida", "As-Suwayda"], [("السويداء", ["Suwayda", "Sweida"]), ("شهبا", ["Shahba", "Chahba"])]),
}
GOV_WEIGHT = {"دمشق": 10, "ريف دمشق": 22, "حمص": 14, "حماة": 9, "حلب": 12, "إدلب": 8, "درعا": 12, "دير الزور": 5,
              "الرقة": 2, "الحسكة": 2, "اللاذقية": 2, "طرطوس": 1, "السويداء": 1}

# ---------------------------------------------------------------------------------------------
# Branches: key -> (weight, Arabic wordings, Latin wordings)

AGENCIES = {
    "235": (20, ["فرع فلسطين", "الفرع 235", "فرع 235", "فرع فلسطين (235)", "الأمن العسكري - فرع فلسطين", "235"],
            ["Palestine Branch", "Branch 235", "235", "Far' Falastin", "Military Intelligence - Palestine Branch"]),
    "215": (14, ["الفرع 215", "فرع المداهمة", "سرية المداهمة 215", "فرع 215", "215"],
            ["Branch 215", "Raid Branch", "215", "Raids Brigade 215"]),
    "227": (8, ["فرع المنطقة", "الفرع 227", "فرع 227", "227"], ["Area Branch", "Branch 227", "227"]),
    "AFI": (14, ["المخابرات الجوية", "فرع المخابرات الجوية في مطار المزة", "الجوية", "المخابرات الجوية - المزة"],
            ["Air Force Intelligence", "AFI Mezzeh", "Air Force Intelligence Branch", "Mezzeh airport"]),
    "PS": (8, ["الأمن السياسي", "فرع الأمن السياسي", "السياسية"], ["Political Security", "Political Security Branch"]),
    "251": (10, ["فرع الخطيب", "الفرع 251", "أمن الدولة - الخطيب", "فرع 251", "251"],
            ["Al-Khatib Branch", "Branch 251", "251", "State Security (al-Khatib)"]),
    "SAY": (8, ["سجن صيدنايا", "صيدنايا", "سجن صيدنايا العسكري"], ["Saydnaya prison", "Sednaya", "Saydnaya"]),
    "248": (4, ["الفرع 248", "فرع التحقيق العسكري", "248"], ["Branch 248", "Military Investigation Branch", "248"]),
    "261": (5, ["فرع الأمن العسكري بحمص", "الفرع 261", "261"], ["Military Security Homs", "Branch 261", "261"]),
    "CHK": (5, ["حاجز", "حاجز للجيش", "على حاجز"], ["checkpoint", "army checkpoint"]),
}

TITLES = {"eng": (["المهندس", "م."], ["Eng.", "Engineer"]), "doc": (["الدكتور", "د.", "الطبيب"], ["Dr.", "Dr", "Doctor"]),
          "law": (["المحامي", "الأستاذ"], ["Lawyer", "Me"]), "stu": (["الطالب", "الطالب الجامعي"], ["student"]),
          "sheikh": (["الشيخ"], ["Sheikh", "Cheikh"]), "hajj": (["الحاج"], ["Hajj", "Haj"])}
# the same titles for a woman (same number of wordings)
TITLES_F = {"eng": ["المهندسة", "م."], "doc": ["الدكتورة", "د.", "الطبيبة"], "law": ["المحامية", "الأستاذة"],
            "stu": ["الطالبة", "الطالبة الجامعية"], "sheikh": ["الشيخة"], "hajj": ["الحاجة"]}

# ---------------------------------------------------------------------------------------------
# Sources and their habits

@dataclass
class Style:
    name: str
    weight: float
    script: tuple[float, float, float]      # Arabic only, Latin only, both
    split: float                            # split first/father/family fields
    length: tuple[float, float, float]      # 4-part, 3-part, first + family
    school: str                             # en / fr / sy (Latin habits)
    informal: float                         # chance of informal Arabic orthography per name
    mother: float
    birth: float
    date: tuple[float, float, float, float]  # exact, month only, year only, missing
    agency: float
    kunya: float = 0.03
    family_first: float = 0.02
    title: float = 0.3


SOURCES = [
    Style("family-form", 3, (0.6, 0.0, 0.4), 0.4, (0.5, 0.4, 0.1), "sy", 0.45, 0.75, 0.85, (0.6, 0.25, 0.05, 0.1), 0.8,
          kunya=0.06),
    Style("ngo-ar-list", 3, (1.0, 0.0, 0.0), 0.8, (0.15, 0.7, 0.15), "sy", 0.2, 0.25, 0.6, (0.55, 0.25, 0.1, 0.1), 0.85),
    Style("local-council", 2, (0.7, 0.0, 0.3), 0.1, (0.4, 0.45, 0.15), "sy", 0.35, 0.3, 0.5, (0.4, 0.35, 0.1, 0.15), 0.7,
          kunya=0.08),
    Style("intl-ngo-en", 2, (0.0, 1.0, 0.0), 0.3, (0.2, 0.5, 0.3), "en", 0.0, 0.3, 0.7, (0.4, 0.4, 0.1, 0.1), 0.75),
    Style("ngo-fr", 1, (0.0, 0.8, 0.2), 0.2, (0.2, 0.5, 0.3), "fr", 0.2, 0.2, 0.6, (0.35, 0.45, 0.1, 0.1), 0.7,
          family_first=0.35),
    Style("released-detainees", 2, (0.85, 0.0, 0.15), 0.0, (0.05, 0.45, 0.5), "sy", 0.5, 0.05, 0.15,
          (0.15, 0.25, 0.2, 0.4), 0.95, kunya=0.15, family_first=0.05),
    Style("lawyers", 1.5, (0.2, 0.0, 0.8), 0.5, (0.7, 0.3, 0.0), "en", 0.1, 0.5, 0.8, (0.75, 0.15, 0.05, 0.05), 0.9,
          family_first=0.1, title=0.5),
    Style("families-assoc", 1.5, (0.5, 0.1, 0.4), 0.6, (0.45, 0.45, 0.1), "sy", 0.3, 0.85, 0.9, (0.6, 0.25, 0.05, 0.1),
          0.8),
]


# ---------------------------------------------------------------------------------------------
# Persons

@dataclass
class Person:
    pid: str
    fid: str
    role: str
    first: str
    father: str
    grandfather: str
    family: str
    mother: str
    mother_family: str
    sex: str
    birth: tuple[int, int, int]
    birth_city: tuple[str, str]
    gov: str
    city: str
    arrest: tuple[int, int, int]
    agency: str
    later_agency: str
    profession: str | None
    kunya: str | None
    tags: list[str] = field(default_factory=list)


class Generator:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.persons: list[Person] = []
        self.n_fam = 0

    def pick(self, table):
        return self.rng.choices(table, weights=[w for _a, w, _l in table])[0][0]

    def male(self, avoid=()):
        while True:
            name = self.pick(MALE_NAMES)
            if name not in avoid:
                return name

    def date(self, lo=2011, hi=2019):
        r = self.rng
        year = r.choices(range(lo, hi + 1), weights=[6, 14, 14, 10, 6, 4, 3, 2, 2][: hi - lo + 1])[0]
        return year, r.randint(1, 12), r.randint(1, 28)

    def home(self):
        r = self.rng
        gov = r.choices(list(GOV_WEIGHT), weights=list(GOV_WEIGHT.values()))[0]
        cities = PLACES[gov][1]
        city = cities[0][0] if r.random() < 0.35 else r.choice(cities)[0]
        return gov, city

    def agency(self, gov):
        keys = list(AGENCIES)
        weights = [AGENCIES[k][0] * (3 if (k == "261" and gov == "حمص") else (0.2 if k == "261" else 1)) for k in keys]
        return self.rng.choices(keys, weights=weights)[0]

    def profession(self, year, sex):
        r = self.rng.random()
        if r < 0.05:
            return "eng"
        if r < 0.08:
            return "doc"
        if r < 0.10:
            return "law"
        if r < 0.16 and year >= 1988:
            return "stu"
        if r < 0.19 and sex == "M" and year < 1975:
            return "sheikh" if self.rng.random() < 0.5 else "hajj"
        return None

    def person(self, fid, role, first, father, grandfather, family, mother, mfam, sex, byear, gov, city, arrest, agency):
        r = self.rng
        pid = f"P{len(self.persons) + 1:05d}"
        birth = (byear, r.randint(1, 12), r.randint(1, 28))
        if r.random() < 0.7:
            bcity = (gov, city)
        else:
            g2, c2 = self.home()
            bcity = (g2, c2)
        later = self.agency(gov) if r.random() < 0.3 else agency
        kunya = None
        if sex == "M" and byear < 1990 and r.random() < 0.5:
            kunya = father if r.random() < 0.6 else self.male()
        p = Person(pid, fid, role, first, father, grandfather, family, mother, mfam, sex, birth, bcity, gov, city,
                   arrest, agency, later, self.profession(byear, sex), kunya)
        self.persons.append(p)
        return p

    def build(self, n_persons: int):
        r = self.rng
        while len(self.persons) < n_persons:
            family = self.pick(FAMILY_NAMES)
            gov, city = self.home()
            patriarch = self.male()
            n_house = r.choices([1, 2, 3], weights=[80, 15, 5])[0]
            fathers: list[str] = []
            for _house in range(n_house):
                father = self.male(avoid=fathers + [patriarch])
                fathers.append(father)
                self.n_fam += 1
                fid = f"F{self.n_fam:05d}"
                mother = self.pick(FEMALE_NAMES)
                mfam = self.pick(FAMILY_NAMES) if r.random() < 0.6 else family
                n_det = r.choices([1, 2, 3, 4], weights=[72, 20, 6, 2])[0]
                base_year = r.randint(1958, 1996)
                together = r.random() < 0.5
                arrest = self.date()
                agency = self.agency(gov)
                own: list[str] = []
                role = "single" if n_det == 1 else "sibling"
                if n_house > 1:
                    role = "cousin" if n_det == 1 else "sibling+cousin"
                if n_det > 1 and r.random() < 0.05:  # the father detained too
                    grand2 = self.male(avoid=[patriarch])
                    self.person(fid, "father", father, patriarch, grand2, family, self.pick(FEMALE_NAMES),
                                self.pick(FAMILY_NAMES), "M", base_year - r.randint(22, 32), gov, city,
                                arrest if together else self.date(), agency)
                    n_det -= 1
                for k in range(n_det):
                    sex = "F" if r.random() < 0.08 else "M"
                    if sex == "M":
                        if k == 0 and r.random() < 0.4:
                            first = patriarch
                        else:
                            first = self.male(avoid=own + [father])
                    else:
                        first = self.pick(FEMALE_NAMES)
                        while first in own:
                            first = self.pick(FEMALE_NAMES)
                    own.append(first)
                    year = min(2000, base_year + k * r.randint(1, 5))
                    self.person(fid, role, first, father, patriarch, family, mother, mfam, sex, year, gov, city,
                                arrest if (together or k == 0) else self.date(), agency if together else self.agency(gov))
        # namesakes: unrelated persons of the same first, father, family name and town
        for p in list(self.persons):
            if p.role == "father" or r.random() >= 0.03:
                continue
            self.n_fam += 1
            grand = self.male(avoid=[p.grandfather])
            year = p.birth[0] + r.choice([-1, 1]) * r.randint(3, 15)
            q = self.person(f"F{self.n_fam:05d}", "namesake", p.first, p.father, grand, p.family, self.pick(FEMALE_NAMES),
                            self.pick(FAMILY_NAMES), p.sex, min(2000, year), p.gov, p.city, self.date(),
                            self.agency(p.gov))
            p.tags.append("has_namesake")
            q.tags.append("has_namesake")


# ---------------------------------------------------------------------------------------------
# Writing a report

LOOKALIKE = {"ح": "خج", "خ": "حج", "ج": "حخ", "س": "ص", "ص": "س", "ت": "طث", "ط": "ت", "د": "ذ", "ذ": "د", "ر": "ز",
             "ز": "ر", "ع": "غ", "غ": "ع", "ه": "ة", "ق": "ف", "ف": "ق", "ن": "ب", "ب": "ن", "ي": "ى"}


def informal_ar(word: str, rng: random.Random) -> str:
    out = word
    if rng.random() < 0.6:
        out = out.replace("أ", "ا").replace("إ", "ا").replace("آ", "ا")
    if out.endswith("ة") and rng.random() < 0.4:
        out = out[:-1] + "ه"
    if out.endswith("ى") and rng.random() < 0.45:
        out = out[:-1] + "ي"
    elif out.endswith("ي") and rng.random() < 0.08:
        out = out[:-1] + "ى"
    if out.startswith("عبد ") and rng.random() < 0.4:
        out = "عبد" + out[4:]
    if out.startswith("أبو ") and rng.random() < 0.3:
        out = out.replace("أبو ", "ابو ")
    if "ؤ" in out and rng.random() < 0.3:
        out = out.replace("ؤ", "و")
    if "ئ" in out and rng.random() < 0.3:
        out = out.replace("ئ", "ي")
    return out


def typo(word: str, rng: random.Random, arabic: bool) -> tuple[str, str]:
    letters = [i for i, c in enumerate(word) if c.isalpha()]
    if len(letters) < 3:
        return word, ""
    kind = rng.choice(["swap", "drop", "double", "lookalike"] if arabic else ["swap", "drop", "double", "vowel"])
    i = rng.choice(letters[:-1])
    if kind == "swap" and word[i + 1].isalpha():
        return word[:i] + word[i + 1] + word[i] + word[i + 2:], "typo_swap"
    if kind == "drop":
        i = rng.choice(letters[1:])
        return word[:i] + word[i + 1:], "typo_drop"
    if kind == "double":
        return word[:i] + word[i] + word[i:], "typo_double"
    if kind == "lookalike":
        cands = [j for j in letters if word[j] in LOOKALIKE]
        if cands:
            j = rng.choice(cands)
            return word[:j] + rng.choice(LOOKALIKE[word[j]]) + word[j + 1:], "typo_lookalike"
    if kind == "vowel":
        cands = [j for j in letters if word[j].lower() in "aeiou"]
        if cands:
            j = rng.choice(cands)
            v = rng.choice([v for v in "aeiou" if v != word[j].lower()])
            return word[:j] + (v.upper() if word[j].isupper() else v) + word[j + 1:], "typo_vowel"
    return word[:i] + word[i + 1] + word[i] + word[i + 2:], "typo_swap"


class Writer:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def latin_given(self, name: str, school: str) -> str:
        r = self.rng
        spellings = LATIN[name]
        if name == "محمد" and school == "sy" and r.random() < 0.25:
            return r.choice(["Mhd", "Mhd.", "M."])
        if name == "محمد":
            spellings = spellings[:5]
        if school == "fr":
            return spellings[-1] if r.random() < 0.6 else r.choice(spellings)
        if school == "en":
            return spellings[0] if r.random() < 0.6 else r.choice(spellings)
        return r.choice(spellings)

    def latin_family(self, name: str, school: str) -> str:
        r = self.rng
        spellings = FAMILY_LATIN[name]
        stem = spellings[-1] if (school == "fr" and r.random() < 0.6) else r.choice(spellings)
        if not name.startswith("ال"):
            return stem
        art = r.choices(["al-", "Al-", "Al ", "El-", "El ", "Al", ""],
                        weights=[4, 4, 3, 1, 1, 1, 3] if school != "fr" else [1, 2, 1, 5, 3, 1, 2])[0]
        if art == "Al":
            return "Al" + stem.lower()
        return art + stem

    def report(self, p: Person, style: Style, number: int) -> tuple[dict, list[str]]:
        r = self.rng
        tags: list[str] = []
        script = r.choices(["ar", "lat", "both"], weights=style.script)[0]
        split = r.random() < style.split
        length = r.choices([4, 3, 2], weights=style.length)[0]
        tags += [f"script_{script}", "split" if split else "fullname", f"len{length}"]
        # --- which name parts
        father_ar = p.father
        slip_father = None
        if p.father.startswith("عبد ") and r.random() < 0.3:
            slip_father = "trunc_abd"
        first, fam = p.first, p.family
        # --- Arabic
        row = {k: "" for k in ("full_name_ar", "full_name_latin", "first_name", "father_name", "family_name",
                               "mother_name")}

        def ar(name):
            return informal_ar(name, r) if r.random() < style.informal else name

        parts_ar = {"first": ar(first), "father": "عبد" if slip_father else ar(father_ar),
                    "grand": ar(p.grandfather), "family": ar(fam)}
        school = style.school
        if script == "both" and school == "sy":
            school = r.choice(["en", "sy"])

        def lat_father():
            if slip_father:
                return r.choice(["Abdul", "Abd", "Abdel"])
            return self.latin_given(p.father, school)

        parts_lat = {"first": self.latin_given(first, school), "father": lat_father(),
                     "grand": self.latin_given(p.grandfather, school), "family": self.latin_family(fam, school)}
        if slip_father:
            tags.append("trunc_abd")
        # one typo in one name, in one script
        if r.random() < 0.08:
            which = r.choice(["first", "father", "family"] + (["grand"] if length == 4 else []))
            if length == 2 and which == "father":
                which = "family"
            if script in ("ar", "both") and (script == "ar" or r.random() < 0.5):
                parts_ar[which], kind = typo(parts_ar[which], r, True)
            else:
                parts_lat[which], kind = typo(parts_lat[which], r, False)
            if kind:
                tags.append(f"{kind}_{which}")
        # Persian letters (a writer on a Persian keyboard)
        if r.random() < 0.01:
            for k in parts_ar:
                parts_ar[k] = parts_ar[k].replace("ي", "ی").replace("ى", "ی").replace("ك", "ک")
            tags.append("persian_letters")
        if r.random() < 0.015:
            parts_ar["first"] = parts_ar["first"].replace("محمد", "محمّد").replace("حسن", "حسَن")
            tags.append("tashkeel")
        order = {4: ["first", "father", "grand", "family"], 3: ["first", "father", "family"], 2: ["first", "family"]}[length]
        family_first = r.random() < style.family_first
        if family_first:
            order = ["family"] + [o for o in order if o != "family"]
            tags.append("family_first")
        title = None
        if p.profession and r.random() < style.title:
            title = p.profession
            tags.append(f"title_{title}")
        kunya = p.kunya if (p.kunya and r.random() < style.kunya * 3) else None
        if kunya:
            tags.append("kunya" + ("_father" if kunya == p.father else ""))
        kunya_form = r.choice(["bracket", "dash_after", "dash_before"])

        def compose(parts, latin):
            words = [parts[o] for o in order]
            if latin and family_first and school == "fr":
                words[0] = words[0].upper()
            text = " ".join(words)
            if title:
                t = r.choice(TITLES[title][1] if latin else (TITLES_F[title] if p.sex == "F" else TITLES[title][0]))
                text = f"{t} {text}"
            if kunya:
                k = ("Abu " + self.latin_given(kunya, school)) if latin else ("أبو " + kunya)
                text = {"bracket": f"{text} ({k})", "dash_after": f"{text} - {k}", "dash_before": f"{k} - {text}"}[kunya_form]
            if latin:
                case = r.random()
                if case < 0.2:
                    text = text.upper()
                elif case < 0.25:
                    text = text.lower()
            return text

        if script in ("ar", "both"):
            if split:
                ar_titles = TITLES_F[title] if (title and p.sex == "F") else (TITLES[title][0] if title else [])
                row["first_name"] = parts_ar["first"] if not title else f"{r.choice(ar_titles)} {parts_ar['first']}"
                if length > 2:
                    row["father_name"] = parts_ar["father"]
                row["family_name"] = parts_ar["family"]
                if kunya and r.random() < 0.5:
                    row["family_name"] += f" (أبو {kunya})"
            else:
                row["full_name_ar"] = compose(parts_ar, False)
        if script in ("lat", "both"):
            if split and script == "lat":
                row["first_name"] = parts_lat["first"]
                if length > 2:
                    row["father_name"] = parts_lat["father"]
                row["family_name"] = parts_lat["family"]
            else:
                row["full_name_latin"] = compose(parts_lat, True)
        latin_only = script == "lat"
        # --- mother
        if r.random() < style.mother:
            if latin_only:
                m = self.latin_given(p.mother, school)
                if r.random() < 0.5:
                    m += " " + self.latin_family(p.mother_family, school)
            else:
                m = ar(p.mother)
                if r.random() < 0.5:
                    m += " " + ar(p.mother_family)
            row["mother_name"] = m
            tags.append("mother")
        # --- sex
        sex = p.sex
        if r.random() < 0.025:
            sex = "F" if sex == "M" else "M"
            tags.append("sex_wrong")
        if r.random() < 0.15:
            row["sex"] = ""
        elif latin_only:
            row["sex"] = r.choice({"M": ["M", "Male", "m"], "F": ["F", "Female", "f"]}[sex])
        else:
            row["sex"] = r.choices({"M": ["ذكر", "M", "ذ"], "F": ["أنثى", "F", "انثى"]}[sex], weights=[6, 3, 1])[0]
        # --- birth
        by, bm, bd = p.birth
        row["birth_year"] = ""
        if r.random() < style.birth:
            if r.random() < 0.10:
                by += r.choice([-1, 1])
                tags.append("birth_pm1")
            row["birth_year"] = f"{by}-{bm:02d}-{bd:02d}" if r.random() < 0.12 else str(by)
        row["birth_place"] = ""
        if r.random() < 0.35:
            g, c = p.birth_city
            if latin_only:
                row["birth_place"] = r.choice(PLACES[g][0]) if r.random() < 0.3 else r.choice(dict(PLACES[g][1])[c])
            else:
                row["birth_place"] = g if r.random() < 0.3 else c
        # --- residence
        g_lat = PLACES[p.gov][0]
        c_lat = dict(PLACES[p.gov][1])[p.city]
        how = r.choices(["both", "gov", "city", "suburb_as_damascus", "displaced", "none"],
                        weights=[50, 18, 17, 4, 4, 7])[0]
        gov, city = p.gov, p.city
        if how == "suburb_as_damascus" and p.gov == "ريف دمشق":
            gov, city = "دمشق", "دمشق"
            tags.append("suburb_as_damascus")
        elif how == "displaced":
            gov, city = self_home(r)
            tags.append("displaced_town")
        elif how in ("gov", "city", "none"):
            tags.append(f"place_{how}")
        if latin_only:
            g_lat, c_lat = PLACES[gov][0], dict(PLACES[gov][1])[city]
            row["governorate"] = "" if how in ("city", "none") else r.choice(g_lat)
            row["city"] = "" if how in ("gov", "none") else r.choice(c_lat)
        else:
            row["governorate"] = "" if how in ("city", "none") else (informal_ar(gov, r) if r.random() < 0.3 else gov)
            row["city"] = "" if how in ("gov", "none") else (informal_ar(city, r) if r.random() < 0.3 else city)
        # --- arrest date
        y, m, d = p.arrest
        kind = r.choices(["exact", "month", "year", "missing"], weights=style.date)[0]
        if kind != "missing" and r.random() < 0.07:
            shift = r.choice([-1, 1]) * (r.randint(1, 20) if r.random() < 0.6 else 30)
            total = y * 372 + (m - 1) * 31 + (d - 1) + shift
            y, m, d = total // 372, (total % 372) // 31 + 1, min(28, total % 31 + 1)
            tags.append("date_approx")
        row["arrest_date"] = {"exact": f"{y}-{m:02d}-{d:02d}", "month": f"{y}-{m:02d}", "year": str(y), "missing": ""}[kind]
        if kind != "exact":
            tags.append(f"date_{kind}")
        # --- agency
        agency = p.agency
        if p.later_agency != p.agency and r.random() < 0.2:
            agency = p.later_agency
            tags.append("agency_other")
        if r.random() < style.agency:
            row["arresting_agency"] = r.choice(AGENCIES[agency][2 if latin_only else 1])
        else:
            row["arresting_agency"] = ""
            tags.append("agency_missing")
        row["report_id"] = f"{style.name[:3].upper()}-{number:06d}"
        row["source"] = style.name
        row["person_id"] = p.pid
        row["family_id"] = p.fid
        return row, tags


def self_home(rng: random.Random) -> tuple[str, str]:
    gov = rng.choices(list(GOV_WEIGHT), weights=list(GOV_WEIGHT.values()))[0]
    return gov, rng.choice(PLACES[gov][1])[0]


COLUMNS = ["report_id", "source", "full_name_ar", "full_name_latin", "first_name", "father_name", "family_name",
           "mother_name", "sex", "birth_year", "birth_place", "governorate", "city", "arrest_date", "arresting_agency",
           "person_id", "family_id"]


def generate(n_persons: int, seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    gen = Generator(seed)
    gen.build(round(n_persons / 1.03))  # + ~3 % namesakes
    rng = gen.rng
    writer = Writer(rng)
    rows, tag_rows = [], []
    number = 0
    weights = [s.weight for s in SOURCES]
    for p in gen.persons:
        k = rng.choices([1, 2, 3, 4], weights=[25, 35, 25, 15])[0]
        styles: list[Style] = []
        while len(styles) < k:
            s = rng.choices(SOURCES, weights=weights)[0]
            if s not in styles or rng.random() < 0.1:
                styles.append(s)
        for s in styles:
            number += 1
            row, tags = writer.report(p, s, number)
            rows.append(row)
            tag_rows.append({"report_id": row["report_id"], "person_id": p.pid, "family_id": p.fid, "role": p.role,
                             "tags": " ".join(tags + p.tags)})
    order = list(range(len(rows)))
    rng.shuffle(order)
    frame = pd.DataFrame([rows[i] for i in order], columns=COLUMNS)
    return frame, pd.DataFrame([tag_rows[i] for i in order])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--persons", type=int, default=2600)
    parser.add_argument("--seed", type=int, default=8)
    args = parser.parse_args()
    frame, tags = generate(args.persons, args.seed)
    frame.to_csv(args.out, index=False, quoting=csv.QUOTE_MINIMAL, encoding="utf-8")
    tags.to_csv(args.out + ".tags.csv", index=False, encoding="utf-8")
    print(f"{len(frame)} reports of {frame['person_id'].nunique()} persons in {frame['family_id'].nunique()} "
          f"households -> {args.out}")


if __name__ == "__main__":
    main()
