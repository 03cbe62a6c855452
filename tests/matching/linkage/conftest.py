from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import pytest

from athar.matching.linkage import generate_reports, link_reports, template_to_linkage_input


@pytest.fixture(scope="session")
def synthetic() -> pd.DataFrame:
    return generate_reports(3000, seed=11)


@pytest.fixture(scope="session")
def linked(synthetic: pd.DataFrame):  # type: ignore[no-untyped-def]
    return link_reports(template_to_linkage_input(synthetic))


@pytest.fixture
def link_among_background() -> Callable[[list[dict]], tuple[dict[str, str], pd.DataFrame]]:
    """Link a few written reports among 1,200 synthetic ones (term frequencies and a prior as in a
    real table): returns a function of the rows giving (report id -> person id, the pairs among them)."""
    def link(rows: list[dict]) -> tuple[dict[str, str], pd.DataFrame]:
        background = template_to_linkage_input(generate_reports(1200, seed=1))
        result = link_reports(pd.concat([background, pd.DataFrame(rows)], ignore_index=True).fillna(""))
        cluster = dict(zip(result.clusters["unique_id"], result.clusters["cluster_id"]))
        ours = {r["unique_id"] for r in rows}
        return cluster, result.pairs[result.pairs.unique_id_l.isin(ours) & result.pairs.unique_id_r.isin(ours)]
    return link
