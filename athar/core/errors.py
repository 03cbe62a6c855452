"""The one line between the user's mistakes and athar's bugs.

``UserError`` is a mistake of the person using athar — a bad argument, a file that is not there, a
decision the rules refuse. Commands, pages and the API show its message (in the user's language
where it was written with gettext) and no traceback. Anything else that escapes is a bug: commands
print its traceback on standard error, pages answer 500 and the error is logged.

It subclasses ``ValueError`` so that code which already treats a ``ValueError`` from a parser as bad
input keeps working; but a plain ``ValueError`` reaching a command is reported as a failure of
athar, not of the user.
"""

from __future__ import annotations


class UserError(ValueError):
    """A refusal or a bad input, explained to the user; never a reason to print a traceback."""
