"""The method page's figures: what athar's benchmarks measured, as shipped with this version."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.utils.translation import gettext_lazy

MEASURED_FILE = Path(__file__).resolve().parent / "data" / "measured_error_rates.json"
BLOCK_TITLES = {"faces": gettext_lazy("Face search alone"), "identification": gettext_lazy("Ranking from all the evidence"),
                "linkage": gettext_lazy("Linking reports about the same person")}
DATA_LABELS = {
    "lfw_archive": gettext_lazy("Public photos of 300 people (LFW, a held-out part never used for tuning): one photo as the "
                      "family's, another made to look like an archive photo (grey or dark light, closed eyes, "
                      "swelling, blur or compression, turned sideways or upside down) among 640 cases; 60 people "
                      "not in the archive."),
    "lfw_identification": gettext_lazy("A synthetic archive of 1,140 cases made from held-out LFW photos the same way, with "
                             "invented case facts; 300 reports whose facts are wrong by a year, a month or a "
                             "branch, some without photos, some of people not in the archive."),
    "cross_script_names": gettext_lazy("4,000 synthetic reports of Syrian names, spelled in Arabic and in Latin letters."),
}
METRIC_LABELS = {
    "rank1": gettext_lazy("The right case is first"),
    "rank10": gettext_lazy("The right case is among the first ten"),
    "top2pct": gettext_lazy("The right case is in the first 2 per cent of all cases"),
    "true_match_rate": gettext_lazy("The right case is first and declared a likely match"),
    "false_match_rate": gettext_lazy("Someone not in the archive is shown a stranger as a likely match"),
    "precision": gettext_lazy("Reports linked together are truly the same person"),
    "recall": gettext_lazy("Reports of the same person are linked"),
}
CONDITION_LABELS = {
    "archive": gettext_lazy("archive-like photos"), "clean": gettext_lazy("ordinary photos"), "with_photo": gettext_lazy("with a photo"),
    "without_photo": gettext_lazy("without a photo"), "absent": gettext_lazy("people not in the archive"), "names_only": gettext_lazy("names only"),
}


@lru_cache(maxsize=4)
def _shipped_figures(path: Path) -> dict[str, Any] | None:
    """The figures file, read once per process (it ships with the code and changes with it)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def measured_error_rates() -> dict[str, Any] | None:
    """The figures athar's benchmarks measured, as shipped with this version (method page).

    Read from ``web/data/measured_error_rates.json`` (each block names its data and command);
    None when the file is missing or unreadable, and the page says figures are not available.
    """
    raw = _shipped_figures(MEASURED_FILE)
    if raw is None:
        return None
    blocks = []
    for block in raw.get("blocks", []):
        rows = [{"metric": METRIC_LABELS.get(f["metric"], f["metric"]),
                 "condition": CONDITION_LABELS.get(f.get("condition", ""), f.get("condition", "")),
                 "percent": round(100 * float(f["value"]), 1)} for f in block.get("figures", [])]
        blocks.append({"title": BLOCK_TITLES.get(block["key"], block["key"]),
                       "data": DATA_LABELS.get(block.get("data", ""), ""), "command": block.get("command", ""),
                       "rows": rows})
    return {"measured_on": raw.get("measured_on", ""), "blocks": blocks} if blocks else None
