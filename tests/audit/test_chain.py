import pytest
from django.db import connection

from athar.audit.chain import chain_head, record, verify_chain
from athar.audit.models import AppendOnlyError, AuditEvent

pytestmark = pytest.mark.django_db


def test_events_chain_and_verify():
    first = record("test.one", object_type="thing", object_id=1, data={"sha256": "ab"})
    second = record("test.two", object_type="thing", object_id=2)
    assert second.prev_hash == first.hash and second.seq == first.seq + 1
    report = verify_chain()
    assert report.ok and report.events == 2 and report.head == second.hash == chain_head()["hash"]


def test_events_cannot_be_changed_or_deleted_through_the_model():
    event = record("test.one")
    event.action = "test.changed"
    with pytest.raises(AppendOnlyError):
        event.save()
    with pytest.raises(AppendOnlyError):
        event.delete()


def test_altering_a_row_in_the_database_is_detected():
    record("test.one", data={"n": 1})
    record("test.two")
    with connection.cursor() as cursor:
        cursor.execute("UPDATE audit_auditevent SET data = %s WHERE seq = 1", ['{"n": 2}'])
    report = verify_chain()
    assert not report.ok and any("#1" in p and "altered" in p for p in report.problems)


def test_deleting_the_last_row_is_detected_by_the_head():
    record("test.one")
    record("test.two")
    AuditEvent.objects.filter(seq=2)._raw_delete(AuditEvent.objects.db)
    report = verify_chain()
    assert not report.ok and any("head" in p for p in report.problems)
