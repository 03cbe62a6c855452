"""Faces found and embedded for ingested photos. Wired to the face pipeline in the faces work."""

from __future__ import annotations

from typing import Any


def index_after_ingest(photo_ids: list[int]) -> dict[str, Any]:
    """Index faces of newly ingested photos (a no-op report until the face pipeline is wired)."""
    return {"indexed": 0, "pending": len(photo_ids), "note": "face pipeline not wired yet"}
