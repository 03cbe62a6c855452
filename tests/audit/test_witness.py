"""The witness's judgement on its own (no database): first sight, growth with a proof, fork, rollback."""

from __future__ import annotations

import pytest

from athar.audit.merkle import Tree, leaf_hash
from athar.audit.witness import ConsistencyProof, witness
from athar.core.errors import UserError
from athar.core.signed_note import COSIGNATURE_V1, Checkpoint, Signer, parse_note, sign_note, verify_cosignature

LOG = Signer.generate("log.example.org/athar")
WITNESS = Signer.generate("witness.example.org/w", COSIGNATURE_V1)


def _note(leaves: list[bytes], size: int) -> str:
    tree = Tree([leaf_hash(x) for x in leaves])
    return sign_note(Checkpoint(LOG.name, size, tree.root(size)).text(), LOG).encode()


def _proof(leaves: list[bytes], old: int, new: int) -> ConsistencyProof:
    return ConsistencyProof(old, new, Tree([leaf_hash(x) for x in leaves]).consistency_proof(old, new))


def test_first_growth_fork_and_rollback(tmp_path):
    state = tmp_path / "state.json"
    leaves = [bytes([i]) for i in range(9)]
    first = witness(_note(leaves, 5), None, LOG.verifier, WITNESS, state, now=1000)
    assert first["first_seen"] and verify_cosignature(parse_note(first["note"]), WITNESS.verifier) == 1000
    grown = witness(_note(leaves, 9), _proof(leaves, 5, 9), LOG.verifier, WITNESS, state, now=1001)
    assert grown["previous_size"] == 5
    other = [*leaves[:8], b"other"]
    with pytest.raises(UserError, match="fork"):
        witness(_note(other, 9), None, LOG.verifier, WITNESS, state)
    with pytest.raises(UserError, match="rollback"):
        witness(_note(leaves, 7), None, LOG.verifier, WITNESS, state)
    longer = [*other, b"x"]
    with pytest.raises(UserError, match="append-only"):
        witness(_note(longer, 10), _proof(longer, 9, 10), LOG.verifier, WITNESS, state)
    with pytest.raises(UserError, match="not signed by the log key"):
        witness(sign_note(Checkpoint(LOG.name, 10, b"\0" * 32).text(), Signer.generate(LOG.name)).encode(),
                None, LOG.verifier, WITNESS, state)
    assert '"size": 9' in state.read_text()
