"""atheris harness: image bytes → the two loaders athar uses on photos from outside.

* ``athar.archive.imaging``: ``decode_image`` then everything ``process_file`` does after it
  (``describe``/EXIF, ``make_derivatives`` into an in-memory store, perceptual hashes);
* ``athar.matching.faces.images.load_image`` (family uploads, face indexing).

HEIC/HEIF is reachable from bytes (pillow-heif is registered by both modules).
Contract: ``decode_image`` raises only ``ImageProblem``; ``load_image`` only ``ImageError``; both
with a non-empty reason. When they accept, the result is a fully decoded image: ``load_image``
gives RGB, and the derivatives are complete JPEGs. Anything else (another exception, a hang,
a native crash) is a finding.

    .venv/bin/python fuzz/fuzz_images.py -runs=20000 fuzz/corpus/images
"""

from __future__ import annotations

import hashlib
import io
import sys
import warnings

import atheris

with atheris.instrument_imports(include=["athar", "PIL"]):
    from PIL import Image

    from athar.archive import imaging
    from athar.matching.faces import images

    Image.init()  # Pillow imports its format plugins lazily: import them here, instrumented

warnings.simplefilter("ignore")  # Pillow's UserWarnings on odd files ("Tag data larger than file")

# The fuzzer runs the product's logic with smaller pixel limits (same code paths, less memory per
# input: libFuzzer's default RSS limit is 2 GB and a 100-megapixel RGB image alone is 300 MB).
FUZZ_MAX_PIXELS = 4_000_000
images.MAX_PIXELS = FUZZ_MAX_PIXELS


class MemoryStore:
    """The MediaStore methods make_derivatives uses, in memory."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}

    def derivative_relpath(self, sha256: str, kind: str, index: int = 0) -> str:
        return f"{sha256}_{kind}_{index}.jpg"

    def write_derivative(self, relpath: str, data: bytes) -> None:
        self.files[relpath] = data

    def link_derivative(self, existing: str, relpath: str) -> None:
        assert existing in self.files, f"a link to a derivative never written: {existing}"
        self.files[relpath] = self.files[existing]


def check_ingest(data: bytes) -> None:
    try:
        image = imaging.decode_image(data, FUZZ_MAX_PIXELS)
    except imaging.ImageProblem as exc:
        assert str(exc), "ImageProblem without a reason"
        return
    result = imaging.FileResult("fuzz", sha256=hashlib.sha256(data).hexdigest(), size=len(data))
    imaging.describe(image, result)
    store = MemoryStore()
    result.derivatives, thumb = imaging.make_derivatives(image, result.sha256, store)
    imaging.perceptual_hashes(thumb, result)
    assert [d.kind for d in result.derivatives] == ["view", "thumb", "blur", "blur_thumb"]
    for data_out in store.files.values():
        assert data_out.startswith(b"\xff\xd8") and data_out.endswith(b"\xff\xd9"), "incomplete derivative"
    assert all(isinstance(v, str) and len(v) <= imaging.EXIF_VALUE_LIMIT for v in result.exif.values())


def check_upload(data: bytes) -> None:
    Image.MAX_IMAGE_PIXELS = FUZZ_MAX_PIXELS  # decode_image sets the global too
    try:
        image = images.load_image(data)
    except images.ImageError as exc:
        assert exc.reason, "ImageError without a reason"
        return
    assert image.mode == "RGB" and image.width * image.height <= FUZZ_MAX_PIXELS
    image.tobytes()  # fully decoded: no lazy tile left


def TestOneInput(data: bytes) -> None:
    check_ingest(data)
    check_upload(data)


def main() -> None:
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
