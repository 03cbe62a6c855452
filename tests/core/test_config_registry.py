"""One place reads the environment (athar.config), every variable it reads is registered with its
default and meaning, and docs/configuration.md lists exactly the registry (generated from it).

Read from the source with ``ast``, so a variable read only in production or only by one command is
caught without running that code.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

import pytest

from athar.config import READ_NAMES, REGISTRY, SETTINGS, env_int, env_str, with_settings_tables

ROOT = Path(__file__).resolve().parents[2]
ATHAR = ROOT / "athar"
DOC = ROOT / "docs" / "configuration.md"
READERS = {"env_str", "env_bool", "env_int", "env_list", "env_json_dict", "env_exit_url", "secret_from_file_or_env"}
# Modules that hand the whole environment to a child process (pg_dump, a scratch-store run); they
# read no setting from it.
ENVIRONMENT_COPIES = {"athar/ops/backup.py", "athar/ops/subcommands.py", "athar/core/scratch.py"}


@lru_cache(maxsize=1)
def sources() -> list[tuple[str, ast.Module]]:
    return [(str(p.relative_to(ROOT)), ast.parse(p.read_text(encoding="utf-8"))) for p in sorted(ATHAR.rglob("*.py"))]


def _constants(tree: ast.Module) -> dict[str, str]:
    """Module-level NAME = "string" assignments (e.g. scratch.SCRATCH_FLAG)."""
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            out.update({t.id: node.value.value for t in node.targets if isinstance(t, ast.Name)})
    return out


def names_read() -> dict[str, str]:
    """Variable name → where it is read, from every call of a reader with a fixed name."""
    found = {}
    for path, tree in sources():
        constants = _constants(tree)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            func = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if func not in READERS:
                continue
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found[arg.value] = f"{path}:{node.lineno}"
            elif isinstance(arg, ast.Name) and arg.id in constants:
                found[constants[arg.id]] = f"{path}:{node.lineno}"
            elif path != "athar/config.py":  # config's own readers pass names (and NAME_FILE) through
                found[f"<not a fixed name: {ast.unparse(arg)}>"] = f"{path}:{node.lineno}"
    return found


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def environment_reads_in(path: str, tree: ast.Module) -> list[str]:
    """Uses of os.environ / os.getenv in one module that are not writes or copies."""
    out = []
    parents = _parents(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "os" and {a.name for a in node.names} & {
                "environ", "getenv", "environb", "getenvb"}:
            out.append(f"{path}:{node.lineno} imports the environment from os")
        if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "os"):
            continue
        if node.attr in ("getenv", "getenvb", "environb"):
            out.append(f"{path}:{node.lineno} os.{node.attr}")
        elif node.attr == "environ":
            parent = parents[node]
            use = parent.attr if isinstance(parent, ast.Attribute) else type(parent).__name__
            is_copy = use in ("items", "copy") or (isinstance(parent, ast.Call) and ast.unparse(parent.func) == "dict")
            if use == "setdefault" or (is_copy and path in ENVIRONMENT_COPIES):
                continue  # a default for a library (DJANGO_SETTINGS_MODULE), or the environment passed on
            out.append(f"{path}:{node.lineno} os.environ ({use})")
    return out


def environment_reads_outside_config() -> list[str]:
    return [read for path, tree in sources() if path != "athar/config.py" for read in environment_reads_in(path, tree)]


def test_only_athar_config_reads_the_environment() -> None:
    assert environment_reads_outside_config() == []


def test_every_variable_read_is_registered_and_every_registered_one_is_read() -> None:
    read = names_read()
    assert {name: where for name, where in read.items() if name not in READ_NAMES} == {}
    file_variants = {f"{s.name}_FILE" for s in SETTINGS if s.from_file}
    assert set(REGISTRY) - set(read) == set(), "registered but read nowhere: remove them from SETTINGS"
    assert {n for n in read if n.endswith("_FILE")} <= file_variants


def test_docs_configuration_lists_exactly_the_registry() -> None:
    """The tables are generated (scripts/configuration-doc); a hand edit or a new setting without
    regenerating them fails here."""
    document = DOC.read_text(encoding="utf-8")
    assert document == with_settings_tables(document), "run: .venv/bin/python scripts/configuration-doc"
    for setting in SETTINGS:
        assert document.count(f"| `{setting.name}`") == 1, setting.name


def test_an_unregistered_name_is_refused() -> None:
    with pytest.raises(KeyError, match="ATHAR_NOT_A_SETTING"):
        env_str("ATHAR_NOT_A_SETTING")


def test_defaults_come_from_the_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ATHAR_SESSION_SECONDS", raising=False)
    assert env_int("ATHAR_SESSION_SECONDS") == REGISTRY["ATHAR_SESSION_SECONDS"].default == 8 * 60 * 60
    monkeypatch.setenv("ATHAR_SESSION_SECONDS", " 600 ")
    assert env_int("ATHAR_SESSION_SECONDS") == 600
    with pytest.raises(KeyError, match="caller must give it"):
        env_int("ATHAR_REQUIRE_TWO_FACTOR")  # its default depends on ATHAR_ENV: settings.py gives it


def test_the_scanners_see_what_they_look_for() -> None:
    tree = ast.parse('import os\nfrom os import getenv\nFLAG = "ATHAR_X"\nenv_str(FLAG)\nos.environ.get("Z")\n'
                     'os.environ["Y"]\nos.environ.setdefault("DJANGO_SETTINGS_MODULE", "athar.settings")\n'
                     'env = dict(os.environ)\n')
    assert _constants(tree) == {"FLAG": "ATHAR_X"}
    assert sorted(environment_reads_in("athar/x.py", tree)) == [
        "athar/x.py:2 imports the environment from os", "athar/x.py:5 os.environ (get)",
        "athar/x.py:6 os.environ (Subscript)", "athar/x.py:8 os.environ (Call)"]
    assert len(environment_reads_in("athar/ops/backup.py", tree)) == 3  # there, a copy is allowed
