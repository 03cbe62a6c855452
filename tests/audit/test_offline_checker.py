"""verify_evidence.py is copied into every export and runs without athar: it may import only the
standard library and ``cryptography`` (read from the source with ``ast``, nothing is imported)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from athar.audit import merkle, verify_evidence
from tests.audit.test_merkle import CONSISTENCY, HASHES, INCLUSION, ROOTS


def test_the_checker_imports_only_the_standard_library_and_cryptography():
    tree = ast.parse(Path(verify_evidence.__file__).read_text(encoding="utf-8"))
    names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    names += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    tops = {n.split(".")[0] for n in names}
    assert tops - {"__future__", "cryptography"} <= set(sys.stdlib_module_names)
    assert "athar" not in tops and "django" not in tops


def test_the_checkers_own_merkle_code_agrees_with_the_published_vectors():
    for leaf, size, proof in INCLUSION:
        hashes = [bytes.fromhex(h) for h in proof]
        assert verify_evidence.root_from_inclusion(leaf - 1, size, HASHES[leaf - 1], hashes) == ROOTS[size - 1]
    for old, new, proof in CONSISTENCY:
        verify_evidence.verify_consistency(old, new, ROOTS[old - 1], ROOTS[new - 1], [bytes.fromhex(h) for h in proof])
    assert verify_evidence.leaf_hash(b"L123456") == merkle.leaf_hash(b"L123456")
