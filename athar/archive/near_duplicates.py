"""Near-duplicate photos (re-encoded or resized copies) by perceptual hash.

Both the DCT hash (phash) and the gradient hash (dhash) must be close: either alone links
different photos of similar scenes (bodies on the same floor) too often.
"""

from __future__ import annotations

import numpy as np

from athar.archive.models import Photo

PHASH_MAX_DISTANCE = 6
DHASH_MAX_DISTANCE = 10
_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint8)


def _as_int(hex_hash: str) -> int:
    return int(hex_hash, 16) if hex_hash else 0


def hamming(a: np.ndarray, b: int) -> np.ndarray:
    """Bit distances between an array of 64-bit hashes and one hash."""
    xor = np.bitwise_xor(a, np.uint64(b))
    return _POPCOUNT[xor.view(np.uint8)].reshape(-1, 8).sum(axis=1)


class NearDuplicateFinder:
    """An in-memory table of hashes, grown as photos are added (55,000 photos: ~1 ms a lookup)."""

    def __init__(self) -> None:
        self.ids: list[int] = []
        self._phash = np.zeros(1024, dtype=np.uint64)
        self._dhash = np.zeros(1024, dtype=np.uint64)

    @classmethod
    def for_existing_photos(cls) -> NearDuplicateFinder:
        finder = cls()
        for pk, phash, dhash in Photo.objects.exclude(phash="").values_list("id", "phash", "dhash").iterator():
            finder._append(pk, phash, dhash)
        return finder

    def _append(self, pk: int, phash: str, dhash: str) -> None:
        n = len(self.ids)
        if n == len(self._phash):  # grow by doubling: amortised O(1) appends
            self._phash = np.concatenate([self._phash, np.zeros(n, dtype=np.uint64)])
            self._dhash = np.concatenate([self._dhash, np.zeros(n, dtype=np.uint64)])
        self._phash[n], self._dhash[n] = _as_int(phash), _as_int(dhash)
        self.ids.append(pk)

    def add(self, pk: int, phash: str, dhash: str) -> list[tuple[int, int]]:
        """Register a photo; return (other photo id, phash distance) for its near-duplicates."""
        matches = self.find(phash, dhash)
        self._append(pk, phash, dhash)
        return matches

    def find(self, phash: str, dhash: str) -> list[tuple[int, int]]:
        n = len(self.ids)
        if not n:
            return []
        p_dist = hamming(self._phash[:n], _as_int(phash))
        d_dist = hamming(self._dhash[:n], _as_int(dhash))
        close = np.nonzero((p_dist <= PHASH_MAX_DISTANCE) & (d_dist <= DHASH_MAX_DISTANCE))[0]
        return [(self.ids[i], int(p_dist[i])) for i in close]
