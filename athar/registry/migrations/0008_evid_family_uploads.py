"""Evidence kept apart: the family's photos move out of the shared media store into the family
uploads store (``athar.registry.upload_migration``: idempotent, resumable, archive files untouched;
old copies are deleted only after the commit and only when no archive row names them)."""

from pathlib import Path

from django.conf import settings
from django.db import migrations


def move(apps, schema_editor):  # type: ignore[no-untyped-def]
    from athar.registry.upload_migration import move_family_uploads

    counts = move_family_uploads(
        apps.get_model("registry", "ReportPhoto"), apps.get_model("archive", "Photo"),
        apps.get_model("archive", "Derivative"), apps.get_model("registry", "DataKey"),
        Path(settings.MEDIA_ROOT), Path(settings.UPLOADS_ROOT))
    if counts["rows"]:
        import sys

        sys.stderr.write(f"athar: moved {counts['rows']} family photos to the family uploads store "
                         f"({counts['copied']} files copied, {counts['shared_with_archive']} also archive "
                         f"evidence and kept there, {len(counts['missing'])} missing before the move)\n")


class Migration(migrations.Migration):

    dependencies = [
        ("registry", "0007_import"),
        ("archive", "0002_rejected_file_code"),
    ]

    operations = [migrations.RunPython(move, migrations.RunPython.noop)]
