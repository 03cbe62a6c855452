"""URL converters for signed ids (``<report:report_id>`` …): the web's form of ``athar.core.signed_ids``."""

from __future__ import annotations

from django.urls import register_converter
from django.urls.converters import get_converters

from athar.core.signed_ids import KINDS, sign_id, signer_for, unsign_id


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
    signer_for(kind)
    return type(f"Signed{kind.title().replace('_', '')}IdConverter", (SignedIdConverter,), {"kind": kind})


def register_all() -> None:
    """Register one converter per kind under its name in ``KINDS`` (``<report:…>``, ``<rphoto:…>`` …).

    Idempotent: Django warns when a converter name is registered twice."""
    for kind, name in KINDS.items():
        if name not in get_converters():
            register_converter(converter_for(kind), name)
