"""Reading one archive file: hash, decode safely, extract metadata, make viewing derivatives.

Runs in worker processes during ingest, so it takes and returns plain data only.
"""

from __future__ import annotations

import hashlib
import io
import logging
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import imagehash
import numpy as np
from PIL import ExifTags, Image, ImageFilter, UnidentifiedImageError

from athar.archive.jpeg_strip import jpeg_without_metadata
from athar.archive.rejections import Problem
from athar.archive.storage import MediaStore

logger = logging.getLogger(__name__)

try:  # phone photos
    from pillow_heif import register_heif_opener

    register_heif_opener()
except ImportError:  # pragma: no cover - pillow-heif is a declared dependency
    pass

IMAGE_EXTENSIONS = {".jpg", ".jpeg", ".png", ".tif", ".tiff", ".bmp", ".gif", ".webp", ".heic", ".heif"}
VIEW_MAX, THUMB_MAX, BLUR_MAX = 1600, 320, 480
BLUR_GRID = 12  # the blurred copy keeps this many pixels across: colours, no shapes or faces
EXIF_VALUE_LIMIT = 300


@dataclass
class DerivativeFile:
    kind: str
    relpath: str
    sha256: str
    width: int
    height: int


@dataclass
class FileResult:
    """What processing one file found; ``problem`` is set when it is not a viewable image (in
    English, with its code and values in ``problem_code`` and ``problem_params``)."""

    relpath: str
    sha256: str = ""
    size: int = 0
    problem: str = ""
    problem_code: str = ""
    problem_params: dict[str, Any] = field(default_factory=dict)
    kept: bool = False
    format: str = ""
    width: int | None = None
    height: int | None = None
    exif: dict[str, str] = field(default_factory=dict)
    phash: str = ""
    dhash: str = ""
    derivatives: list[DerivativeFile] = field(default_factory=list)


def process_file(abs_path: str, relpath: str, media_root: str, max_pixels: int) -> FileResult:
    """Hash and keep the bytes first (evidence), then try to read them as an image."""
    result = FileResult(relpath)
    try:
        data = Path(abs_path).read_bytes()
    except OSError as exc:
        _set_problem(result, Problem("unreadable_file", detail=str(exc.strerror or exc)))
        return result
    result.sha256, result.size = hashlib.sha256(data).hexdigest(), len(data)
    store = MediaStore(Path(media_root))
    store.store_original(data, result.sha256)
    result.kept = True
    if not data:
        _set_problem(result, Problem("empty_file"), "; kept as evidence")
        return result
    try:
        image = decode_image(data, max_pixels)
    except ImageProblem as exc:
        _set_problem(result, exc, "; kept as evidence, not viewable")
        return result
    describe(image, result)
    result.derivatives, thumb = make_derivatives(image, result.sha256, store, original=data)
    perceptual_hashes(thumb, result)
    return result


def _set_problem(result: FileResult, problem: Problem, suffix: str = "") -> None:
    result.problem = f"{problem}{suffix}"
    result.problem_code, result.problem_params = problem.code, problem.params


class ImageProblem(Problem):
    """The bytes are not a complete, safe image (``code`` says how: archive/rejections.py)."""


def decode_image(data: bytes, max_pixels: int) -> Image.Image:
    """Open and fully decode (``load`` catches truncation, ``verify`` does not); refuse bombs."""
    Image.MAX_IMAGE_PIXELS = max_pixels
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            width, height = image.size
            if width * height > max_pixels:
                raise ImageProblem("too_large", width=width, height=height)
            image.load()
    except ImageProblem:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise ImageProblem("decompression_bomb", detail=str(exc)) from exc
    except UnidentifiedImageError as exc:
        raise ImageProblem("not_an_image") from exc
    except (OSError, SyntaxError, ValueError, EOFError, RuntimeError) as exc:
        # RuntimeError: pillow-heif's libheif errors (e.g. a HEIC whose stored size is not the
        # size it decodes to); found by fuzz/fuzz_images.py
        raise ImageProblem("corrupt_image", detail=str(exc)) from exc
    except Exception as exc:  # noqa: BLE001 - Pillow's format plugins raise other types on malformed
        # files (a TIFF whose strip offsets are fractions: TypeError; found by fuzz/fuzz_images.py)
        raise ImageProblem("unreadable_image", detail=f"{type(exc).__name__}: {exc}") from exc
    return image


def describe(image: Image.Image, result: FileResult) -> None:
    """Format, size and EXIF (kept as metadata)."""
    result.format = (image.format or "").upper()
    result.width, result.height = image.size
    result.exif = exif_metadata(image)


def perceptual_hashes(thumb: Image.Image, result: FileResult) -> None:
    """DCT and gradient hashes, computed on the thumbnail (same hash, a fraction of the work)."""
    grey = thumb.convert("L")
    result.phash = phash(grey)
    result.dhash = str(imagehash.dhash(grey))


# The first 8 rows of the unnormalised DCT-II over 32 samples (scipy.fftpack.dct's default).
_DCT_ROWS = 2 * np.cos(np.pi * np.arange(8)[:, None] * (2 * np.arange(32)[None, :] + 1) / 64)


def phash(image: Image.Image) -> str:
    """``imagehash.phash`` without importing scipy (1.3 s of start-up in every ingest process): the
    same 32-px picture, the same low 8×8 DCT coefficients (by matrix products) against their median,
    the same hex string (tests/archive/test_imaging.py compares the two on many pictures)."""
    pixels = np.asarray(image.convert("L").resize((32, 32), Image.Resampling.LANCZOS), dtype=np.float64)
    low = np.round(_DCT_ROWS @ pixels @ _DCT_ROWS.T, 6)  # rounding noise (±1e-13) is no signal: a flat
    # picture's coefficients are then exactly 0, as scipy's FFT makes them
    return str(imagehash.ImageHash(low > np.median(low)))


def exif_metadata(image: Image.Image) -> dict[str, str]:
    """EXIF (with GPS) as readable strings; evidence metadata, never copied into derivatives."""
    try:
        exif = image.getexif()
    except Exception:  # noqa: BLE001 - malformed EXIF must not lose the photo
        return {}
    out: dict[str, str] = {}
    for tag, value in exif.items():
        out[ExifTags.TAGS.get(tag, str(tag))] = _exif_text(value)
    try:
        for tag, value in exif.get_ifd(ExifTags.IFD.GPSInfo).items():
            out[f"GPS{ExifTags.GPSTAGS.get(tag, str(tag))}"] = _exif_text(value)
    except Exception as error:  # noqa: BLE001 - a malformed GPS block must not lose the rest of the EXIF
        logger.warning("unreadable EXIF GPS block kept out of the metadata: %r", error)
    return out


def _exif_text(value: Any) -> str:
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    return str(value).replace("\x00", "")[:EXIF_VALUE_LIMIT]


def make_derivatives(image: Image.Image, sha256: str, store: MediaStore,
                     original: bytes | None = None) -> tuple[list[DerivativeFile], Image.Image]:
    """A viewing copy, a thumbnail, and blurred versions of both; none carries EXIF or any other
    metadata.

    Returns the files and the thumbnail (reused for perceptual hashes). A picture no larger than
    a thumbnail has the same pixels in its viewing copy and its thumbnail (and in both blurred
    copies): each is encoded and written once, and given both names (creating a file costs ~1 ms
    of CPU on our disks; a second name ~0.05 ms). An upright RGB JPEG no larger than the viewing
    size (``original``: its bytes) keeps its own compressed picture as the viewing copy, with the
    metadata cut out (``jpeg_strip``): no encode, no second compression loss."""
    base = upright(image)
    base = base if base.mode == "RGB" else base.convert("RGB")
    view = _fit(base, VIEW_MAX)
    view_bytes = _view_without_reencoding(image, view, original)
    thumb = _fit(view, THUMB_MAX)
    tiny = blur_grid(thumb)
    blurred = enlarge(tiny, _fit_size(view.size, BLUR_MAX))
    blurred_thumb = blurred if blurred.size == thumb.size else enlarge(tiny, thumb.size)
    written: dict[int, DerivativeFile] = {}
    out = []
    for kind, img in (("view", view), ("thumb", thumb), ("blur", blurred), ("blur_thumb", blurred_thumb)):
        first = written.get(id(img))
        if first is None:
            data = view_bytes if kind == "view" and view_bytes is not None else encode_jpeg(img)
            written[id(img)] = file = write_derivative(data, img.size, sha256, kind, store)
        else:  # the same bytes: a second name for the same file (a hard link: no second write)
            relpath = store.derivative_relpath(sha256, kind)
            store.link_derivative(first.relpath, relpath)
            file = DerivativeFile(kind, relpath, first.sha256, first.width, first.height)
        out.append(file)
    return out, thumb


def _view_without_reencoding(image: Image.Image, view: Image.Image, original: bytes | None) -> bytes | None:
    """The original JPEG without its metadata when it is the viewing copy as it stands (upright,
    RGB, no larger than the viewing size), else ``None``."""
    if original is None or view is not image or image.format != "JPEG" or image.mode != "RGB":
        return None
    return jpeg_without_metadata(original, image.size)


ORIENTATION_TRANSPOSE = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180,
                         4: Image.Transpose.FLIP_TOP_BOTTOM, 5: Image.Transpose.TRANSPOSE,
                         6: Image.Transpose.ROTATE_270, 7: Image.Transpose.TRANSVERSE, 8: Image.Transpose.ROTATE_90}


def upright(image: Image.Image) -> Image.Image:
    """The picture turned as its EXIF orientation tag says; unreadable EXIF means no turn.

    Not ``ImageOps.exif_transpose``: it also rewrites the whole EXIF block and raises (TypeError,
    struct.error…) on a malformed value anywhere in it (found by fuzz/fuzz_images.py). The
    derivatives carry no EXIF, so only the orientation is read."""
    try:
        orientation = int(image.getexif().get(ExifTags.Base.Orientation, 1))
    except Exception:  # noqa: BLE001 - malformed EXIF must not lose the photo
        return image
    method = ORIENTATION_TRANSPOSE.get(orientation)
    return image.transpose(method) if method is not None else image


def save_derivative(img: Image.Image, sha256: str, kind: str, store: MediaStore, index: int = 0) -> DerivativeFile:
    """Encode as JPEG (no metadata) and write atomically."""
    return write_derivative(encode_jpeg(img), img.size, sha256, kind, store, index)


def write_derivative(data: bytes, size: tuple[int, int], sha256: str, kind: str, store: MediaStore,
                     index: int = 0) -> DerivativeFile:
    """Write a derivative's encoded bytes atomically."""
    relpath = store.derivative_relpath(sha256, kind, index)
    store.write_derivative(relpath, data)
    return DerivativeFile(kind, relpath, hashlib.sha256(data).hexdigest(), size[0], size[1])


def encode_jpeg(img: Image.Image) -> bytes:
    """A derivative's bytes: JPEG, quality 82, no metadata (the family uploads store seals them)."""
    buffer = io.BytesIO()
    img.save(buffer, "JPEG", quality=82, optimize=False)
    return buffer.getvalue()


def _fit_size(size: tuple[int, int], limit: int) -> tuple[int, int]:
    width, height = size
    scale = min(1.0, limit / max(width, height))
    return max(1, round(width * scale)), max(1, round(height * scale))


def _fit(image: Image.Image, limit: int) -> Image.Image:
    """The image itself when small enough, else a reduced copy (reduce first: fast)."""
    if max(image.size) <= limit:
        return image
    return image.resize(_fit_size(image.size, limit), Image.Resampling.BILINEAR, reducing_gap=2.0)


def blur(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """A blur no detail survives: shrink to about a dozen pixels, enlarge to ``size``, soften."""
    return enlarge(blur_grid(image), size)


def blur_grid(image: Image.Image) -> Image.Image:
    """The picture shrunk to about a dozen pixels across, softened: colours, no shapes or faces."""
    return image.resize(_fit_size(image.size, BLUR_GRID), Image.Resampling.BOX).filter(ImageFilter.GaussianBlur(0.7))


def enlarge(tiny: Image.Image, size: tuple[int, int]) -> Image.Image:
    return tiny.resize(size, Image.Resampling.BICUBIC)


NUMBER_MARGIN = 0.5  # context kept around a number's box, as a share of its longer side (blurred)
NUMBER_VIEW_MAX = 800


def number_view(path: Path, box: list[int] | tuple[int, int, int, int]) -> bytes:
    """What an archivist is shown of a photo to decide on a number read in it: a crop around the
    number's box (the box and a blurred margin of half its longer side, never the rest of the
    body), with only the box sharp; JPEG without metadata. ``box`` is in the stored photo's pixels
    as the reader saw them (no EXIF turn), and is clipped to the photo."""
    with Image.open(path) as original:
        original.load()
        image = original if original.mode == "RGB" else original.convert("RGB")
    x0, y0, x1, y1 = _clip_box(box, image.size)
    margin = round(max(x1 - x0, y1 - y0) * NUMBER_MARGIN)
    left, top = max(0, x0 - margin), max(0, y0 - margin)
    right, bottom = min(image.width, x1 + margin), min(image.height, y1 + margin)
    region = image.crop((left, top, right, bottom))
    shown = blur(region, region.size)
    shown.paste(image.crop((x0, y0, x1, y1)), (x0 - left, y0 - top))
    return encode_jpeg(_fit(shown, NUMBER_VIEW_MAX))


def _clip_box(box: list[int] | tuple[int, int, int, int], size: tuple[int, int]) -> tuple[int, int, int, int]:
    width, height = size
    x0, y0, x1, y1 = (int(v) for v in box)
    x0, x1 = sorted((min(max(x0, 0), width - 1), min(max(x1, 1), width)))
    y0, y1 = sorted((min(max(y0, 0), height - 1), min(max(y1, 1), height)))
    return x0, y0, max(x1, x0 + 1), max(y1, y0 + 1)
