"""Family-facing identifiers that cannot be guessed: a signed form of the row id, bound to its kind.

``/reports/12/`` would let anyone count reports; ``/reports/12.Vx3…/`` carries a signature made
with the secret key, so an id can be neither guessed nor enumerated. Each kind of row (report,
report photo, candidate, claim, user, identification) signs with its own salt, so report 12's id
is not photo 12's or claim 12's: a signature of one kind never opens a row of another (the URL
does not resolve, the API answers 404). Permission checks still apply on every request — this only
removes the counting and the confusion of kinds.
"""

from __future__ import annotations

from django.core import signing

# kind -> the URL converter name that carries it (``<report:report_id>`` …)
KINDS: dict[str, str] = {
    "report": "report",
    "report_photo": "rphoto",
    "candidate": "candidate",
    "claim": "claim",
    "user": "family",
    "identification": "ident",
}

_SIGNERS = {kind: signing.Signer(salt=f"athar.web.ids.{kind}", sep=".") for kind in KINDS}


def _signer(kind: str) -> signing.Signer:
    """The kind's signer; an unknown kind is a programming error, never a silent fallback."""
    try:
        return _SIGNERS[kind]
    except KeyError:
        raise LookupError(f"no signed-id kind {kind!r}; known: {', '.join(KINDS)}") from None


def sign_id(kind: str, pk: int) -> str:
    """The outward form of a row id of one kind (web URLs and the JSON API alike)."""
    return _signer(kind).sign(str(int(pk)))


def unsign_id(kind: str, value: str) -> int | None:
    """The row id behind a signed id of this kind; None for anything forged, truncated, malformed
    or signed for another kind."""
    signer = _signer(kind)
    try:
        return int(signer.unsign(str(value)))
    except (signing.BadSignature, ValueError):
        return None


class SignedIdConverter:
    """A URL converter for one kind: ``to_url`` signs, ``to_python`` refuses other kinds' ids."""

    regex = r"[0-9]+\.[A-Za-z0-9_-]{20,}"
    kind = ""

    def to_python(self, value: str) -> int:
        pk = unsign_id(self.kind, value)
        if pk is None:
            raise ValueError(f"not an athar {self.kind} identifier")
        return pk

    def to_url(self, value: int | str) -> str:
        return sign_id(self.kind, int(value))


def converter_for(kind: str) -> type[SignedIdConverter]:
    """A converter class bound to one kind (Django instantiates converters without arguments)."""
    _signer(kind)
    return type(f"Signed{kind.title().replace('_', '')}IdConverter", (SignedIdConverter,), {"kind": kind})


def register_all() -> None:
    """Register one converter per kind under its name in ``KINDS`` (``<report:…>``, ``<rphoto:…>`` …).

    Idempotent: Django warns when a converter name is registered twice."""
    from django.urls import register_converter
    from django.urls.converters import get_converters

    for kind, name in KINDS.items():
        if name not in get_converters():
            register_converter(converter_for(kind), name)
