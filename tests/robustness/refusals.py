"""One check for a damaged image that every loader must refuse the same way: ingest keeps it as
evidence and reports it, the archive decoder raises ``ImageProblem``, the face loader ``ImageError``."""

from __future__ import annotations

from pathlib import Path

import pytest


def assert_refused_everywhere(data: bytes, filename: str, tmp_path: Path, problem: str, reason: str) -> None:
    from athar.archive.imaging import ImageProblem, decode_image, process_file
    from athar.matching.faces.images import ImageError, load_image

    with pytest.raises(ImageProblem, match=problem):
        decode_image(data, 120_000_000)
    with pytest.raises(ImageError) as refused:
        load_image(data)
    assert reason in refused.value.reason
    path = tmp_path / filename
    path.write_bytes(data)
    result = process_file(str(path), filename, str(tmp_path / "media"), 120_000_000)
    assert result.kept and result.sha256
    assert "not viewable" in result.problem and not result.derivatives
