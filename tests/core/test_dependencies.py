"""Every third-party package athar's code imports is declared in pyproject.toml (an undeclared one,
such as scipy once, installs by luck: as another package's dependency, until it no longer is)."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import athar

ROOT = Path(athar.__file__).parent
# Modules whose distribution metadata does not name them (dlib-bin ships a bare extension module).
KNOWN = {"dlib": "dlib-bin"}


def _top_level_imports() -> set[str]:
    found: set[str] = set()
    for path in ROOT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module.split(".")[0])
    return {m for m in found if m not in sys.stdlib_module_names and m != "athar"}


def _declared() -> set[str]:
    project = tomllib.loads((ROOT.parent / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = list(project["dependencies"])
    for extra in project.get("optional-dependencies", {}).values():
        requirements += extra
    return {re.split(r"[<>=!~\[; ]", r, maxsplit=1)[0].lower().replace("_", "-") for r in requirements}


def test_every_imported_package_is_declared() -> None:
    distributions = packages_distributions()
    declared = _declared()
    missing = {}
    for module in sorted(_top_level_imports()):
        names = distributions.get(module) or [KNOWN.get(module, module)]
        if not {n.lower().replace("_", "-") for n in names} & declared:
            missing[module] = names
    assert missing == {}
