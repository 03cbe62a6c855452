"""Small real images for the face tests (LFW photos read from ../shared/data)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from tests.shared_data import require_shared_data


@pytest.fixture(scope="session")
def lfw() -> Path:
    return require_shared_data("faces", "lfw-dev")


@pytest.fixture(scope="session")
def face_a(lfw: Path) -> Image.Image:
    return Image.open(sorted((lfw / "Aaron_Eckhart").glob("*.jpg"))[0]).convert("RGB")


@pytest.fixture(scope="session")
def face_b(lfw: Path) -> Image.Image:
    return Image.open(sorted((lfw / "Colin_Powell").glob("*.jpg"))[0]).convert("RGB")


@pytest.fixture(scope="session")
def pipeline():  # type: ignore[no-untyped-def]
    from athar.matching.faces import FacePipeline

    return FacePipeline()
