"""Errors a family-facing screen can show as they are: each says what to do next."""

from __future__ import annotations


class FaceError(ValueError):
    """Base class of face-selection problems on a family's photo."""


class NoFaceFound(FaceError):
    def __init__(self) -> None:
        super().__init__(
            "No face was found in this photo. Please send a photo where the face is clearly "
            "visible and well lit, or crop the photo around the face and try again."
        )


class FaceTooSmall(FaceError):
    def __init__(self, side: float, minimum: int) -> None:
        super().__init__(
            f"The face in this photo is too small ({side:.0f} pixels; at least {minimum} are "
            "needed). Please send the original photo (not a screenshot or a forwarded copy), "
            "or a closer photo of the face."
        )
        self.side = side
        self.minimum = minimum


class FaceNumberOutOfRange(FaceError):
    def __init__(self, number: int, count: int) -> None:
        super().__init__(
            f"Face {number} was asked for, but this photo has {count} face(s), numbered 1 to "
            f"{count} from left to right. Choose one of those numbers."
        )
