"""C2SP signed notes, checkpoints and cosignatures with Ed25519 (``cryptography``), no Django.

- ``c2sp.org/signed-note``: a UTF-8 text ending in a newline, a blank line, then signature lines
  ``— <key name> <base64(key id (4 bytes) || signature)>``. An Ed25519 key's id is the first four
  bytes of ``SHA-256(name || 0x0A || 0x01 || public key)``; a verifier key (vkey) is written
  ``<name>+<key id hex>+<base64(0x01 || public key)>``.
- ``c2sp.org/tlog-checkpoint``: the note's text is ``<origin>\\n<tree size>\\n<base64 root hash>\\n``.
- ``c2sp.org/tlog-cosignature`` (cosignature/v1): a witness signs ``cosignature/v1\\ntime <t>\\n``
  followed by the checkpoint's text; its key id uses the byte 0x04 and its signature is
  ``u64 big-endian t || Ed25519 signature``.

Private keys are kept as Go's ``golang.org/x/mod/sumdb/note`` writes them:
``PRIVATE+KEY+<name>+<key id hex>+<base64(algorithm byte || 32-byte seed)>``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import struct
from dataclasses import dataclass, field

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

ED25519 = 0x01
COSIGNATURE_V1 = 0x04
DASH = "\u2014 "
COSIGNATURE_HEADER = "cosignature/v1\n"


class NoteError(ValueError):
    """A note, key or checkpoint that cannot be read, or a signature that does not verify."""


def key_id(name: str, algorithm: int, public: bytes) -> bytes:
    """The 4-byte key id: ``SHA-256(name || "\\n" || algorithm || public key)[:4]``."""
    return hashlib.sha256(name.encode("utf-8") + b"\n" + bytes([algorithm]) + public).digest()[:4]


def _check_name(name: str) -> None:
    if not name or "+" in name or any(c.isspace() for c in name):
        raise NoteError(f"a key name has no spaces and no '+': {name!r}")


def _raw_public(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(Encoding.Raw, PublicFormat.Raw)


@dataclass(frozen=True)
class Verifier:
    """A public key with its name and algorithm (0x01: note signatures, 0x04: cosignatures)."""

    name: str
    algorithm: int
    public: bytes

    @property
    def key_id(self) -> bytes:
        return key_id(self.name, self.algorithm, self.public)

    @property
    def vkey(self) -> str:
        """The C2SP verifier key line for this key."""
        return f"{self.name}+{self.key_id.hex()}+{base64.b64encode(bytes([self.algorithm]) + self.public).decode()}"

    def verify(self, message: bytes, signature: bytes) -> bool:
        try:
            Ed25519PublicKey.from_public_bytes(self.public).verify(signature, message)
        except InvalidSignature:
            return False
        return True


@dataclass(frozen=True)
class Signer:
    """A private Ed25519 key with its name and algorithm."""

    name: str
    algorithm: int
    seed: bytes = field(repr=False)

    @classmethod
    def generate(cls, name: str, algorithm: int = ED25519) -> Signer:
        _check_name(name)
        seed = Ed25519PrivateKey.generate().private_bytes_raw()
        return cls(name, algorithm, seed)

    @property
    def verifier(self) -> Verifier:
        public = _raw_public(Ed25519PrivateKey.from_private_bytes(self.seed).public_key())
        return Verifier(self.name, self.algorithm, public)

    def sign(self, message: bytes) -> bytes:
        return Ed25519PrivateKey.from_private_bytes(self.seed).sign(message)

    def encode(self) -> str:
        """The private key line (keep it in a file only its owner can read)."""
        body = base64.b64encode(bytes([self.algorithm]) + self.seed).decode()
        return f"PRIVATE+KEY+{self.name}+{self.verifier.key_id.hex()}+{body}"


def parse_signer(text: str) -> Signer:
    """A private key line as ``Signer.encode`` writes it."""
    parts = text.strip().split("+", 4)  # the base64 key may itself hold '+'
    if len(parts) != 5 or parts[:2] != ["PRIVATE", "KEY"]:
        raise NoteError("not a private key line (PRIVATE+KEY+<name>+<key id>+<key>)")
    name, raw = parts[2], _b64(parts[4])
    _check_name(name)
    if len(raw) != 33 or raw[0] not in (ED25519, COSIGNATURE_V1):
        raise NoteError("the private key is not an Ed25519 key")
    signer = Signer(name, raw[0], raw[1:])
    if signer.verifier.key_id.hex() != parts[3].lower():
        raise NoteError("the private key's id does not match its name and key")
    return signer


def parse_vkey(text: str) -> Verifier:
    """A verifier key line ``<name>+<key id hex>+<base64(algorithm || public key)>``."""
    parts = text.strip().split("+", 2)  # the base64 key may itself hold '+'
    if len(parts) != 3:
        raise NoteError(f"not a verifier key (<name>+<key id>+<key>): {text.strip()!r}")
    name, raw = parts[0], _b64(parts[2])
    _check_name(name)
    if len(raw) != 33 or raw[0] not in (ED25519, COSIGNATURE_V1):
        raise NoteError(f"the verifier key of {name} is not an Ed25519 key")
    verifier = Verifier(name, raw[0], raw[1:])
    if verifier.key_id.hex() != parts[1].lower():
        raise NoteError(f"the verifier key of {name} does not match its key id")
    return verifier


def _b64(text: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise NoteError(f"not base64: {text[:20]!r}") from exc


@dataclass(frozen=True)
class SignatureLine:
    name: str
    key_id: bytes
    signature: bytes

    def line(self) -> str:
        return f"{DASH}{self.name} {base64.b64encode(self.key_id + self.signature).decode()}\n"


@dataclass(frozen=True)
class Note:
    """A note's text (ending in a newline) and its signature lines."""

    text: str
    signatures: tuple[SignatureLine, ...]

    def encode(self) -> str:
        return self.text + "\n" + "".join(s.line() for s in self.signatures)

    def with_signature(self, line: SignatureLine) -> Note:
        return Note(self.text, (*self.signatures, line))


def parse_note(data: str) -> Note:
    """Split a signed note into its text and signature lines (nothing is verified yet)."""
    if "\r" in data:
        data = data.replace("\r\n", "\n")
    split = data.rfind("\n\n")
    if split < 0 or not data.endswith("\n"):
        raise NoteError("not a signed note: no blank line before the signatures, or no final newline")
    text, block = data[:split + 1], data[split + 2:]
    lines = []
    for raw in block.splitlines():
        if not raw.startswith(DASH):
            raise NoteError(f"not a signature line: {raw[:40]!r}")
        name, _, sig = raw[len(DASH):].partition(" ")
        blob = _b64(sig)
        if len(blob) < 5:
            raise NoteError(f"the signature of {name} is too short")
        lines.append(SignatureLine(name, blob[:4], blob[4:]))
    if not lines:
        raise NoteError("the note carries no signature")
    return Note(text, tuple(lines))


def sign_note(text: str, signer: Signer) -> Note:
    """``text`` (ending in a newline) signed by ``signer``."""
    if not text.endswith("\n") or "\n\n" in text:
        raise NoteError("a note's text ends with one newline and has no blank line")
    verifier = signer.verifier
    return Note(text, (SignatureLine(signer.name, verifier.key_id, signer.sign(text.encode("utf-8"))),))


def verify_note(note: Note, verifier: Verifier) -> bool:
    """True when a signature line of ``verifier`` (name and key id) signs the note's text."""
    return any(line.name == verifier.name and line.key_id == verifier.key_id
               and verifier.verify(note.text.encode("utf-8"), line.signature) for line in note.signatures)


# --- checkpoints ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Checkpoint:
    origin: str
    size: int
    root: bytes

    def text(self) -> str:
        return f"{self.origin}\n{self.size}\n{base64.b64encode(self.root).decode()}\n"


def parse_checkpoint(text: str) -> Checkpoint:
    """The three first lines of a checkpoint's text (extension lines are allowed and ignored)."""
    lines = text.split("\n")
    if len(lines) < 4 or not lines[0]:
        raise NoteError("a checkpoint has an origin line, a size line and a root hash line")
    if not lines[1].isdigit() or (len(lines[1]) > 1 and lines[1].startswith("0")):
        raise NoteError(f"the checkpoint's size is not a number: {lines[1]!r}")
    root = _b64(lines[2])
    if len(root) != 32:
        raise NoteError("the checkpoint's root hash is not 32 bytes")
    return Checkpoint(lines[0], int(lines[1]), root)


# --- cosignatures -----------------------------------------------------------------------------

def cosigned_message(text: str, timestamp: int) -> bytes:
    return f"{COSIGNATURE_HEADER}time {timestamp}\n{text}".encode()


def cosign(note: Note, signer: Signer, timestamp: int) -> SignatureLine:
    """A cosignature/v1 line by a witness over the checkpoint's text, at ``timestamp`` (POSIX)."""
    if signer.algorithm != COSIGNATURE_V1:
        raise NoteError("a witness key has the algorithm byte 0x04 (cosignature/v1)")
    signature = signer.sign(cosigned_message(note.text, timestamp))
    return SignatureLine(signer.name, signer.verifier.key_id, struct.pack(">Q", timestamp) + signature)


def verify_cosignature(note: Note, verifier: Verifier) -> int | None:
    """The time of a valid cosignature by ``verifier`` on the note, or None."""
    for line in note.signatures:
        if line.name != verifier.name or line.key_id != verifier.key_id or len(line.signature) != 72:
            continue
        (timestamp,) = struct.unpack(">Q", line.signature[:8])
        if verifier.verify(cosigned_message(note.text, timestamp), line.signature[8:]):
            return int(timestamp)
    return None
