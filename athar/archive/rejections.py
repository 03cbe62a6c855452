"""Why an ingest refused a file or a metadata row: a stable code and its values.

The code and its parameters are stored with each refused file (``RejectedFile.code`` and
``params``); the English sentence built from them is the ``reason`` that commands, JSON and logs
carry; pages word the same code in their reader's language. The raw technical detail (an
exception's text, in English) is kept verbatim as the ``detail`` parameter and shown beside the
message, never inside it.

Importable without Django settings (the ingest's worker processes and the imaging fuzz harness
build these too): the messages are marked with a local ``gettext_noop``, and ``gettext`` is called
only when a page words them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext

from athar.core.errors import UserError


def gettext_noop(message: str) -> str:
    """Marks a message for the catalogue (makemessages reads this name) and returns it unchanged.
    Django's own goes through its translation machinery, which needs settings: this module is
    imported by code that runs without them (the imaging fuzz harness, worker processes)."""
    return message


# code → English message (the catalogue's msgid). A message never holds %(detail)s: the detail
# follows it in brackets in English and apart from it on pages.
MESSAGES: dict[str, str] = {
    # the walk of the archive folder (archive/layout.py)
    "unreadable_folder": gettext_noop("unreadable folder"),
    "symlink": gettext_noop("symbolic link: not followed, not stored"),
    "not_regular_file": gettext_noop("not a regular file (device, socket or pipe)"),
    # reading one file (archive/imaging.py)
    "unreadable_file": gettext_noop("unreadable file"),
    "empty_file": gettext_noop("empty file (0 bytes)"),
    "too_large": gettext_noop("image too large (%(width)s×%(height)s pixels): possible decompression bomb"),
    "decompression_bomb": gettext_noop("possible decompression bomb"),
    "not_an_image": gettext_noop("not an image (unrecognised format)"),
    "corrupt_image": gettext_noop("corrupt or truncated image"),
    "unreadable_image": gettext_noop("unreadable image"),
    # placing a photo (archive/ingest.py)
    "no_case": gettext_noop("cannot tell facility and case from the path; kept as evidence without a case "
                            "(use folders <facility>/<case>/<photo>, --pattern or a manifest)"),
    # manifest.csv and cases.csv (archive/layout.py)
    "metadata_unreadable": gettext_noop("%(file)s could not be read"),
    "manifest_row": gettext_noop("row %(row)s: %(problem)s"),
    # what is wrong with one row (the ``problem`` of a manifest_row)
    "no_path": gettext_noop("no path"),
    "unknown_kind": gettext_noop("unknown kind '%(kind)s' (use one of %(allowed)s)"),
    "facility_case_required": gettext_noop("facility and case are required"),
    "unknown_sex": gettext_noop("unknown sex '%(sex)s' (use M, F or leave empty)"),
    "impossible_age": gettext_noop("impossible age '%(age)s'"),
    "age_range_inverted": gettext_noop("age_min %(min)s is above age_max %(max)s"),
    "unreadable_date": gettext_noop("unreadable date '%(text)s' (use YYYY-MM-DD, YYYY-MM or YYYY)"),
    "impossible_year": gettext_noop("impossible year in date '%(text)s'"),
    "impossible_date": gettext_noop("impossible date '%(text)s'"),
    # anything else (and rows stored before codes existed): the English text is the detail
    "other": gettext_noop("refused for another reason"),
}
OTHER = "other"
NESTED = "manifest_row"  # its ``problem`` parameter is itself a code


# Values that are machine text (what the file said, the file's name): interfaces may set them apart.
LITERAL_PARAMS = {"kind", "allowed", "sex", "age", "text", "file"}
Wrap = Callable[[str, Any], Any]


def english(code: str, params: dict[str, Any]) -> str:
    """The sentence for commands, JSON and logs: the message in English, then the detail."""
    return _render(code, params, _identity, _keep, detail=True)


def message(code: str, params: dict[str, Any], text: Callable[[str], Any] = str, value: Wrap | None = None) -> Any:
    """The message in the active language, without the detail (shown apart, left to right).

    ``text`` is applied to the translated message and ``value(key, value)`` to each value before
    they are put together (a page escapes the one and marks the other as machine text)."""
    def translated(msgid: str) -> Any:
        return text(gettext(msgid))

    return _render(code, params, translated, value or _keep, detail=False)


def detail(code: str, params: dict[str, Any], reason: str = "") -> str:
    """The technical detail to show beside the message; an uncoded refusal's English reason."""
    if code == OTHER or code not in MESSAGES:
        return str(params.get("detail") or reason)
    return str(params.get("detail") or "")


def _identity(text: str) -> str:
    return text


def _keep(_key: str, value: Any) -> Any:
    return value


def _render(code: str, params: dict[str, Any], translate: Callable[[str], Any], value: Wrap,
            detail: bool) -> Any:
    if code == OTHER or code not in MESSAGES:
        return str(params["detail"]) if detail and params.get("detail") else translate(MESSAGES[OTHER])
    values = {key: value(key, v) for key, v in params.items() if key not in ("detail", "problem")}
    if code == NESTED:
        inner = _render(str(params.get("problem", OTHER)), params, translate, value, detail)
        if detail:
            return inner  # the path already names the file and row
        return translate(MESSAGES[NESTED]) % {**values, "problem": inner}
    try:
        text = translate(MESSAGES[code]) % values
    except (KeyError, TypeError, ValueError):  # values missing or malformed: say so, never fail the page
        return translate(MESSAGES[OTHER])
    if detail and params.get("detail"):
        text = f"{text} ({params['detail']})"
    return text


class Problem(UserError):
    """A refusal of bad input with its code and values; ``str()`` is the English sentence."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code, self.params = code, params
        super().__init__(english(code, params))


def of_error(error: Exception) -> tuple[str, dict[str, Any]]:
    """The code and values of an error raised while reading a row (``other`` when it has none)."""
    code = getattr(error, "code", None)
    if isinstance(code, str) and code in MESSAGES:
        return code, dict(getattr(error, "params", {}) or {})
    return OTHER, {"detail": str(error)}
