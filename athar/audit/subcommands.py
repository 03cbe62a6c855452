"""``athar log …``: signed checkpoints of the audit log, consistency proofs, keys, and the witness."""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.conf import settings

from athar.audit.proofs import COSIGNED_DIR
from athar.audit.tlog import (
    checkpoint_dir,
    current_tree,
    sign_tree,
    verify_against_checkpoint,
    witness_verifiers,
    write_checkpoint,
)
from athar.audit.witness import ConsistencyProof, parse_proof, witness
from athar.core.command import subcommand
from athar.core.errors import UserError
from athar.core.log_key import log_signer, read_private_key, write_private_key
from athar.core.signed_note import COSIGNATURE_V1, ED25519, NoteError, Signer, parse_checkpoint, parse_note, parse_vkey


def _checkpoint_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--out", metavar="FILE", help="also write the checkpoint here (e.g. a removable disk)")


def _describe_checkpoint(result: dict[str, Any]) -> str:
    return (f"checkpoint of {result['origin']}: {result['size']} events, root {result['root']}\n"
            + "\n".join(f"  written to {p}" for p in result["written"]) + "\n\n" + result["note"])


@subcommand("log", "checkpoint", "Sign a checkpoint (C2SP tlog-checkpoint) of the audit log with ATHAR_LOG_KEY_FILE.",
            arguments=_checkpoint_arguments, describe=_describe_checkpoint, default=True)
def log_checkpoint(options: dict[str, Any]) -> dict[str, Any]:
    signed = sign_tree(current_tree())
    out = Path(options["out"]) if options.get("out") else None
    written = write_checkpoint(signed, out)
    return {**signed.as_dict(), "written": [str(p) for p in written], "note": signed.note.encode()}


@subcommand("log", "key", "Print the log's verifier key (C2SP vkey) for partners, witnesses and experts.",
            describe=lambda r: r["vkey"])
def log_key(options: dict[str, Any]) -> dict[str, Any]:
    verifier = log_signer().verifier
    return {"origin": verifier.name, "vkey": verifier.vkey}


def _keygen_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--name", required=True, help="the log's origin or the witness's name, e.g. example.org/athar")
    parser.add_argument("--out", required=True, metavar="FILE", help="a new file (never overwritten), mode 0600")
    parser.add_argument("--witness", action="store_true", help="a witness key (cosignature/v1) instead of a log key")


@subcommand("log", "keygen", "Create a signing key file (log or witness); prints its verifier key.",
            arguments=_keygen_arguments, describe=lambda r: f"{r['out']}\n{r['vkey']}")
def log_keygen(options: dict[str, Any]) -> dict[str, Any]:
    try:
        signer = Signer.generate(options["name"], COSIGNATURE_V1 if options.get("witness") else ED25519)
    except NoteError as exc:
        raise UserError(str(exc)) from exc
    write_private_key(Path(options["out"]), signer)
    return {"out": options["out"], "name": signer.name, "vkey": signer.verifier.vkey}


def _proof_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--old-size", type=int, required=True, help="the size the witness (or expert) last saw")
    parser.add_argument("--checkpoint", metavar="FILE", help="prove up to this checkpoint's size (default: now)")
    parser.add_argument("--out", metavar="FILE", help="write the proof (JSON) here")


@subcommand("log", "proof", "A consistency proof (RFC 9162) from an older size of the log to a checkpoint.",
            arguments=_proof_arguments)
def log_proof(options: dict[str, Any]) -> dict[str, Any]:
    tree = current_tree()
    size = tree.size
    if options.get("checkpoint"):
        size = _read_checkpoint(Path(options["checkpoint"])).size
    if not 0 <= options["old_size"] <= size <= tree.size:
        raise UserError(f"no proof from size {options['old_size']} to {size}: the log has {tree.size} events")
    proof = ConsistencyProof(options["old_size"], size, tree.consistency_proof(options["old_size"], size))
    result = proof.as_dict()
    if options.get("out"):
        import json
        Path(options["out"]).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
        result["out"] = options["out"]
    return result


def _read_checkpoint(path: Path) -> Any:
    try:
        return parse_checkpoint(parse_note(path.read_text(encoding="utf-8")).text)
    except NoteError as exc:
        raise UserError(f"{path} is not a checkpoint: {exc}") from exc


def _witness_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--checkpoint", required=True, metavar="FILE", help="the log's signed checkpoint")
    parser.add_argument("--log-key", required=True, metavar="VKEY",
                        help="the log's verifier key (athar log key), obtained from the log's operator directly")
    parser.add_argument("--key", required=True, metavar="FILE", help="this witness's key (athar log keygen --witness)")
    parser.add_argument("--proof", metavar="FILE", help="consistency proof from the size this witness last cosigned")
    parser.add_argument("--state", metavar="FILE",
                        help="what this witness has cosigned, per log (default: ATHAR_HOME/witness/state.json)")
    parser.add_argument("--out", metavar="FILE", help="write the cosigned checkpoint here (default: print it)")


@subcommand("log", "witness", "Cosign a log's checkpoint (C2SP tlog-cosignature) after checking it only grew.",
            arguments=_witness_arguments, describe=lambda r: r.get("out") or r["note"])
def log_witness(options: dict[str, Any]) -> dict[str, Any]:
    signer = read_private_key(Path(options["key"]), "the witness key")
    if signer.algorithm != COSIGNATURE_V1:
        raise UserError("the witness key is a log key: create one with athar log keygen --witness")
    try:
        log_key = parse_vkey(options["log_key"])
    except NoteError as exc:
        raise UserError(str(exc)) from exc
    proof = parse_proof(Path(options["proof"]).read_text(encoding="utf-8")) if options.get("proof") else None
    state = Path(options["state"]) if options.get("state") else Path(settings.ATHAR_HOME) / "witness" / "state.json"
    result = witness(Path(options["checkpoint"]).read_text(encoding="utf-8"), proof, log_key, signer, state)
    if options.get("out"):
        Path(options["out"]).write_text(result["note"], encoding="utf-8")
        result["out"] = options["out"]
    return result


def _witness_key_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("--key", required=True, metavar="FILE", help="the witness's key file")


@subcommand("log", "witness-key", "Print a witness's verifier key, for ATHAR_LOG_WITNESSES of the logs it watches.",
            arguments=_witness_key_arguments, describe=lambda r: r["vkey"])
def log_witness_key(options: dict[str, Any]) -> dict[str, Any]:
    signer = read_private_key(Path(options["key"]), "the witness key")
    return {"name": signer.name, "vkey": signer.verifier.vkey}


def _cosigned_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a checkpoint of this log cosigned by a witness")


@subcommand("log", "cosigned", "Keep a checkpoint a witness cosigned (ATHAR_HOME/checkpoints/cosigned/), for exports.",
            arguments=_cosigned_arguments)
def log_cosigned(options: dict[str, Any]) -> dict[str, Any]:
    text = Path(options["file"]).read_text(encoding="utf-8")
    report = verify_against_checkpoint(text, witness_verifiers())
    if not report.ok:
        raise UserError("not kept: " + "; ".join(str(p) for p in report.problems))
    target = checkpoint_dir() / COSIGNED_DIR / f"cosigned-{report.checkpoint['size']:012d}.txt"
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    target.write_text(text, encoding="utf-8")
    return {"kept": str(target), **report.as_dict()}
