"""pycontrol's packages depend on each other in one direction only: no import cycle between packages
(a subpackage such as pycontrol.metrics, or a top-level module such as pycontrol.zk), counting imports
inside functions too. Read from the source with ast, so nothing is imported to check it."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "pycontrol"


def _unit(module: str) -> str:
    """pycontrol.metrics.collect -> pycontrol.metrics; pycontrol.zk -> pycontrol.zk."""
    parts = module.split(".")
    return ".".join(parts[:2])


def _module_of(path: Path, base: Path) -> str:
    parts = list(path.relative_to(base).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, module: str) -> set[str]:
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            # `from pycontrol import zk` names a module; `from pycontrol.x import y` the package x.
            out.update(f"{base}.{a.name}" if base == "pycontrol" else base for a in node.names)
    return {m for m in out if m == "pycontrol" or m.startswith("pycontrol.")}


def package_graph(root: Path = PACKAGE) -> nx.DiGraph:
    g = nx.DiGraph()
    for path in sorted(root.rglob("*.py")):
        module = _module_of(path, root.parent)
        src = _unit(module)
        g.add_node(src)
        for target in _imports(path, module):
            dst = _unit(target)
            if dst not in (src, "pycontrol"):
                g.add_edge(src, dst)
    return g


def test_no_import_cycle_between_packages():
    g = package_graph()
    assert len(g) > 20, "the walk found pycontrol's packages"
    cycles = list(nx.simple_cycles(g))
    assert cycles == [], f"packages importing each other: {cycles}"


def test_the_checker_sees_a_cycle(tmp_path):
    pkg = tmp_path / "pycontrol"
    for sub, imports in (("a", "from pycontrol.b import x\n"), ("b", "def f():\n    from pycontrol.a import y\n")):
        (pkg / sub).mkdir(parents=True)
        (pkg / sub / "__init__.py").write_text("")
        (pkg / sub / "m.py").write_text(imports)
    assert [sorted(c) for c in nx.simple_cycles(package_graph(pkg))] == [["pycontrol.a", "pycontrol.b"]]


@pytest.mark.parametrize("module", ["pycontrol.metrics.collect", "pycontrol.model.live", "pycontrol.wire.executor"])
def test_each_module_imports_alone(module):
    p = subprocess.run([sys.executable, "-c", f"import {module}"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
