from django.db import migrations, models


def keep_one_current_run(apps, schema_editor):
    """Before the constraint: a store where two first reports opened a provisional run each at the
    same moment (possible on PostgreSQL before this migration) keeps the first one current — the one
    every ``.first()`` read already answered — and moves the other runs' links into it, so that no
    report loses its person."""
    LinkageRun = apps.get_model("registry", "LinkageRun")
    ReportLink = apps.get_model("registry", "ReportLink")
    current = list(LinkageRun.objects.filter(is_current=True).order_by("pk").values_list("pk", flat=True))
    if len(current) < 2:
        return
    kept, others = current[0], current[1:]
    linked = set(ReportLink.objects.filter(run_id=kept).values_list("report_id", flat=True))
    for link in ReportLink.objects.filter(run_id__in=others).order_by("pk"):
        if link.report_id not in linked:
            ReportLink.objects.filter(pk=link.pk).update(run_id=kept)
            linked.add(link.report_id)
    LinkageRun.objects.filter(pk__in=others).update(is_current=False)


class Migration(migrations.Migration):

    dependencies = [
        ("registry", "0010_linkage_block_index"),
    ]

    operations = [
        migrations.RunPython(keep_one_current_run, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="linkagerun",
            constraint=models.UniqueConstraint(condition=models.Q(("is_current", True)), fields=("is_current",),
                                               name="linkage_one_current_run"),
        ),
    ]
