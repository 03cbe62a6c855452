#!/usr/bin/python3 -I
"""Check an athar export without athar: python3 -I verify_evidence.py [EXPORT_FOLDER]

Needs only Python 3 and the ``cryptography`` package (Debian: ``apt install python3-cryptography``).
Run from inside the export folder or give its path. Exit 0 when everything checked holds, 1 when
anything fails; it says in plain words what was checked and what that proves (docs/evidence.md).

What it checks:
1. every file listed in SHA256SUMS has exactly those bytes (SHA-256);
2. the checkpoint (proofs/checkpoint.txt, a C2SP signed note) is signed by the log key given in
   proofs/log.json — compare that key with one you obtained from the organisation independently;
3. every audit event in proofs/log.json: its chain hash is recomputed from its fields, and its
   inclusion proof (RFC 6962 / RFC 9162) leads to the checkpoint's root hash;
4. every file bound to an event (a photo to its ingest event, the file list or dossier to the export
   event) has the SHA-256 that event recorded;
5. cosigned checkpoints: each witness key's cosignature (C2SP tlog-cosignature), and a consistency
   proof that the export's checkpoint extends the cosigned one.
"""

from __future__ import annotations

import base64
import hashlib
import json
import struct
import sys
from pathlib import Path

try:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
except ImportError:  # pragma: no cover - said plainly instead of a traceback
    sys.stderr.write("This checker needs the 'cryptography' package (Debian: apt install python3-cryptography).\n")
    sys.exit(2)

DASH = "\u2014 "


class Failed(Exception):
    """One check that did not hold."""


# --- RFC 6962 / RFC 9162 ------------------------------------------------------------------------

def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def root_from_inclusion(index: int, size: int, leaf: bytes, proof: list[bytes]) -> bytes:
    if not 0 <= index < size:
        raise Failed(f"leaf {index} is not in a tree of {size}")
    fn, sn, value = index, size - 1, leaf
    for sibling in proof:
        if sn == 0:
            raise Failed("the inclusion proof is too long")
        if fn & 1 or fn == sn:
            value = node_hash(sibling, value)
            while fn and not fn & 1:
                fn, sn = fn >> 1, sn >> 1
        else:
            value = node_hash(value, sibling)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0:
        raise Failed("the inclusion proof is too short")
    return value


def verify_consistency(old_size: int, new_size: int, old_root: bytes, new_root: bytes, proof: list[bytes]) -> None:
    if old_size > new_size:
        raise Failed("the newer tree is smaller (a rollback)")
    if old_size == new_size:
        if proof or old_root != new_root:
            raise Failed("two different roots for one size (a fork)")
        return
    if old_size == 0:
        return
    if not proof:
        raise Failed("the consistency proof is empty")
    path = list(proof)
    if old_size & (old_size - 1) == 0:
        path.insert(0, old_root)
    fn, sn = old_size - 1, new_size - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            raise Failed("the consistency proof is too long")
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            while fn and not fn & 1:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0 or fr != old_root or sr != new_root:
        raise Failed("the consistency proof does not hold")


# --- C2SP signed notes ---------------------------------------------------------------------------

def parse_vkey(text: str) -> tuple[str, int, bytes, bytes]:
    """(name, algorithm, key id, public key) of a verifier key ``name+keyid+base64(alg||key)``."""
    parts = text.strip().split("+", 2)
    if len(parts) != 3:
        raise Failed(f"not a verifier key: {text!r}")
    raw = base64.b64decode(parts[2])
    if len(raw) != 33:
        raise Failed(f"the key of {parts[0]} is not an Ed25519 key")
    expected_id = hashlib.sha256(parts[0].encode() + b"\n" + raw[:1] + raw[1:]).digest()[:4]
    if expected_id.hex() != parts[1].lower():
        raise Failed(f"the key id of {parts[0]} does not match its key")
    return parts[0], raw[0], expected_id, raw[1:]


def split_note(note: str) -> tuple[str, list[tuple[str, bytes]]]:
    """The note's signed text and its (name, key id || signature) lines."""
    cut = note.rfind("\n\n")
    if cut < 0:
        raise Failed("the checkpoint is not a signed note")
    text, lines = note[:cut + 1], []
    for line in note[cut + 2:].splitlines():
        if not line.startswith(DASH):
            raise Failed(f"not a signature line: {line[:40]!r}")
        name, _, blob = line[len(DASH):].partition(" ")
        lines.append((name, base64.b64decode(blob)))
    return text, lines


def ed25519_ok(public: bytes, signature: bytes, message: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


def signed_by(note: str, vkey: str) -> bool:
    name, _alg, key_id, public = parse_vkey(vkey)
    text, lines = split_note(note)
    return any(n == name and blob[:4] == key_id and ed25519_ok(public, blob[4:], text.encode()) for n, blob in lines)


def cosigned_at(note: str, vkey: str) -> int | None:
    name, _alg, key_id, public = parse_vkey(vkey)
    text, lines = split_note(note)
    for n, blob in lines:
        if n == name and blob[:4] == key_id and len(blob) == 4 + 8 + 64:
            (when,) = struct.unpack(">Q", blob[4:12])
            if ed25519_ok(public, blob[12:], f"cosignature/v1\ntime {when}\n{text}".encode()):
                return int(when)
    return None


def checkpoint_of(note: str) -> tuple[str, int, bytes]:
    lines = split_note(note)[0].split("\n")
    return lines[0], int(lines[1]), base64.b64decode(lines[2])


# --- the export ---------------------------------------------------------------------------------

def event_chain_hash(event: dict) -> str:
    body = {key: event[key] for key in ("seq", "at", "actor", "action", "object_type", "object_id", "data")}
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256((event["prev_hash"] + canonical).encode("utf-8")).hexdigest()


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class Checker:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.failures: list[str] = []
        self.passed: list[str] = []

    def fail(self, message: str) -> None:
        self.failures.append(message)

    def run(self) -> bool:
        log = json.loads((self.folder / "proofs" / "log.json").read_text(encoding="utf-8"))
        self.files()
        root, size = self.checkpoint(log)
        events = self.events(log, root, size)
        self.bindings(log, events)
        self.witnesses(log, root, size)
        return not self.failures

    def files(self) -> None:
        sums = (self.folder / "SHA256SUMS").read_text(encoding="utf-8").splitlines()
        checked = 0
        for line in sums:
            if not line.strip():
                continue
            expected, _, name = line.partition("  ")
            path = self.folder / name
            if not path.is_file():
                self.fail(f"{name} is listed in SHA256SUMS but missing")
            elif sha256_file(path) != expected:
                self.fail(f"{name} was changed: its SHA-256 is not the one in SHA256SUMS")
            else:
                checked += 1
        self.passed.append(f"{checked} of {len([s for s in sums if s.strip()])} files listed in SHA256SUMS have "
                           "exactly the bytes they had at export (SHA-256).")

    def checkpoint(self, log: dict) -> tuple[bytes, int]:
        note = (self.folder / "proofs" / "checkpoint.txt").read_text(encoding="utf-8")
        if note != log["checkpoint"]:
            self.fail("proofs/checkpoint.txt differs from the checkpoint in proofs/log.json")
        vkey = log["log"]["verifier_key"]
        origin, size, root = checkpoint_of(note)
        if signed_by(note, vkey) and origin == parse_vkey(vkey)[0]:
            self.passed.append(f"The checkpoint of log {origin} ({size} audit events, root hash "
                               f"{base64.b64encode(root).decode()}) is signed by the key {vkey}. Compare this key "
                               "with one you obtained from the organisation by another channel: the signature proves "
                               "only that whoever holds that key signed this checkpoint.")
        else:
            self.fail(f"the checkpoint is NOT validly signed by the key {vkey}")
        return root, size

    def events(self, log: dict, root: bytes, size: int) -> dict[int, dict]:
        proven: dict[int, dict] = {}
        for item in log["events"]:
            event = item["event"]
            if event_chain_hash(event) != event["hash"]:
                self.fail(f"audit event #{event['seq']}: its fields do not give its recorded hash (altered)")
                continue
            proof = [base64.b64decode(h) for h in item["inclusion_proof"]]
            try:
                found = root_from_inclusion(item["leaf_index"], size, leaf_hash(bytes.fromhex(event["hash"])), proof)
            except Failed as exc:
                self.fail(f"audit event #{event['seq']}: {exc}")
                continue
            if found != root:
                self.fail(f"audit event #{event['seq']}: its inclusion proof does not lead to the checkpoint's root")
                continue
            proven[event["seq"]] = event
        self.passed.append(f"{len(proven)} of {len(log['events'])} audit events are in the signed log: each one's "
                           "hash is recomputed from its fields and its inclusion proof leads to the checkpoint's root.")
        return proven

    def bindings(self, log: dict, events: dict[int, dict]) -> None:
        good = 0
        for binding in log["bindings"]:
            event = events.get(binding["event_seq"])
            path = self.folder / binding["path"]
            if event is None:
                self.fail(f"{binding['path']}: its audit event #{binding['event_seq']} is not proven")
            elif not path.is_file():
                self.fail(f"{binding['path']} is missing")
            elif event["data"].get(binding["field"]) != sha256_file(path):
                self.fail(f"{binding['path']}: its SHA-256 is not the one audit event #{event['seq']} "
                          f"({event['action']}) recorded")
            else:
                good += 1
        self.passed.append(f"{good} of {len(log['bindings'])} files have the SHA-256 recorded in the log when they "
                           "were taken in (photos: their ingest event) or exported (the file list, the dossier).")

    def witnesses(self, log: dict, root: bytes, size: int) -> None:
        keys = log.get("witnesses", [])
        for item in log.get("cosigned_checkpoints", []):
            note = item["note"]
            _, old_size, old_root = checkpoint_of(note)
            if not signed_by(note, log["log"]["verifier_key"]):
                self.fail(f"a cosigned checkpoint of size {old_size} is not signed by the log key")
                continue
            try:
                verify_consistency(old_size, size, old_root, root, [base64.b64decode(h) for h in item["consistency_proof"]])
            except Failed as exc:
                self.fail(f"the export's checkpoint does not extend the cosigned one of size {old_size}: {exc}")
                continue
            for vkey in keys:
                when = cosigned_at(note, vkey)
                if when is not None:
                    self.passed.append(f"Witness {parse_vkey(vkey)[0]} cosigned the log at size {old_size} "
                                       f"(time {when}); the export's checkpoint extends that size (consistency proof).")
        if not log.get("cosigned_checkpoints"):
            self.passed.append("No cosigned checkpoint is included: no independent witness vouches for this log here.")


def main(argv: list[str]) -> int:
    folder = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent
    checker = Checker(folder)
    try:
        ok = checker.run()
    except (OSError, ValueError, KeyError, Failed) as exc:
        checker.fail(f"the export cannot be read: {exc}")
        ok = False
    for line in checker.passed:
        print(f"OK  {line}")
    for line in checker.failures:
        print(f"FAILED  {line}")
    print("RESULT: every check holds." if ok else "RESULT: the export does NOT verify (see FAILED above).")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
