"""Family-facing identifiers that cannot be guessed: a signed form of the row id.

``/reports/12/`` would let anyone count reports; ``/reports/12.Vx3…/`` carries a signature made
with the secret key, so an id can be neither guessed nor enumerated. Permission checks still
apply on every request — this only removes the counting.
"""

from __future__ import annotations

from django.core import signing

SIGNER = signing.Signer(salt="athar.web.family-ids", sep=".")


class SignedIdConverter:
    regex = r"[0-9]+\.[A-Za-z0-9_-]{20,}"

    def to_python(self, value: str) -> int:
        try:
            return int(SIGNER.unsign(value))
        except (signing.BadSignature, ValueError) as exc:
            raise ValueError("not an athar identifier") from exc

    def to_url(self, value: int | str) -> str:
        return SIGNER.sign(str(int(value)))


def sign_id(pk: int) -> str:
    """The outward form of a family-facing row id (web URLs and the JSON API alike)."""
    return SIGNER.sign(str(int(pk)))


def unsign_id(value: str) -> int | None:
    """The row id behind a signed id; None for anything forged, truncated or malformed."""
    try:
        return int(SIGNER.unsign(str(value)))
    except (signing.BadSignature, ValueError):
        return None
