"""Django's own messages that athar translates itself, named here so that ``makemessages`` keeps them.

Django's Arabic catalogue writes the months the Egyptian way (مارس، أغسطس) where Syrian families write
آذار، آب, and it lacks the plural forms of Django 5.2's "password too short" message (with ``%d``): the
first error a family meets at registration stayed English. athar's catalogue overrides them; without
a use in athar's own source, ``makemessages --no-obsolete`` dropped them again (2026-12-02, found by
tests/browser/test_journeys.py). Nothing calls these lists: they are markers, evaluated lazily.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop, ngettext_lazy, pgettext_lazy

MONTHS = [gettext_noop("January"), gettext_noop("February"), gettext_noop("March"), gettext_noop("April"),
          gettext_noop("May"), gettext_noop("June"), gettext_noop("July"), gettext_noop("August"),
          gettext_noop("September"), gettext_noop("October"), gettext_noop("November"),
          gettext_noop("December")]
MONTHS_ALT = [pgettext_lazy("alt. month", "January"), pgettext_lazy("alt. month", "February"),
              pgettext_lazy("alt. month", "March"), pgettext_lazy("alt. month", "April"),
              pgettext_lazy("alt. month", "May"), pgettext_lazy("alt. month", "June"),
              pgettext_lazy("alt. month", "July"), pgettext_lazy("alt. month", "August"),
              pgettext_lazy("alt. month", "September"), pgettext_lazy("alt. month", "October"),
              pgettext_lazy("alt. month", "November"), pgettext_lazy("alt. month", "December")]
MONTHS_3 = [gettext_noop("jan"), gettext_noop("feb"), gettext_noop("mar"), gettext_noop("apr"),
            gettext_noop("may"), gettext_noop("jun"), gettext_noop("jul"), gettext_noop("aug"),
            gettext_noop("sep"), gettext_noop("oct"), gettext_noop("nov"), gettext_noop("dec")]
PASSWORD_TOO_SHORT = ngettext_lazy("This password is too short. It must contain at least %d character.",
                                   "This password is too short. It must contain at least %d characters.", 10)
