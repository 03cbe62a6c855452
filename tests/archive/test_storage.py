"""The evidence store's atomic writes when the writer is killed between writing and renaming: the
temporary is never left among the originals (where it would read as evidence no row names), and the
next ingest clears it once its process is gone, never one another process is still writing.

A CI run caught the first: an ingest killed by SIGKILL mid-write left ``originals/xx/yy/.tmp-…``
beside the originals, one file too many after the resumed ingest (tests/test_cli.py)."""

from __future__ import annotations

import hashlib
import multiprocessing
import os
from pathlib import Path

import pytest

from athar.archive import storage
from athar.archive.storage import INCOMING, EvidenceStore

DATA = b"the bytes of one photograph"
SHA = hashlib.sha256(DATA).hexdigest()


def _killed_between_write_and_rename(root: str) -> None:
    """A child that writes an original and dies (as SIGKILL would) before the rename."""
    os.replace = lambda *_args: os._exit(9)  # type: ignore[assignment]
    EvidenceStore(Path(root)).store_original(DATA, SHA)


def _kill_a_writer(root: Path) -> None:
    child = multiprocessing.get_context("fork").Process(target=_killed_between_write_and_rename, args=(str(root),))
    child.start()
    child.join()
    assert child.exitcode == 9


def test_a_write_killed_before_its_rename_leaves_nothing_among_the_originals(tmp_path):
    root = tmp_path / "media"
    _kill_a_writer(root)
    assert not [p for p in (root / "originals").rglob("*") if p.is_file()]
    leftovers = list((root / INCOMING).iterdir())
    assert len(leftovers) == 1 and leftovers[0].read_bytes() == DATA
    store = EvidenceStore(root)
    assert store.clear_stale_temporaries() == 1
    assert not list((root / INCOMING).iterdir())
    assert store.store_original(DATA, SHA) and store.original_path(SHA).read_bytes() == DATA


def test_a_temporary_of_a_running_writer_is_left_alone(tmp_path):
    store = EvidenceStore(tmp_path / "media")
    (tmp_path / "media" / INCOMING).mkdir(parents=True)
    mine = tmp_path / "media" / INCOMING / f".tmp-{os.getpid()}-abc"
    mine.write_bytes(b"being written")
    assert store.clear_stale_temporaries() == 0 and mine.exists()


@pytest.mark.parametrize("name", [".tmp-notapid-x", ".tmp-999999999-x"])
def test_a_temporary_whose_writer_cannot_be_found_is_stale(tmp_path, name):
    store = EvidenceStore(tmp_path / "media")
    (tmp_path / "media" / INCOMING).mkdir(parents=True)
    (tmp_path / "media" / INCOMING / name).write_bytes(b"x")
    assert store.clear_stale_temporaries() == 1


def test_only_temporaries_are_cleared(tmp_path):
    """Clearing never reaches an original or a derivative, even one with a temporary's name."""
    root = tmp_path / "media"
    store = EvidenceStore(root)
    store.store_original(DATA, SHA)
    store.write_derivative(store.derivative_relpath(SHA, "thumb"), b"thumb")
    odd = store.original_path(SHA).parent / ".tmp-1-put-here-by-hand"
    odd.write_bytes(b"x")
    assert store.clear_stale_temporaries() == 0
    assert store.original_path(SHA).exists() and odd.exists()


def test_a_derivative_link_goes_through_the_incoming_folder(tmp_path, monkeypatch):
    root = tmp_path / "media"
    store = EvidenceStore(root)
    store.write_derivative("derivatives/aa/one.jpg", b"same bytes")
    seen: list[str] = []
    real_replace = os.replace

    def watching(source, target):
        seen.append(Path(source).parent.name)
        real_replace(source, target)

    monkeypatch.setattr(storage.os, "replace", watching)
    store.link_derivative("derivatives/aa/one.jpg", "derivatives/bb/two.jpg")
    assert seen == [INCOMING] and (root / "derivatives/bb/two.jpg").read_bytes() == b"same bytes"
