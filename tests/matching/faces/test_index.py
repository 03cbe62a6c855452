from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from athar.matching.faces.index import FaceIndex, rank_cases


def _vecs(n: int, dim: int = 16, seed: int = 0) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


@pytest.mark.parametrize("kind", ["flat", "ivf"])
def test_add_search_remove_save_load(tmp_path: Path, kind: str) -> None:
    v = _vecs(50)
    idx = FaceIndex("m", "1", 16, kind)
    idx.add(np.arange(100, 150), v)
    ids, sims = idx.search(v[7], 3)
    assert ids[0, 0] == 107 and sims[0, 0] == pytest.approx(1.0, abs=1e-5)
    assert idx.remove(np.array([107])) == 1
    assert 107 not in idx.search(v[7], 5)[0][0]
    idx.add(np.array([999]), v[7])  # incremental add after a removal
    idx.save(tmp_path / "ix")
    back = FaceIndex.load(tmp_path / "ix", model_name="m")
    assert len(back) == 50 and back.search(v[7], 1)[0][0, 0] == 999


def test_re_adding_an_id_replaces_it() -> None:
    v = _vecs(3)
    idx = FaceIndex("m", "1", 16)
    idx.add(np.array([1, 2, 3]), v)
    idx.add(np.array([1]), v[2])
    assert len(idx) == 3


def test_load_refuses_another_model(tmp_path: Path) -> None:
    FaceIndex("m", "1", 16).save(tmp_path)
    with pytest.raises(ValueError, match="rebuild"):
        FaceIndex.load(tmp_path, model_name="other")


def test_wrong_dimension_is_refused() -> None:
    with pytest.raises(ValueError, match="dimensions"):
        FaceIndex("m", "1", 16).add(np.array([1]), np.ones((1, 8), np.float32))


def test_rank_cases_keeps_best_face_per_case() -> None:
    ranked = rank_cases(np.array([1, 2, 3, 4]), np.array([0.9, 0.8, 0.95, 0.1]), {1: 10, 2: 20, 3: 20})
    assert ranked == [(20, pytest.approx(0.95)), (10, pytest.approx(0.9))]
