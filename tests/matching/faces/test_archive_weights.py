"""The default embedder's fine-tuned weights: provenance, version, and the shared vector space."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
from PIL import Image, ImageEnhance, ImageFilter

from athar.matching.faces import FacePipeline, family_face, get_face_model
from athar.matching.faces.onnx_models import (
    ARCHIVE_EMBEDDER_FILE,
    ARCHIVE_EMBEDDER_VERSION,
    ONNX_EMBEDDER_VERSION,
    model_file,
    sha256_of,
)

PROVENANCE = Path(model_file("fr_feature.onnx")).with_name("PROVENANCE.md")


def test_every_vendored_model_file_matches_its_recorded_sha256() -> None:
    text = PROVENANCE.read_text("utf-8")
    recorded = dict(re.findall(r"^\| `([\w.]+)` \| [\d,]+ \| `([0-9a-f]{64})` \|", text, re.M))
    assert {"fr_detect.onnx", "fr_feature.onnx", ARCHIVE_EMBEDDER_FILE} <= set(recorded)
    for name, digest in recorded.items():
        assert sha256_of(model_file(name)) == digest, name


def test_default_uses_the_fine_tuned_weights_under_their_own_version() -> None:
    default, original = get_face_model("arcface"), get_face_model("arcface-original")
    assert default.embedder.version == ARCHIVE_EMBEDDER_VERSION != original.embedder.version == ONNX_EMBEDDER_VERSION
    assert default.name == original.name  # one vector space (distilled into it) …
    assert default.version != original.version  # … but vectors of one are never mixed with the other's


def _archive_like(img: Image.Image) -> Image.Image:
    grey = ImageEnhance.Contrast(ImageEnhance.Color(img).enhance(0.2)).enhance(0.6)
    small = grey.filter(ImageFilter.GaussianBlur(1.5)).resize((90, 90), Image.Resampling.BILINEAR)
    return small.resize((250, 250), Image.Resampling.BILINEAR)


def test_fine_tuned_weights_stay_in_the_original_space_and_hold_a_degraded_face_closer(face_a, face_b) -> None:  # type: ignore[no-untyped-def]
    new, old = FacePipeline("arcface"), FacePipeline("arcface-original")
    clean_new, clean_old = family_face(new.analyse(face_a)).embedding, family_face(old.analyse(face_a)).embedding
    assert float(clean_new @ clean_old) > 0.8  # the same photo lands where it landed
    degraded = _archive_like(face_a)
    same_new = float(clean_new @ family_face(new.analyse(degraded)).embedding)
    same_old = float(clean_old @ family_face(old.analyse(degraded)).embedding)
    other_new = float(clean_new @ family_face(new.analyse(face_b)).embedding)
    assert same_new > same_old  # what the fine-tuning is for
    assert same_new - other_new > 0.3 and np.isfinite(same_new)
