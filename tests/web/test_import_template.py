import io

import openpyxl
import pytest

from athar.registry.columns import TEMPLATE, map_header

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("lang,fmt", [("ar", "csv"), ("en", "csv"), ("ar", "xlsx"), ("en", "xlsx")])
def test_caseworker_downloads_the_import_template(client, make_user, lang, fmt):
    client.force_login(make_user("caseworker"))
    response = client.get(f"/caseworker/import/template-{lang}.{fmt}")
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    if fmt == "csv":
        header = response.content.decode("utf-8-sig").splitlines()[0]
    else:
        sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
        header = ",".join(str(c.value) for c in next(sheet.iter_rows(max_row=1)))
    columns = header.split(",")
    english = [field for field, *_ in TEMPLATE]
    assert columns == (english if lang == "en" else [arabic for _f, arabic, *_ in TEMPLATE])
    assert columns[0] == {"en": "report_id", "ar": "رقم البلاغ"}[lang]
    assert list(map_header(columns, sdf=False).values()) == english  # the import reads its own template back


@pytest.mark.parametrize("role", ["family", None])
def test_families_and_visitors_cannot_download_it(client, make_user, role):
    if role:
        client.force_login(make_user(role))
    response = client.get("/caseworker/import/template-ar.csv")
    assert response.status_code in (302, 403, 404)
