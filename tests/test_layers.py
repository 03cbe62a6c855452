"""The lowest layer stays plain Python: no module of ``athar.matching`` imports Django or any athar
package outside ``athar.matching`` — at the top of a module or inside a function.

Read from the source with ``ast`` (nothing is imported), so an import hidden in a function that
no test runs is caught too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ATHAR = Path(__file__).resolve().parent.parent / "athar"
MATCHING = ATHAR / "matching"

# Known exceptions, (module, imported name). Each is a debt with a date, not a rule: remove the
# entry once the import is gone (the test then fails if it comes back).
KNOWN_EXCEPTIONS: set[tuple[str, str]] = set()


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ATHAR.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_names(tree: ast.AST, module: str, is_package: bool) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in the tree, relative imports resolved."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            found.append((node.lineno, name))
    return found


def forbidden(name: str) -> bool:
    """Django, or an athar package other than athar.matching."""
    top = name.split(".")[0]
    if top == "django":
        return True
    return top == "athar" and name != "athar.matching" and not name.startswith("athar.matching.")


def layer_violations() -> list[str]:
    out = []
    for path in sorted(MATCHING.rglob("*.py")):
        module = module_name(path)
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, name in imported_names(tree, module, path.name == "__init__.py"):
            if forbidden(name) and (module, name) not in KNOWN_EXCEPTIONS:
                out.append(f"{path.relative_to(ATHAR.parent)}:{line} imports {name}")
    return out


def test_matching_imports_no_django_and_nothing_of_athar_outside_itself() -> None:
    assert layer_violations() == []


def test_the_known_exceptions_are_still_needed() -> None:
    """An allow-list entry whose import is gone must be removed, so it cannot hide a new one."""
    present: set[tuple[str, str]] = set()
    for path in MATCHING.rglob("*.py"):
        module = module_name(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        present.update((module, name) for _, name in imported_names(tree, module, path.name == "__init__.py"))
    assert present >= KNOWN_EXCEPTIONS


@pytest.mark.parametrize("source, expected", [
    ("import django.db", ["django.db"]),
    ("def f():\n    from athar.core import crypto", ["athar.core"]),
    ("from .. import names", []),  # athar.matching.names, from athar.matching.scoring.x
    ("from ... import config", ["athar"]),  # athar.config: outside matching
    ("from athar.matching.names import fold", []),
])
def test_the_scanner_sees_top_level_function_level_and_relative_imports(source: str, expected: list[str]) -> None:
    names = [n for _, n in imported_names(ast.parse(source), "athar.matching.scoring.x", False)]
    assert [n for n in names if forbidden(n)] == expected
