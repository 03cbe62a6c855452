"""The invariants in the database: one active identification per case and per person, one live
review per reviewer and identification, a publication date on every published identification."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [("identification", "0003_settle_before_constraints")]

    operations = [
        migrations.AddConstraint(
            model_name='identification',
            constraint=models.UniqueConstraint(condition=models.Q(('status__in', ('verified', 'published'))), fields=('case',), name='identification_one_active_per_case'),
        ),
        migrations.AddConstraint(
            model_name='identification',
            constraint=models.UniqueConstraint(condition=models.Q(('status__in', ('verified', 'published'))), fields=('person',), name='identification_one_active_per_person'),
        ),
        migrations.AddConstraint(
            model_name='identification',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('status', 'published'), _negated=True), ('published_at__isnull', False), _connector='OR'), name='identification_published_has_date'),
        ),
        migrations.AddConstraint(
            model_name='review',
            constraint=models.UniqueConstraint(condition=models.Q(('reversed_at__isnull', True)), fields=('identification', 'reviewer'), name='review_one_live_per_reviewer'),
        ),
    ]
