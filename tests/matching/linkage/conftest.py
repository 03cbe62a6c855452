from __future__ import annotations

import pandas as pd
import pytest

from athar.matching.linkage import generate_reports, link_reports, template_to_linkage_input


@pytest.fixture(scope="session")
def synthetic() -> pd.DataFrame:
    return generate_reports(3000, seed=11)


@pytest.fixture(scope="session")
def linked(synthetic: pd.DataFrame):  # type: ignore[no-untyped-def]
    return link_reports(template_to_linkage_input(synthetic))
