"""Bar charts as HTML tables with <meter> bars: no JavaScript, no inline style, readable on a
360 px phone in both text directions (labels wrap instead of being cut; the bar shrinks, the text
does not)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Bar:
    label: str
    value: int


@dataclass(frozen=True)
class Chart:
    title: str
    bars: list[Bar]
    top: int  # the largest value: every bar is drawn against it
    empty_note: str  # why there is nothing to show yet, in the reader's language


def bar_chart(title: str, rows: list[tuple[str, int]], empty_note: str = "") -> Chart:
    """One horizontal bar per row, in the order given; the full label is kept."""
    bars = [Bar(str(label), int(value)) for label, value in rows]
    return Chart(title, bars, max((bar.value for bar in bars), default=0) or 1, empty_note)
