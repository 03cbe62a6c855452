"""Caseworkers' notices live in identification now (their table, web_notice, stays)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('web', '0004_models_moved_to_their_apps'),
        ('archive', '0001_initial'),
        ('identification', '0004_one_active_constraints'),
        ('registry', '0003_report_age_at_detention'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],  # the table stays where it is (its db_table names it)
            state_operations=[
            migrations.CreateModel(
                name='Notice',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('kind', models.CharField(choices=[('candidate', 'likely match found'), ('decision', 'decision on an identification'), ('inform', 'inform the family of a verified identification')], max_length=16)),
                    ('key', models.CharField(max_length=120)),
                    ('status', models.CharField(blank=True, max_length=20)),
                    ('created_at', models.DateTimeField(auto_now_add=True)),
                    ('read_at', models.DateTimeField(blank=True, null=True)),
                    ('done_at', models.DateTimeField(blank=True, null=True)),
                    ('case', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='archive.case')),
                    ('report', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='registry.report')),
                    ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='notices', to=settings.AUTH_USER_MODEL)),
                ],
                options={
                    'verbose_name': 'notice',
                    'verbose_name_plural': 'notices',
                    'db_table': 'web_notice',
                    'ordering': ['-created_at', '-pk'],
                    'indexes': [models.Index(fields=['user', 'read_at'], name='notice_user_unread_idx')],
                    'constraints': [models.UniqueConstraint(fields=('user', 'key'), name='notice_unique_key_per_user')],
                },
            ),
                ],
        ),
    ]
