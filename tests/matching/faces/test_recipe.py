"""The embedding recipe: grey + mirror average, and its version recorded with every vector."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from PIL import ImageEnhance, ImageOps

from athar.matching.faces import FacePipeline, family_face, get_face_model, load_calibration
from athar.matching.faces.models_registry import RECIPES
from athar.matching.faces.pipeline import embed_crop


def test_grey_mirror_vector_is_mirror_symmetric_and_colour_blind(pipeline, face_a) -> None:  # type: ignore[no-untyped-def]
    crop = family_face(pipeline.analyse(face_a)).crop
    emb = pipeline.model.embedder
    v = embed_crop(emb, crop, "grey-mirror")
    assert v.dtype == np.float32 and np.linalg.norm(v) == pytest.approx(1.0, abs=1e-5)
    assert np.allclose(v, embed_crop(emb, ImageOps.mirror(crop), "grey-mirror"), atol=1e-5)
    grey = crop.convert("L").convert("RGB")
    assert np.allclose(v, embed_crop(emb, grey, "grey-mirror"), atol=1e-5)
    # the plain recipe sees colour and is not mirror-symmetric
    assert not np.allclose(embed_crop(emb, crop), embed_crop(emb, ImageOps.mirror(crop)), atol=1e-3)


def test_desaturated_crop_keeps_the_grey_vector(pipeline, face_a) -> None:  # type: ignore[no-untyped-def]
    crop = family_face(pipeline.analyse(face_a)).crop
    faded = ImageEnhance.Color(crop).enhance(0.25)  # a desaturated archive print
    emb = pipeline.model.embedder
    plain = float(embed_crop(emb, crop) @ embed_crop(emb, faded))
    grey = float(embed_crop(emb, crop, "grey-mirror") @ embed_crop(emb, faded, "grey-mirror"))
    assert grey > plain and grey > 0.998


def test_unknown_recipe_is_refused(pipeline, face_a) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match="recipe"):
        embed_crop(pipeline.model.embedder, face_a.resize((112, 112)), "sepia")


def test_recipe_is_part_of_the_recorded_version(face_a) -> None:  # type: ignore[no-untyped-def]
    model = get_face_model("arcface")
    assert model.recipe == "grey-mirror" and set(RECIPES) >= {"plain", "grey-mirror"}
    new, old = FacePipeline(model), FacePipeline(dataclasses.replace(model, recipe="plain"))
    assert new.model_name == old.model_name and new.model_version != old.model_version
    assert new.model_version.endswith("+grey-mirror") and old.model_version == model.embedder.version
    face = family_face(new.analyse(face_a))
    assert face.model_version == new.model_version
    # the same photo under the two recipes: same person, different vectors
    sim = float(face.embedding @ family_face(old.analyse(face_a)).embedding)
    assert 0.7 < sim < 0.999


def test_shipped_calibration_was_fitted_for_the_current_pipeline() -> None:
    pipe = FacePipeline()
    assert load_calibration(pipe.model_name).model_version == pipe.model_version


def test_feature_norm_is_the_mean_raw_length_and_absent_for_embedders_without_raw_output(pipeline, face_a) -> None:  # type: ignore[no-untyped-def]
    from athar.matching.faces.pipeline import embed_crop_with_norm

    crop = family_face(pipeline.analyse(face_a)).crop
    emb = pipeline.model.embedder
    grey = crop.convert("L").convert("RGB")
    raw = [np.linalg.norm(emb.embed_raw(grey)), np.linalg.norm(emb.embed_raw(ImageOps.mirror(grey)))]
    vec, norm = embed_crop_with_norm(emb, crop, "grey-mirror")
    assert norm == pytest.approx(float(np.mean(raw)), rel=1e-5)
    assert np.array_equal(vec, embed_crop(emb, crop, "grey-mirror"))

    class UnitOnly:  # an embedder that gives unit vectors only (dlib's does)
        name, version, dim = "unit-only", "1", 512

        def embed(self, c):  # type: ignore[no-untyped-def]
            return emb.embed(c)

    vec2, norm2 = embed_crop_with_norm(UnitOnly(), crop, "grey-mirror")  # type: ignore[arg-type]
    assert norm2 is None and np.allclose(vec2, vec, atol=1e-6)


def test_the_several_photo_calibration_is_fitted_for_the_current_pipeline() -> None:
    from athar.matching.faces.calibration import load_calibration
    from athar.matching.faces.pipeline import FacePipeline

    pipe = FacePipeline()
    cal = load_calibration(pipe.model_name)
    assert cal.several and cal.several["model_version"] == pipe.model_version
    two = cal.for_photos(2)
    assert two.photos == "several" and 0.5 < two.score_threshold() < 0.7
