"""An archivist ingests a folder from the web (issue 30: archivists could only ingest from a shell,
with no progress anywhere), at desktop width in English and in Arabic: the form, the page that waits
for the worker and refreshes itself, then the counts and the refused file with its reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from athar.archive.models import IngestRun, PhotoSighting
from athar.identification.jobs import drain
from tests.accounts.otp import enrolled
from tests.archive.helpers import jpeg, write

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["en", "ar"])
def test_an_archivist_ingests_a_folder_from_the_web_and_follows_it(walk, make_user, settings, tmp_path: Path,
                                                                    language: str) -> None:
    settings.ATHAR_REQUIRE_TWO_FACTOR = True
    allowed = tmp_path / "incoming"
    write(allowed, "caesar-2/215/1001/a.jpg", jpeg(1))
    write(allowed, "caesar-2/215/1002/b.jpg", jpeg(2))
    write(allowed, "caesar-2/215/1002/not-a-photo.jpg", b"a letter, not a photograph\n")
    settings.ATHAR_INGEST_ROOT = str(allowed)
    settings.ATHAR_INGEST_WORKERS = 1
    archivist = make_user("archivist", login="archivist@example.org")
    device = enrolled(archivist)
    w = walk(f"flow-ingest-{language}", language)
    w.sign_in(archivist.login, device)
    with translation.override("ar"):
        start = reverse("web:ingest_start")
    w.go(start)
    w.step("ingest-form")
    w.page.fill("input[name=folder]", str(tmp_path / "elsewhere"))  # outside the folder set aside: refused
    w.page.fill("input[name=archive]", "Caesar 2")
    w.page.click("main form button[type=submit]")
    w.page.wait_for_load_state()
    assert not IngestRun.objects.exists()
    w.step("ingest-refused")
    w.page.fill("input[name=folder]", str(allowed / "caesar-2"))
    w.page.fill("input[name=archive]", "Caesar 2")
    w.page.click("main form button[type=submit]")
    w.page.wait_for_load_state()
    run = IngestRun.objects.get()
    assert f"/archive/ingests/{run.pk}/" in w.page.url
    assert w.page.locator("[data-follow]").count() == 1  # it refreshes itself while it waits (stoppable)
    assert w.page.locator("[data-follow-stop]").is_visible()
    w.page.click("[data-follow-stop]")  # an archivist reading the page stops it
    w.step("ingest-waiting")

    drain("test-worker")  # what the supervised worker does
    w.page.reload()
    w.page.wait_for_load_state()
    run.refresh_from_db()
    assert run.status == IngestRun.Status.DONE and PhotoSighting.objects.filter(ingest_run=run).count() == 3  # every file, the refused one too
    assert w.page.locator("[data-follow]").count() == 0  # done: it stops refreshing
    assert "not-a-photo.jpg" in w.page.inner_text("main")  # the refused file, with its reason
    w.step("ingest-done")
    w.close()
