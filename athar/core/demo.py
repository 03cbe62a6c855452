"""``athar demo``: steps contributed by each app (``demo.py`` modules), run in order.

A step gets the shared context (the data directory, the options, what earlier steps made) and
returns lines telling the person what it made.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.utils.module_loading import autodiscover_modules


@dataclass
class DemoContext:
    home: Path
    faces_dir: Path | None
    made: dict[str, Any] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)


DemoStep = Callable[[DemoContext], None]
_STEPS: list[tuple[int, str, DemoStep]] = []


def demo_step(order: int, name: str) -> Callable[[DemoStep], DemoStep]:
    """Register a demo step; lower ``order`` runs first (archive 10, accounts 20, registry 30 …)."""

    def register(func: DemoStep) -> DemoStep:
        if name not in {n for _, n, _ in _STEPS}:
            _STEPS.append((order, name, func))
        return func

    return register


def run_demo(context: DemoContext) -> DemoContext:
    autodiscover_modules("demo")
    for _, _, step in sorted(_STEPS, key=lambda s: s[0]):
        step(context)
    return context
