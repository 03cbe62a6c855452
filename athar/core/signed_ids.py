"""Outward identifiers that cannot be guessed: a signed form of the row id, bound to its kind.

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
    "import_batch": "import",
    "number_reading": "numreading",
    "ingest_run": "ingestrun",
}

# The salt keeps its first name ("athar.web.ids"): links and API ids already handed out stay valid.
_SIGNERS = {kind: signing.Signer(salt=f"athar.web.ids.{kind}", sep=".") for kind in KINDS}


def signer_for(kind: str) -> signing.Signer:
    """The kind's signer; an unknown kind is a programming error, never a silent fallback."""
    try:
        return _SIGNERS[kind]
    except KeyError:
        raise LookupError(f"no signed-id kind {kind!r}; known: {', '.join(KINDS)}") from None


def sign_id(kind: str, pk: int) -> str:
    """The outward form of a row id of one kind (web URLs and the JSON API alike)."""
    return signer_for(kind).sign(str(int(pk)))


def unsign_id(kind: str, value: str) -> int | None:
    """The row id behind a signed id of this kind; None for anything forged, truncated, malformed
    or signed for another kind."""
    signer = signer_for(kind)
    try:
        return int(signer.unsign(str(value)))
    except (signing.BadSignature, ValueError):
        return None
