"""Invitations live in accounts now (their table, web_invitation, stays)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('web', '0004_models_moved_to_their_apps'),
        ('accounts', '0004_agreement_and_assignment'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],  # the table stays where it is (its db_table names it)
            state_operations=[
            migrations.CreateModel(
                name='Invitation',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('code_hash', models.CharField(max_length=64, unique=True)),
                    ('created_at', models.DateTimeField(auto_now_add=True)),
                    ('expires_at', models.DateTimeField()),
                    ('used_at', models.DateTimeField(blank=True, null=True)),
                    ('revoked_at', models.DateTimeField(blank=True, null=True)),
                    ('caseworker', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='invitations_sent', to=settings.AUTH_USER_MODEL, verbose_name='caseworker')),
                    ('used_by', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='invitation', to=settings.AUTH_USER_MODEL)),
                ],
                options={
                    'verbose_name': 'invitation',
                    'verbose_name_plural': 'invitations',
                    'db_table': 'web_invitation',
                    'ordering': ['-created_at'],
                },
            ),
                ],
        ),
    ]
