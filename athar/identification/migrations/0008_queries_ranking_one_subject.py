"""A ranking has exactly one subject: a person, or a report not yet linked to a person.

Rankings are computed rows (replaced on every recomputation), so a row that breaks the rule is
repaired before the check is added: one with both keeps its person (the report's own ranking is
recomputed by the worker), one with neither is removed (nothing could ever show it).
"""

from django.db import migrations, models


def repair(apps, schema_editor):
    Ranking = apps.get_model("identification", "Ranking")
    Ranking.objects.filter(person__isnull=True, report__isnull=True).delete()
    Ranking.objects.filter(person__isnull=False, report__isnull=False).update(report=None)


class Migration(migrations.Migration):

    dependencies = [
        ('identification', '0007_ops_worker_heartbeat'),
    ]

    operations = [
        migrations.RunPython(repair, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='ranking',
            constraint=models.CheckConstraint(
                condition=models.Q(models.Q(('person__isnull', False), ('report__isnull', True)),
                                   models.Q(('person__isnull', True), ('report__isnull', False)), _connector='OR'),
                name='ranking_one_subject'),
        ),
    ]
