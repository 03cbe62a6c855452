"""The Merkle tree of RFC 6962 / RFC 9162 (Certificate Transparency), as plain Python.

Imports nothing of Django or athar: the audit log uses it as its tree, and anyone can read it
beside the RFC. Hashes are raw 32-byte SHA-256 digests:

- a leaf is ``SHA-256(0x00 || data)``, an inner node ``SHA-256(0x01 || left || right)`` (the prefixes
  keep a leaf from passing for a node: second-preimage resistance);
- the root of ``n`` leaves splits at ``k``, the largest power of two smaller than ``n``;
- inclusion proofs (RFC 9162 §2.1.3) and consistency proofs (§2.1.4) are generated from the leaf
  hashes and verified with the RFC's algorithms, which need only the proof, the sizes and the roots.

No well-kept Python library implements these proofs (the Go reference is transparency-dev/merkle);
tests/audit/test_merkle.py checks this module against its published vectors and a naive recursion.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

HASH_SIZE = 32
EMPTY_ROOT = hashlib.sha256(b"").digest()


class ProofError(ValueError):
    """A proof that does not prove what it claims (wrong size, wrong hash, too long or too short)."""


def leaf_hash(data: bytes) -> bytes:
    """``SHA-256(0x00 || data)``."""
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """``SHA-256(0x01 || left || right)``."""
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than ``n`` (n >= 2)."""
    return 1 << ((n - 1).bit_length() - 1)


def root(leaves: Sequence[bytes]) -> bytes:
    """The tree head of leaf hashes (``MTH``), in one pass keeping log2(n) partial subtrees."""
    stack: list[tuple[int, bytes]] = []  # (height, hash) of full subtrees, left to right
    for leaf in leaves:
        height, value = 0, leaf
        while stack and stack[-1][0] == height:
            value = node_hash(stack.pop()[1], value)
            height += 1
        stack.append((height, value))
    if not stack:
        return EMPTY_ROOT
    value = stack.pop()[1]
    while stack:
        value = node_hash(stack.pop()[1], value)
    return value


class Tree:
    """The leaf hashes with every full subtree's hash kept (``levels[h][i]`` covers leaves
    ``i*2^h … (i+1)*2^h - 1``): built in one pass of n hashes, then any root, inclusion proof or
    consistency proof of any prefix costs O(log n) hashes instead of O(n)."""

    def __init__(self, leaves: Sequence[bytes]) -> None:
        self.levels: list[list[bytes]] = [list(leaves)]
        while len(self.levels[-1]) > 1:
            below = self.levels[-1]
            self.levels.append([node_hash(below[i], below[i + 1]) for i in range(0, len(below) - 1, 2)])

    @property
    def size(self) -> int:
        return len(self.levels[0])

    def leaf(self, index: int) -> bytes:
        return self.levels[0][index]

    def range_root(self, lo: int, hi: int) -> bytes:
        """The hash of leaves ``lo … hi-1`` as RFC 6962 splits them (``lo`` aligned, as every
        range the RFC's recursion visits is): aligned full subtrees, largest first, joined right to left."""
        if hi <= lo:
            return EMPTY_ROOT
        parts: list[bytes] = []
        while lo < hi:
            height = (hi - lo).bit_length() - 1
            while lo % (1 << height):
                height -= 1
            parts.append(self.levels[height][lo >> height])
            lo += 1 << height
        value = parts.pop()
        while parts:
            value = node_hash(parts.pop(), value)
        return value

    def root(self, size: int | None = None) -> bytes:
        """The tree head of the first ``size`` leaves (all by default)."""
        size = self.size if size is None else size
        if not 0 <= size <= self.size:
            raise ProofError(f"a tree of {size} leaves is not within {self.size}")
        return self.range_root(0, size)

    def inclusion_proof(self, index: int, size: int | None = None) -> list[bytes]:
        """``PATH(m, D[n])``: the sibling hashes from leaf ``index`` up to the root of ``size`` leaves."""
        size = self.size if size is None else size
        if not 0 <= index < size <= self.size:
            raise ProofError(f"leaf {index} is not in a tree of {size}")
        proof: list[bytes] = []
        lo, hi = 0, size
        while hi - lo > 1:
            k = _split(hi - lo)
            if index < lo + k:
                proof.append(self.range_root(lo + k, hi))
                hi = lo + k
            else:
                proof.append(self.range_root(lo, lo + k))
                lo += k
        proof.reverse()
        return proof

    def consistency_proof(self, old_size: int, size: int | None = None) -> list[bytes]:
        """``PROOF(m, D[n])``: what shows the first ``old_size`` leaves start the first ``size``."""
        size = self.size if size is None else size
        if not 0 <= old_size <= size <= self.size:
            raise ProofError(f"an old size of {old_size} does not fit a tree of {size}")
        if old_size in (0, size):
            return []
        return self._subproof(0, size, old_size, True)

    def _subproof(self, lo: int, hi: int, m: int, whole: bool) -> list[bytes]:
        n = hi - lo
        if m == n:
            return [] if whole else [self.range_root(lo, hi)]
        k = _split(n)
        if m <= k:
            return [*self._subproof(lo, lo + k, m, whole), self.range_root(lo + k, hi)]
        return [*self._subproof(lo + k, hi, m - k, False), self.range_root(lo, lo + k)]


def inclusion_proof(leaves: Sequence[bytes], index: int) -> list[bytes]:
    """``PATH(m, D[n])`` of leaf ``index`` among ``leaves`` (see ``Tree`` to prove many)."""
    return Tree(leaves).inclusion_proof(index)


def consistency_proof(leaves: Sequence[bytes], old_size: int) -> list[bytes]:
    """``PROOF(m, D[n])`` of the first ``old_size`` of ``leaves`` (see ``Tree`` to prove many)."""
    return Tree(leaves).consistency_proof(old_size)


def root_from_inclusion(index: int, size: int, leaf: bytes, proof: Sequence[bytes]) -> bytes:
    """The root an inclusion proof leads to (RFC 9162 §2.1.3.2); ProofError if it cannot lead anywhere."""
    if not 0 <= index < size:
        raise ProofError(f"leaf {index} is not in a tree of {size}")
    _check_hashes([leaf, *proof])
    fn, sn, value = index, size - 1, leaf
    for sibling in proof:
        if sn == 0:
            raise ProofError("the inclusion proof is too long")
        if fn & 1 or fn == sn:
            value = node_hash(sibling, value)
            if not fn & 1:
                while fn and not fn & 1:
                    fn, sn = fn >> 1, sn >> 1
        else:
            value = node_hash(value, sibling)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0:
        raise ProofError("the inclusion proof is too short")
    return value


def verify_inclusion(index: int, size: int, leaf: bytes, proof: Sequence[bytes], expected_root: bytes) -> None:
    """Raise ProofError unless ``leaf`` is leaf ``index`` of the tree of ``size`` with ``expected_root``."""
    if root_from_inclusion(index, size, leaf, proof) != expected_root:
        raise ProofError("the inclusion proof leads to another root")


def verify_consistency(old_size: int, new_size: int, old_root: bytes, new_root: bytes,
                       proof: Sequence[bytes]) -> None:
    """Raise ProofError unless the tree (old_size, old_root) is the start of (new_size, new_root)
    (RFC 9162 §2.1.4.2)."""
    if old_size > new_size:
        raise ProofError(f"the new tree ({new_size}) is smaller than the old one ({old_size}): a rollback")
    if old_size == new_size:
        if proof:
            raise ProofError("two trees of one size need an empty proof")
        if old_root != new_root:
            raise ProofError(f"two different roots for one size ({new_size}): a fork")
        return
    if old_size == 0:
        if proof:
            raise ProofError("the empty tree needs an empty proof")
        return
    _check_hashes(proof)
    if not proof:
        raise ProofError("the consistency proof is empty")
    path = list(proof)
    if old_size & (old_size - 1) == 0:  # a power of two: the old root is the first node
        path.insert(0, old_root)
    fn, sn = old_size - 1, new_size - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            raise ProofError("the consistency proof is too long")
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            while fn and not fn & 1:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0:
        raise ProofError("the consistency proof is too short")
    if fr != old_root:
        raise ProofError("the consistency proof does not lead to the old root: the log was rewritten")
    if sr != new_root:
        raise ProofError("the consistency proof does not lead to the new root")


def _check_hashes(hashes: Sequence[bytes]) -> None:
    if any(len(h) != HASH_SIZE for h in hashes):
        raise ProofError(f"a hash in the proof is not {HASH_SIZE} bytes")
