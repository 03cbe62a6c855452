"""Bar charts as server-side SVG geometry: no JavaScript, readable in both text directions."""

from __future__ import annotations

from dataclasses import dataclass

BAR_HEIGHT, GAP, LABEL_WIDTH, WIDTH = 22, 6, 190, 620


@dataclass(frozen=True)
class Bar:
    label: str
    value: int
    y: int
    text_y: int
    x: int
    width: int
    value_x: int


@dataclass(frozen=True)
class Chart:
    title: str
    bars: list[Bar]
    width: int
    height: int
    rtl: bool
    label_x: int
    label_anchor: str


def bar_chart(title: str, rows: list[tuple[str, int]], rtl: bool = False) -> Chart:
    """Horizontal bars; in right-to-left pages the labels sit on the right and bars grow leftwards."""
    top = max((value for _, value in rows), default=0) or 1
    span = WIDTH - LABEL_WIDTH - 60
    bars = []
    for i, (label, value) in enumerate(rows):
        y = i * (BAR_HEIGHT + GAP)
        width = max(1, round(span * value / top)) if value else 0
        if rtl:
            x = WIDTH - LABEL_WIDTH - width
            value_x = x - 6
        else:
            x = LABEL_WIDTH
            value_x = x + width + 6
        bars.append(Bar(label[:32], value, y, y + BAR_HEIGHT - 6, x, width, value_x))
    height = max(BAR_HEIGHT, len(rows) * (BAR_HEIGHT + GAP))
    label_x = WIDTH - 4 if rtl else 4
    return Chart(title, bars, WIDTH, height, rtl, label_x, "start")
