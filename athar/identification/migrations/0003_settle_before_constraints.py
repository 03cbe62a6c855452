"""Bring existing rows within the new rules before the constraints are created.

- A published identification has no record that the family was informed (the rule is new): it
  goes back to "verified" and leaves the public list until its caseworker records that the family
  was told and the family consented. Nothing is deleted.
- Two live reviews by one reviewer of one identification: the later ones are reversed (audited
  reason "duplicate review, reversed by migration").
- Two active identifications of one case (or one person): all of them go back to review.
"""

from django.db import migrations
from django.db.models import Count
from django.utils import timezone

ACTIVE = ("verified", "published")


def settle(apps, schema_editor):
    Identification = apps.get_model("identification", "Identification")
    Review = apps.get_model("identification", "Review")
    Identification.objects.filter(status="published").update(status="verified")
    seen = set()
    for review in Review.objects.filter(reversed_at__isnull=True).order_by("created_at", "pk"):
        key = (review.identification_id, review.reviewer_id)
        if key in seen:
            review.reversed_at = timezone.now()
            review.reversed_reason = "duplicate review, reversed by migration"
            review.save(update_fields=["reversed_at", "reversed_reason"])
        seen.add(key)
    for field in ("case", "person"):
        doubled = (Identification.objects.filter(status__in=ACTIVE).values(field).annotate(n=Count("id"))
                   .filter(n__gt=1).values_list(field, flat=True))
        Identification.objects.filter(status__in=ACTIVE, **{f"{field}__in": list(doubled)}).update(
            status="under_review", status_reason="two active identifications: back to review (migration)")


class Migration(migrations.Migration):

    dependencies = [("identification", "0002_one_body_family_first")]

    operations = [migrations.RunPython(settle, migrations.RunPython.noop)]
