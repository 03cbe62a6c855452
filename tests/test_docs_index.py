"""docs/README.md indexes every page of docs/ (a page nobody can find is not documentation)."""

from __future__ import annotations

import re
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_every_doc_page_is_in_the_index_and_every_link_resolves():
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\(([^)#]+)\)", index))
    pages = {p.name for p in DOCS.glob("*.md")} - {"README.md"}
    assert pages <= linked, f"not in docs/README.md: {sorted(pages - linked)}"
    assert all((DOCS / target).exists() for target in linked), [t for t in linked if not (DOCS / t).exists()]
