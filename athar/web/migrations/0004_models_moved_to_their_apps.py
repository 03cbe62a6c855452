"""Invitations moved to accounts, notices to identification: only the state moves, the tables stay."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('web', '0003_notice_done_at_alter_notice_kind'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],  # the table stays where it is (its db_table names it)
            state_operations=[
            migrations.RemoveField(
                model_name='notice',
                name='case',
            ),
            migrations.RemoveField(
                model_name='notice',
                name='report',
            ),
            migrations.RemoveField(
                model_name='notice',
                name='user',
            ),
            migrations.DeleteModel(
                name='Invitation',
            ),
            migrations.DeleteModel(
                name='Notice',
            ),
                ],
        ),
    ]
