"""One current version per report, in the database. Rows written before the constraint that left
two versions current (two saves at the same moment) keep only the highest version current; the
others stay, as the earlier versions they are."""

from django.conf import settings
from django.db import migrations, models


def keep_newest_current(apps, schema_editor):  # type: ignore[no-untyped-def]
    Report = apps.get_model("registry", "Report")
    doubled = (Report.objects.filter(is_current=True).values("source", "report_id")
               .annotate(n=models.Count("id")).filter(n__gt=1))
    for key in doubled:
        rows = Report.objects.filter(is_current=True, source=key["source"], report_id=key["report_id"])
        newest = rows.order_by("-version", "-id").first()
        rows.exclude(pk=newest.pk).update(is_current=False)


class Migration(migrations.Migration):

    dependencies = [
        ('registry', '0005_report_forensic_details_and_drafts'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(keep_newest_current, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='report',
            constraint=models.UniqueConstraint(condition=models.Q(('is_current', True)), fields=('source', 'report_id'), name='report_one_current_version'),
        ),
    ]
