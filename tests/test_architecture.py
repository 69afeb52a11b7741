"""The package's shape: data flows one way through the pipeline, and no module imports one downstream of it.

The stages are those of docs/architecture.md: the rule language, rule files and rulesets, the
interpreter, records, and their users. Imports inside functions count as much as those at the top.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from oracle.stages import STAGES as PACKAGE_STAGES

ROOT = Path(__file__).resolve().parent.parent / "oracle"

# Each top-level module or sub-package of oracle, by stage; a unit may import its own stage or earlier ones.
STAGES = list(PACKAGE_STAGES)
STAGE_OF = {unit: i for i, (_, units) in enumerate(STAGES) for unit in units}


def _unit(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "oracle" else None


def _imports() -> dict[str, set[str]]:
    """unit -> the other units of oracle it imports, anywhere in its code."""
    out: dict[str, set[str]] = {}
    for f in ROOT.rglob("*.py"):
        rel = f.relative_to(ROOT.parent).with_suffix("").parts
        module = ".".join(rel).removesuffix(".__init__")
        package = module if f.name == "__init__.py" else module.rsplit(".", 1)[0]
        me = _unit(module)
        if me is None:
            continue  # oracle/__init__.py: the package's public face, which re-exports
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                targets = [target] if node.module else [f"{target}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            for t in targets:
                unit = _unit(t)
                if unit is not None and unit != me and unit != "__version__":
                    out.setdefault(me, set()).add(unit)
    return out


IMPORTS = _imports()


def test_every_unit_has_a_stage():
    units = {p.stem if p.is_file() else p.name for p in ROOT.iterdir()
             if (p.suffix == ".py" and p.stem != "__init__") or (p.is_dir() and (p / "__init__.py").exists())}
    assert units - set(STAGE_OF) == set(), "add the new module to a stage here and in docs/architecture.md"
    assert set(STAGE_OF) - units == set()


@pytest.mark.parametrize("unit", sorted(IMPORTS))
def test_nothing_downstream_is_imported_upstream(unit: str):
    later = {u for u in IMPORTS[unit] if STAGE_OF[u] > STAGE_OF[unit]}
    assert not later, f"oracle.{unit} ({STAGES[STAGE_OF[unit]][0]}) imports " + ", ".join(
        f"oracle.{u} ({STAGES[STAGE_OF[u]][0]})" for u in sorted(later))


def test_there_is_no_import_circle():
    seen: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(u: str, path: list[str]) -> None:
        seen[u] = 1
        for v in sorted(IMPORTS.get(u, ())):
            assert seen.get(v) != 1, "import circle: " + " → ".join([*path[path.index(v):], v]) if v in path \
                else f"import circle through {v}"
            if v not in seen:
                visit(v, [*path, v])
        seen[u] = 2

    for u in sorted(IMPORTS):
        if u not in seen:
            visit(u, [u])


def test_the_test_data_generator_is_outside_the_production_chain():
    # `thousand golden` is a command; nothing else may depend on the golden-game generator.
    assert {u for u, deps in IMPORTS.items() if "golden" in deps} == {"cli"}
    assert "cli" not in IMPORTS.get("docgen", set())
    assert "golden" not in IMPORTS.get("conform", set())


def _harness_modules_after(imports: str) -> str:
    """Hypothesis and the harness's modules, as a fresh process has them after ``import <imports>``."""
    code = (f"import sys, {imports}; "
            "print(sorted(m for m in sys.modules if m == 'hypothesis' or m.startswith('oracle.conform')))")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=ROOT.parent).stdout.strip()


def test_the_pytest_plugin_loads_neither_the_harness_nor_hypothesis_until_its_fixture_is_used():
    # pytest loads the plugin (entry point pytest11) in every run of every project where the oracle is installed.
    assert _harness_modules_after("oracle.pytest_plugin") == "[]"


def test_reading_and_weighing_records_loads_neither_the_harness_nor_hypothesis():
    # validate and coverage start once per run and per worker: the harness and Hypothesis are a fifth of a
    # second of imports that neither needs (coverage's candidates live with the interpreter for this).
    assert _harness_modules_after("oracle.batch, oracle.coverage, oracle.records") == "[]"
