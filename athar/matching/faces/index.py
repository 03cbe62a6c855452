"""A persistent FAISS index of face vectors, keyed by the caller's face ids.

Inner product on L2-normalised vectors = cosine similarity. Exact search
(``IndexFlatIP``) is used up to ``EXACT_UP_TO`` vectors — measured p95 query time
stays within target there (docs/faces.md); beyond, an inverted file (``IndexIVFFlat``,
k-means cells trained on the first batch added, ``nprobe`` cells searched) keeps p95
low at a million faces, with recall measured in benchmarks/faces/index_latency.py.
IVF (not HNSW) because athar must delete faces (a withdrawn photo, a wrong
ingest), which IVF does in place and HNSW cannot.
Ids are int64 face ids from the database; mapping faces to cases is the caller's
business, helped by :func:`rank_cases`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from .datatypes import FloatArray

EXACT_UP_TO = 300_000
IVF_NPROBE = 32
SIDECAR = "index.json"
VECTORS = "index.faiss"


def _faiss() -> Any:
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
        if kind not in ("flat", "ivf"):
            raise ValueError("kind must be 'flat' or 'ivf'")
        self.model_name, self.model_version, self.dim, self.kind = model_name, model_version, dim, kind
        self._index = _faiss().IndexIDMap2(_faiss().IndexFlatIP(dim)) if kind == "flat" else None

    def _train_ivf(self, sample: FloatArray) -> None:
        """Cells ≈ 4·√n (at least 39 training points per cell, as FAISS asks)."""
        faiss = _faiss()
        nlist = int(max(1, min(4 * np.sqrt(len(sample)), len(sample) // 39)))
        quantizer = faiss.IndexFlatIP(self.dim)
        ivf = faiss.IndexIVFFlat(quantizer, self.dim, nlist, faiss.METRIC_INNER_PRODUCT)
        ivf.train(sample)
        ivf.nprobe = min(IVF_NPROBE, nlist)
        self._index = faiss.IndexIDMap2(ivf)

    @classmethod
    def for_size(cls, model_name: str, model_version: str, dim: int, expected: int) -> FaceIndex:
        """Exact search for archives up to EXACT_UP_TO faces, IVF beyond."""
        return cls(model_name, model_version, dim, "flat" if expected <= EXACT_UP_TO else "ivf")

    def __len__(self) -> int:
        return int(self._index.ntotal) if self._index is not None else 0

    def add(self, face_ids: np.ndarray, vectors: FloatArray) -> None:
        """Add vectors under int64 face ids (an id already present is replaced).

        For an IVF index the first batch also trains the cells: make it large and
        representative (the whole archive when building).
        """
        ids = np.ascontiguousarray(face_ids, dtype=np.int64).ravel()
        v = _as_matrix(vectors, self.dim)
        if len(ids) != len(v):
            raise ValueError("one id per vector")
        if self._index is None:
            self._train_ivf(v)
        self.remove(ids)
        self._ready().add_with_ids(v, ids)

    def _ready(self) -> Any:
        """The FAISS index; an IVF index exists only once it was trained on the first vectors."""
        if self._index is None:
            raise RuntimeError("the face index has no vectors yet (an IVF index is trained on the first add)")
        return self._index

    def remove(self, face_ids: np.ndarray) -> int:
        """Remove faces by id; returns how many were removed."""
        ids = np.ascontiguousarray(face_ids, dtype=np.int64).ravel()
        if len(ids) == 0 or len(self) == 0:
            return 0
        return int(self._ready().remove_ids(_faiss().IDSelectorBatch(ids)))

    def search(self, vectors: FloatArray, k: int) -> tuple[np.ndarray, FloatArray]:
        """Top-k face ids and cosine similarities per query row (id −1 pads short results)."""
        v = _as_matrix(vectors, self.dim)
        if len(self) == 0:
            return np.full((len(v), k), -1, np.int64), np.full((len(v), k), -1.0, np.float32)
        sims, ids = self._ready().search(v, k)
        return ids.astype(np.int64), sims.astype(np.float32)

    def save(self, directory: Path) -> None:
        """Write the index and a JSON sidecar (model, dimension, count, kind)."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        if self._index is not None:
            _faiss().write_index(self._index, str(directory / VECTORS))
        meta = {"model_name": self.model_name, "model_version": self.model_version, "dim": self.dim, "count": len(self), "kind": self.kind}
        (directory / SIDECAR).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, directory: Path, model_name: str | None = None) -> FaceIndex:
        """Read an index; refuses one built by another model than ``model_name``."""
        directory = Path(directory)
        meta = json.loads((directory / SIDECAR).read_text(encoding="utf-8"))
        if model_name is not None and meta["model_name"] != model_name:
            raise ValueError(f"index built with {meta['model_name']}, not {model_name}: rebuild it")
        obj = cls(meta["model_name"], meta["model_version"], int(meta["dim"]), meta["kind"])
        if (directory / VECTORS).exists():
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
