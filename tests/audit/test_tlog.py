"""The audit log as a transparency log: checkpoints signed outside the database catch what the hash
chain alone cannot — a rewrite with every later hash and the head recomputed, a deletion, a rollback."""

from __future__ import annotations

import base64

import pytest

from athar.audit.chain import EventSpec, event_hash, record, verify_chain
from athar.audit.merkle import verify_consistency, verify_inclusion
from athar.audit.models import AuditEvent, AuditHead
from athar.audit.tlog import current_tree, event_leaf, sign_tree, verify_against_checkpoint
from athar.core.signed_note import Signer, parse_note, sign_note

pytestmark = pytest.mark.django_db


def _events(n: int) -> None:
    for i in range(n):
        record("test.event", object_type="thing", object_id=i, data={"n": i})


def _checkpoint() -> str:
    return sign_tree(current_tree()).note.encode()


def _rewrite_from(seq: int, data: dict) -> None:
    """What a database holder could do: change one event and recompute every later hash and the head."""
    AuditEvent.objects.filter(seq=seq).update(data=data)
    prev = AuditEvent.objects.get(seq=seq).prev_hash
    for event in AuditEvent.objects.filter(seq__gte=seq).order_by("seq"):
        spec = EventSpec(event.action, event.object_type, event.object_id, event.data, event.actor)
        digest = event_hash(prev, event.seq, event.at, spec)
        AuditEvent.objects.filter(pk=event.pk).update(prev_hash=prev, hash=digest)
        prev = digest
    AuditHead.objects.filter(id=1).update(hash=prev)


def test_the_leaves_are_the_events_in_order():
    _events(5)
    tree = current_tree()
    hashes = list(AuditEvent.objects.order_by("seq").values_list("hash", flat=True))
    assert tree.size == 5 and [tree.leaf(i) for i in range(5)] == [event_leaf(h) for h in hashes]
    for index in range(5):
        verify_inclusion(index, 5, event_leaf(hashes[index]), tree.inclusion_proof(index), tree.root())


def test_a_growing_log_extends_its_checkpoint():
    _events(3)
    old = _checkpoint()
    _events(4)
    report = verify_against_checkpoint(old, [])
    assert report.ok, report.problems
    assert report.checkpoint["size"] == 3 and report.current["size"] == 7
    tree = current_tree()
    verify_consistency(3, 7, base64.b64decode(report.checkpoint["root"]), tree.root(), tree.consistency_proof(3))


def test_a_rewrite_with_recomputed_hashes_passes_the_chain_but_not_the_checkpoint():
    _events(6)
    checkpoint = _checkpoint()
    _rewrite_from(3, {"n": 99})
    assert verify_chain().ok  # the chain alone is fooled: its head lives in the same database
    report = verify_against_checkpoint(checkpoint, [])
    assert not report.ok and any("fork" in str(p) for p in report.problems)


def test_a_rollback_to_an_older_copy_fails():
    _events(6)
    checkpoint = _checkpoint()
    last_kept = AuditEvent.objects.get(seq=4)
    AuditEvent.objects.filter(seq__gt=4)._raw_delete(AuditEvent.objects.db)
    AuditHead.objects.filter(id=1).update(seq=4, hash=last_kept.hash)
    assert verify_chain().ok  # an older copy is a consistent chain
    report = verify_against_checkpoint(checkpoint, [])
    assert not report.ok and any("rolled back" in str(p) for p in report.problems)


def test_an_event_deleted_in_the_middle_is_caught_by_the_chain_and_the_checkpoint():
    _events(6)
    checkpoint = _checkpoint()
    AuditEvent.objects.filter(seq=3)._raw_delete(AuditEvent.objects.db)
    chain = verify_chain()
    assert any("#3 is missing" in str(p) for p in chain.problems)
    assert any("#4 does not link" in str(p) for p in chain.problems)
    report = verify_against_checkpoint(checkpoint, [])
    assert not report.ok


def test_a_checkpoint_signed_by_another_key_is_refused():
    _events(2)
    tree = current_tree()
    genuine = parse_note(_checkpoint())
    forged = sign_note(genuine.text, Signer.generate(genuine.signatures[0].name))
    report = verify_against_checkpoint(forged.encode(), [], tree=tree)
    assert not report.ok and any("not signed by the log key" in str(p) for p in report.problems)


def test_an_unreadable_checkpoint_is_a_finding_not_a_crash():
    report = verify_against_checkpoint("hello\n", [])
    assert not report.ok and "cannot be read" in str(report.problems[0])


def test_the_worker_writes_a_checkpoint_only_when_the_log_grew_and_the_last_is_old_enough(settings, tmp_path):
    import os

    from athar.audit.tlog import checkpoint_dir, checkpoint_if_grown, latest_checkpoint
    settings.ATHAR_HOME = tmp_path
    assert checkpoint_if_grown(0) is None and not checkpoint_dir().exists()  # 0: never
    _events(2)
    first = checkpoint_if_grown(60)
    assert first is not None and first["size"] == 2 and latest_checkpoint().size == 2
    _events(1)
    assert checkpoint_if_grown(60) is None  # too soon
    latest = checkpoint_dir() / "latest"
    os.utime(latest, (latest.stat().st_atime - 3700, latest.stat().st_mtime - 3700))
    second = checkpoint_if_grown(60)
    assert second is not None and second["size"] == 3
    os.utime(latest, (latest.stat().st_atime - 3700, latest.stat().st_mtime - 3700))
    assert checkpoint_if_grown(60) is None  # not grown
    assert sorted(p.name for p in checkpoint_dir().glob("checkpoint-*")) == [
        "checkpoint-000000000002.txt", "checkpoint-000000000003.txt"]
