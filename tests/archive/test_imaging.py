"""The perceptual hash athar computes equals imagehash's own, bit for bit: near-duplicates found
before and after the change (stored hashes) stay comparable."""

from __future__ import annotations

import random

import imagehash
from PIL import Image

from athar.archive.imaging import phash
from athar.archive.synthetic import synthetic_photo


def test_phash_is_imagehash_phash_on_many_pictures() -> None:
    import io

    rng = random.Random(31)
    for index in range(300):
        size = rng.choice((40, 120, 250, 320))
        image = Image.open(io.BytesIO(synthetic_photo(rng, size, str(index)))).convert("RGB")
        if index % 3 == 0:
            image = image.rotate(rng.randint(0, 359), expand=True)
        if index % 5 == 0:  # symmetric pictures: coefficients that are exactly zero
            mirrored = Image.new("RGB", (image.width * 2, image.height))
            mirrored.paste(image, (0, 0))
            mirrored.paste(image.transpose(Image.Transpose.FLIP_LEFT_RIGHT), (image.width, 0))
            image = mirrored
        assert phash(image) == str(imagehash.phash(image)), index


def test_phash_of_flat_and_tiny_pictures_is_imagehash_phash() -> None:
    for image in (Image.new("RGB", (1, 1), (9, 9, 9)), Image.new("L", (300, 20), 128),
                  Image.new("RGB", (7, 700), (255, 0, 0))):
        assert phash(image) == str(imagehash.phash(image))
