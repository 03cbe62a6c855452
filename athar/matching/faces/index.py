"""A persistent FAISS index of face vectors, keyed by the caller's face ids.

Inner product on L2-normalised vectors = cosine similarity. Exact search
(``IndexFlatIP``) is used up to ``EXACT_UP_TO`` vectors — measured p95 query time
stays within target there (docs/faces.md); beyond, an HNSW graph keeps p95 low at
a million faces with recall measured in benchmarks/faces/index_latency.py.
Ids are int64 face ids from the database; mapping faces to cases is the caller's
business, helped by :func:`rank_cases`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from .datatypes import FloatArray

EXACT_UP_TO = 300_000
HNSW_M = 32
HNSW_EF_SEARCH = 128
SIDECAR = "index.json"
VECTORS = "index.faiss"


def _faiss():  # type: ignore[no-untyped-def]
    import faiss

    faiss.omp_set_num_threads(1)  # shared small machines: one thread, predictable latency
    return faiss


def _as_matrix(vectors: FloatArray, dim: int) -> FloatArray:
    v = np.ascontiguousarray(np.atleast_2d(vectors), dtype=np.float32)
    if v.shape[1] != dim:
        raise ValueError(f"vectors have {v.shape[1]} dimensions, the index {dim}")
    return v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)


class FaceIndex:
    """Add, remove and search face vectors of one embedding model."""

    def __init__(self, model_name: str, model_version: str, dim: int, kind: str = "flat") -> None:
        self.model_name, self.model_version, self.dim, self.kind = model_name, model_version, dim, kind
        faiss = _faiss()
        if kind == "flat":
            inner = faiss.IndexFlatIP(dim)
        elif kind == "hnsw":
            inner = faiss.IndexHNSWFlat(dim, HNSW_M, faiss.METRIC_INNER_PRODUCT)
            inner.hnsw.efSearch = HNSW_EF_SEARCH
        else:
            raise ValueError("kind must be 'flat' or 'hnsw'")
        self._index = faiss.IndexIDMap2(inner)

    @classmethod
    def for_size(cls, model_name: str, model_version: str, dim: int, expected: int) -> "FaceIndex":
        """Exact search for archives up to EXACT_UP_TO faces, HNSW beyond."""
        return cls(model_name, model_version, dim, "flat" if expected <= EXACT_UP_TO else "hnsw")

    def __len__(self) -> int:
        return int(self._index.ntotal)

    def add(self, face_ids: np.ndarray, vectors: FloatArray) -> None:
        """Add vectors under int64 face ids (an id already present is replaced)."""
        ids = np.ascontiguousarray(face_ids, dtype=np.int64).ravel()
        v = _as_matrix(vectors, self.dim)
        if len(ids) != len(v):
            raise ValueError("one id per vector")
        self.remove(ids)
        self._index.add_with_ids(v, ids)

    def remove(self, face_ids: np.ndarray) -> int:
        """Remove faces by id; returns how many were removed.

        HNSW graphs cannot delete in place, so there we rebuild without them.
        """
        ids = np.ascontiguousarray(face_ids, dtype=np.int64).ravel()
        if len(ids) == 0 or len(self) == 0:
            return 0
        if self.kind == "flat":
            return int(self._index.remove_ids(_faiss().IDSelectorBatch(ids)))
        keep_ids, keep_vecs = self._all()
        mask = ~np.isin(keep_ids, ids)
        removed = int((~mask).sum())
        if removed:
            fresh = FaceIndex(self.model_name, self.model_version, self.dim, self.kind)
            if mask.any():
                fresh._index.add_with_ids(keep_vecs[mask], keep_ids[mask])
            self._index = fresh._index
        return removed

    def _all(self) -> tuple[np.ndarray, FloatArray]:
        ids = _faiss().vector_to_array(self._index.id_map).astype(np.int64)
        vecs = np.vstack([self._index.reconstruct(int(i)) for i in ids]) if len(ids) else np.zeros((0, self.dim), np.float32)
        return ids, vecs

    def search(self, vectors: FloatArray, k: int) -> tuple[np.ndarray, FloatArray]:
        """Top-k face ids and cosine similarities per query row (id −1 pads short results)."""
        v = _as_matrix(vectors, self.dim)
        sims, ids = self._index.search(v, max(1, min(k, max(len(self), 1))))
        return ids.astype(np.int64), sims.astype(np.float32)

    def save(self, directory: Path) -> None:
        """Write the index and a JSON sidecar (model, dimension, count, kind)."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        _faiss().write_index(self._index, str(directory / VECTORS))
        meta = {"model_name": self.model_name, "model_version": self.model_version, "dim": self.dim, "count": len(self), "kind": self.kind}
        (directory / SIDECAR).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, directory: Path, model_name: str | None = None) -> "FaceIndex":
        """Read an index; refuses one built by another model than ``model_name``."""
        directory = Path(directory)
        meta = json.loads((directory / SIDECAR).read_text(encoding="utf-8"))
        if model_name is not None and meta["model_name"] != model_name:
            raise ValueError(f"index built with {meta['model_name']}, not {model_name}: rebuild it")
        obj = cls(meta["model_name"], meta["model_version"], int(meta["dim"]), meta["kind"])
        obj._index = _faiss().read_index(str(directory / VECTORS))
        if len(obj) != int(meta["count"]):
            raise ValueError("index file and sidecar disagree on the count: rebuild the index")
        return obj


def rank_cases(
    face_ids: np.ndarray, sims: FloatArray, face_to_case: Mapping[int, int], limit: int | None = None
) -> list[tuple[int, float]]:
    """Face hits of one query → cases ranked by their best face (the measured rule).

    ``face_ids``/``sims`` are one row of :meth:`FaceIndex.search`; unknown ids are skipped.
    """
    best: dict[int, float] = {}
    for fid, sim in zip(np.ravel(face_ids), np.ravel(sims)):
        case = face_to_case.get(int(fid))
        if case is not None and sim > best.get(case, -2.0):
            best[case] = float(sim)
    ranked = sorted(best.items(), key=lambda kv: -kv[1])
    return ranked[:limit] if limit else ranked
