"""athar.audit.merkle against RFC 6962's published vectors (as transparency-dev/merkle and
Certificate Transparency use them: rfc6962/rfc6962_test.go, proof/verify_test.go) and against a
naive transcription of the RFC's recursive definitions (hypothesis)."""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from athar.audit import merkle
from athar.audit.merkle import ProofError, Tree

# The 8 leaves of the reference tests and the roots of their first 1…8 leaves.
LEAVES = [bytes.fromhex(h) for h in ("", "00", "10", "2021", "3031", "40414243", "5051525354555657",
                                     "606162636465666768696a6b6c6d6e6f")]
ROOTS = [bytes.fromhex(h) for h in (
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
)]
# (leaf number counted from 1, tree size, proof)
INCLUSION = [
    (1, 8, ["96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"]),
    (6, 8, ["bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"]),
    (3, 3, ["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"]),
    (2, 5, ["6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"]),
    (1, 1, []),
]
# (old size, new size, proof)
CONSISTENCY = [
    (1, 1, []),
    (1, 8, ["96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"]),
    (6, 8, ["0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"]),
    (2, 5, ["5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"]),
    (6, 7, ["0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
            "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"]),
]
HASHES = [merkle.leaf_hash(leaf) for leaf in LEAVES]
SOME_HASH = bytes.fromhex("abacaba000000000000000000000000000000000000000000060061e00123456")


def test_rfc6962_hasher_vectors():
    assert merkle.EMPTY_ROOT.hex() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert merkle.leaf_hash(b"").hex() == "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d"
    assert merkle.leaf_hash(b"L123456").hex() == "395aa064aa4c29f7010acfe3f25db9485bbd4b91897b6ad7ad547639252b4d56"
    assert merkle.node_hash(b"N123", b"N456").hex() == \
        "aa217fe888e47007fa15edab33c2b492a722cb106c64667fc2b044444de66bbb"


@pytest.mark.parametrize("size", range(1, 9))
def test_roots_of_the_reference_tree(size):
    assert merkle.root(HASHES[:size]) == ROOTS[size - 1]
    assert Tree(HASHES).root(size) == ROOTS[size - 1]


@pytest.mark.parametrize(("leaf", "size", "proof"), INCLUSION)
def test_inclusion_vectors(leaf, size, proof):
    expected = [bytes.fromhex(h) for h in proof]
    assert Tree(HASHES).inclusion_proof(leaf - 1, size) == expected
    assert merkle.inclusion_proof(HASHES[:size], leaf - 1) == expected
    merkle.verify_inclusion(leaf - 1, size, HASHES[leaf - 1], expected, ROOTS[size - 1])


@pytest.mark.parametrize(("leaf", "size", "proof"), INCLUSION)
def test_corrupted_inclusion_proofs_fail(leaf, size, proof):
    good = [bytes.fromhex(h) for h in proof]
    index, root, hashed = leaf - 1, ROOTS[size - 1], HASHES[leaf - 1]
    probes = [(index - 1, size, hashed, good, root), (index + 1, size, hashed, good, root),
              (index ^ 2, size, hashed, good, root), (index, size * 2, hashed, good, root),
              (index, size // 2, hashed, good, root), (index, size, b"WrongLeaf".ljust(32), good, root),
              (index, size, hashed, good, merkle.EMPTY_ROOT), (index, size, hashed, good, SOME_HASH),
              (index, size, hashed, [*good, root], root), (index, size, hashed, [root, *good], root)]
    probes += [(index, size, hashed, good[:i] + [bytes([good[i][0] ^ 8]) + good[i][1:]] + good[i + 1:], root)
               for i in range(len(good))]
    if good:
        probes.append((index, size, hashed, good[:-1], root))
    for probe in probes:
        with pytest.raises(ProofError):
            merkle.verify_inclusion(*probe)


@pytest.mark.parametrize(("old", "new", "proof"), CONSISTENCY)
def test_consistency_vectors(old, new, proof):
    expected = [bytes.fromhex(h) for h in proof]
    assert Tree(HASHES).consistency_proof(old, new) == expected
    assert merkle.consistency_proof(HASHES[:new], old) == expected
    merkle.verify_consistency(old, new, ROOTS[old - 1], ROOTS[new - 1], expected)


@pytest.mark.parametrize(("old", "new", "proof"), [c for c in CONSISTENCY if c[2]])
def test_corrupted_consistency_proofs_fail(old, new, proof):
    good = [bytes.fromhex(h) for h in proof]
    r1, r2 = ROOTS[old - 1], ROOTS[new - 1]
    probes = [(old - 1, new, r1, r2, good), (old + 1, new, r1, r2, good), (old ^ 2, new, r1, r2, good),
              (old, new * 2, r1, r2, good), (old, new // 2, r1, r2, good), (old, new, SOME_HASH, r2, good),
              (old, new, r1, SOME_HASH, good), (old, new, r2, r1, good), (old, new, r1, r2, []),
              (old, new, r1, r2, [*good, r1]), (old, new, r1, r2, [*good, r2]), (old, new, r1, r2, [r1, *good]),
              (old, new, r1, r2, [r2, *good]), (old, new, r1, r2, [good[0], *good]), (old, new, r1, r2, good[:-1])]
    probes += [(old, new, r1, r2, good[:i] + [bytes([good[i][0] ^ 16]) + good[i][1:]] + good[i + 1:])
               for i in range(len(good))]
    for probe in probes:
        with pytest.raises(ProofError):
            merkle.verify_consistency(*probe)


def test_rollback_and_fork_are_named():
    with pytest.raises(ProofError, match="rollback"):
        merkle.verify_consistency(5, 3, ROOTS[4], ROOTS[2], [])
    with pytest.raises(ProofError, match="fork"):
        merkle.verify_consistency(5, 5, ROOTS[4], ROOTS[3], [])


# --- a naive transcription of RFC 6962 §2.1 (recursive, slow, obviously the RFC) ----------------

def naive_mth(d: list[bytes]) -> bytes:
    if not d:
        return hashlib.sha256(b"").digest()
    if len(d) == 1:
        return hashlib.sha256(b"\x00" + d[0]).digest()
    k = 1
    while k * 2 < len(d):
        k *= 2
    return hashlib.sha256(b"\x01" + naive_mth(d[:k]) + naive_mth(d[k:])).digest()


def naive_path(m: int, d: list[bytes]) -> list[bytes]:
    if len(d) == 1:
        return []
    k = 1
    while k * 2 < len(d):
        k *= 2
    if m < k:
        return naive_path(m, d[:k]) + [naive_mth(d[k:])]
    return naive_path(m - k, d[k:]) + [naive_mth(d[:k])]


def naive_subproof(m: int, d: list[bytes], b: bool) -> list[bytes]:
    if m == len(d):
        return [] if b else [naive_mth(d)]
    k = 1
    while k * 2 < len(d):
        k *= 2
    if m <= k:
        return naive_subproof(m, d[:k], b) + [naive_mth(d[k:])]
    return naive_subproof(m - k, d[k:], False) + [naive_mth(d[:k])]


data_lists = st.lists(st.binary(max_size=6), min_size=1, max_size=70)


@settings(max_examples=150, deadline=None)
@given(data_lists, st.data())
def test_same_as_the_rfc_recursion(items, draw):
    hashes = [merkle.leaf_hash(x) for x in items]
    tree = Tree(hashes)
    size = draw.draw(st.integers(1, len(items)))
    index = draw.draw(st.integers(0, size - 1))
    old = draw.draw(st.integers(1, size))
    assert tree.root(size) == merkle.root(hashes[:size]) == naive_mth(items[:size])
    path = tree.inclusion_proof(index, size)
    assert path == naive_path(index, items[:size])
    merkle.verify_inclusion(index, size, hashes[index], path, naive_mth(items[:size]))
    proof = tree.consistency_proof(old, size)
    assert proof == (naive_subproof(old, items[:size], True) if old < size else [])
    merkle.verify_consistency(old, size, naive_mth(items[:old]), naive_mth(items[:size]), proof)


@settings(max_examples=100, deadline=None)
@given(data_lists, st.data())
def test_a_changed_leaf_breaks_consistency(items, draw):
    old = draw.draw(st.integers(1, len(items)))
    changed = draw.draw(st.integers(0, old - 1))
    hashes = [merkle.leaf_hash(x) for x in items]
    rewritten = list(hashes)
    rewritten[changed] = merkle.leaf_hash(items[changed] + b"!")
    tree = Tree(rewritten)
    with pytest.raises(ProofError):
        merkle.verify_consistency(old, len(items), merkle.root(hashes[:old]), tree.root(),
                                  tree.consistency_proof(old))


def test_merkle_imports_nothing_of_django_or_athar():
    source = Path(merkle.__file__).read_text(encoding="utf-8")
    names = [n.module or "" for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ImportFrom)]
    names += [a.name for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Import) for a in n.names]
    assert names and not [n for n in names if n.split(".")[0] in ("django", "athar")]
