"""A problem a check found, said once and read in two ways.

A ``Finding`` is a ``str``: the English sentence that logs, ``--json`` output and the command line
carry (what scripts and earlier records expect). It also keeps its message (``gettext_lazy``) and
values, so a page shows the same finding in the reader's language (the web's ``in_reader_language``
filter), with each value (an event number, a file name, a sha256) set apart
for right-to-left text. One wording, no second table of English strings to drift.
"""

from __future__ import annotations

from typing import Any

from django.utils import translation


class Finding(str):
    message: Any
    params: dict[str, Any]

    def __new__(cls, message: Any, **params: Any) -> Finding:
        with translation.override("en"):
            text = str(message) % params
        finding = super().__new__(cls, text)
        finding.message, finding.params = message, params
        return finding
