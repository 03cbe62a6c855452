"""Family-facing URLs carry signed ids: they cannot be guessed or counted."""

import pytest
from django.urls import Resolver404, resolve, reverse

from athar.web.converters import SignedIdConverter


def test_report_urls_are_signed_and_round_trip():
    url = reverse("web:report", kwargs={"report_id": 12})
    assert "/reports/12/" not in url and "/reports/12." in url
    assert resolve(url).kwargs["report_id"] == 12


@pytest.mark.parametrize("path", ["/reports/12/", "/reports/12.AAAAAAAAAAAAAAAAAAAAAAAA/",
                                  "/candidates/3/", "/candidates/3.forgedforgedforgedforged/"])
def test_plain_or_forged_ids_do_not_resolve(path):
    with pytest.raises(Resolver404):
        resolve(path)


def test_a_signature_of_one_id_does_not_open_another():
    signed = SignedIdConverter().to_url(12)
    tampered = "13." + signed.split(".", 1)[1]
    with pytest.raises(ValueError):
        SignedIdConverter().to_python(tampered)
