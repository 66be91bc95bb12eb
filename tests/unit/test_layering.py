"""Import direction, read from the source: what a module (and what it imports, transitively,
inside the package) pulls in is what it may depend on. The package root re-exports the
facade, so a runtime ``sys.modules`` check cannot tell; the import statements can."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

import memquill

SRC = Path(memquill.__file__).parent.parent


def _file(module: str) -> Path | None:
    base = SRC / module.replace(".", "/")
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.exists():
            return path
    return None


@cache
def direct_imports(module: str) -> frozenset[str]:
    path = _file(module)
    if path is None:
        return frozenset()
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names if _file(f"{node.module}.{a.name}"))
    return frozenset(found)


def closure(module: str) -> set[str]:
    """Every module reached from ``module`` through import statements, without passing
    through the package root (``memquill/__init__`` re-exports the whole facade)."""
    seen, todo = {module}, [module]
    while todo:
        for dep in direct_imports(todo.pop()):
            if dep not in seen and dep != "memquill":
                seen.add(dep)
                if dep.startswith("memquill."):
                    todo.append(dep)
    return seen


@pytest.mark.parametrize(
    ("module", "forbidden"),
    [
        ("memquill.write.reconcile", ("memquill.store", "sqlite3", "psycopg")),
        ("memquill.write.extract.rules", ("memquill.write.extract.patterns",)),
        ("memquill.write.extract.patterns_prefs", ("memquill.write.extract.rules",)),
        ("memquill.providers.registry", ("memquill.write",)),
    ],
)
def test_module_does_not_depend_on(module: str, forbidden: tuple[str, ...]) -> None:
    reached = closure(module)
    bad = sorted(m for m in reached if any(m == f or m.startswith(f + ".") for f in forbidden))
    assert bad == [], f"{module} reaches {bad}"


def test_the_check_sees_real_dependencies() -> None:
    assert "memquill.store.base" in closure("memquill.write.reconcile_view")
    assert "memquill.write.extract.clause" in closure("memquill.write.extract.rules")
