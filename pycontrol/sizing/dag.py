"""The application DAG that sizing works on (seed 002 §3): tasks, stream edges, selectivities.

A task names the performance model that describes it (`model`, see `pycontrol.sizing.models`).
An edge `a -> b` carries `selectivity` σ_ab: tuples emitted on that edge per tuple `a` consumes.
Every out-edge gets its own copy of the output (the paper's duplicate semantics), and a task's
inputs are interleaved, so rates simply add up (`pycontrol.sizing.rates`).

File format (YAML or JSON; these keys are all there is):

    name: linear                      # optional; defaults to the file's stem
    description: free text            # optional
    tasks:                            # declaration order = tie-break order everywhere
      - {name: source, model: source}
      - {name: X, model: parse_xml, selectivity: 1.0}   # optional default σ of X's out-edges
    edges:
      - {from: source, to: X}                           # σ = the source task's default (1.0)
      - {from: X, to: sink, selectivity: 0.5}           # an edge's own σ wins

The micro-DAGs of the paper's Fig. 5 ship as `linear`, `diamond` and `star` (files under
`pycontrol/sizing/dags/`); `load_dag` takes either such a name or a path.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any

import networkx as nx
import yaml

from pycontrol.sizing._fileformat import (expect_list, expect_mapping, expect_name, expect_number,
                                          read_document)
from pycontrol.sizing.errors import SizingError

_BUILTIN_DIR = "dags"
_SUFFIXES = (".yaml", ".yml", ".json")


@dataclass(frozen=True)
class Task:
    name: str
    model: str
    selectivity: float = 1.0  # default σ of this task's out-edges


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    selectivity: float


@dataclass(frozen=True)
class Dag:
    """A validated DAG: unique task names, edges between known tasks, no cycles, σ >= 0.

    Build it with `Dag.build`, which checks all of that; the plain constructor does not.
    """

    name: str
    tasks: tuple[Task, ...]
    edges: tuple[Edge, ...]
    description: str = ""

    @classmethod
    def build(cls, name: str, tasks: Iterable[Task], edges: Iterable[Edge],
              description: str = "") -> Dag:
        dag = cls(name, tuple(tasks), tuple(edges), description)
        dag._validate()
        return dag

    def _validate(self) -> None:
        if not self.tasks:
            raise SizingError(f"DAG {self.name!r}: has no tasks")
        seen: set[str] = set()
        for t in self.tasks:
            if t.name in seen:
                raise SizingError(f"DAG {self.name!r}: task {t.name!r} is declared twice")
            seen.add(t.name)
            _check_selectivity(t.selectivity, f"DAG {self.name!r}: task {t.name!r}")
        pairs: set[tuple[str, str]] = set()
        for e in self.edges:
            where = f"DAG {self.name!r}: edge {e.source}->{e.target}"
            for end in (e.source, e.target):
                if end not in seen:
                    raise SizingError(f"{where}: unknown task {end!r}")
            if e.source == e.target:
                raise SizingError(f"{where}: a task cannot feed itself")
            if (e.source, e.target) in pairs:
                raise SizingError(f"{where}: appears twice")
            pairs.add((e.source, e.target))
            _check_selectivity(e.selectivity, where)
        if not nx.is_directed_acyclic_graph(self.graph):
            cycle = " -> ".join(u for u, _ in nx.find_cycle(self.graph))
            raise SizingError(f"DAG {self.name!r}: has a cycle through {cycle}")

    @cached_property
    def graph(self) -> nx.DiGraph:
        """The networkx view: nodes carry `model`, edges carry `selectivity`."""
        g = nx.DiGraph(name=self.name)
        for t in self.tasks:
            g.add_node(t.name, model=t.model)
        for e in self.edges:
            g.add_edge(e.source, e.target, selectivity=e.selectivity)
        return g

    @cached_property
    def _index(self) -> Mapping[str, int]:
        return {t.name: i for i, t in enumerate(self.tasks)}

    @cached_property
    def topological_order(self) -> tuple[str, ...]:
        """Sources first; ties in declaration order, so the order is deterministic."""
        return tuple(nx.lexicographical_topological_sort(self.graph, key=self._index.__getitem__))

    def task(self, name: str) -> Task:
        try:
            return self.tasks[self._index[name]]
        except KeyError:
            raise SizingError(f"DAG {self.name!r} has no task {name!r}") from None

    def in_edges(self, name: str) -> tuple[Edge, ...]:
        return tuple(e for e in self.edges if e.target == name)

    @property
    def sources(self) -> tuple[str, ...]:
        """Tasks without in-edges: each of them receives the whole DAG input rate Ω."""
        return tuple(n for n in self.topological_order if self.graph.in_degree(n) == 0)


def _check_selectivity(value: float, where: str) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or value < 0:
        raise SizingError(f"{where}: selectivity must be a finite number >= 0, got {value!r}")


# --- reading and writing -------------------------------------------------------------------------

def builtin_dag_names() -> tuple[str, ...]:
    folder = resources.files("pycontrol.sizing").joinpath(_BUILTIN_DIR)
    return tuple(sorted(p.name.rsplit(".", 1)[0] for p in folder.iterdir()
                        if p.name.endswith(_SUFFIXES)))


def load_dag(path_or_name: str | Path) -> Dag:
    """A DAG from a file, or one of the built-in DAGs by name (an existing file wins)."""
    path = Path(path_or_name)
    if path.is_file():
        return parse_dag(read_document(path), origin=str(path), default_name=path.stem)
    name = str(path_or_name)
    if name in builtin_dag_names():
        resource = resources.files("pycontrol.sizing").joinpath(_BUILTIN_DIR)
        for suffix in _SUFFIXES:
            candidate = resource.joinpath(name + suffix)
            if candidate.is_file():
                with resources.as_file(candidate) as real:
                    return parse_dag(read_document(real), origin=f"built-in DAG {name!r}",
                                     default_name=name)
    raise SizingError(f"unknown DAG {name!r}: not a file and not a built-in DAG "
                      f"(built-in: {', '.join(builtin_dag_names())})")


def parse_dag(data: Any, *, origin: str = "DAG", default_name: str = "dag") -> Dag:
    """A DAG from the parsed document (see the module docstring for the format)."""
    doc = expect_mapping(data, origin, required=("tasks",),
                         allowed=("name", "description", "tasks", "edges"))
    name = expect_name(doc.get("name", default_name), f"{origin}: name")
    description = doc.get("description", "") or ""
    if not isinstance(description, str):
        raise SizingError(f"{origin}: description must be text")
    tasks = []
    for i, raw in enumerate(expect_list(doc["tasks"], f"{origin}: tasks")):
        where = f"{origin}: tasks[{i}]"
        t = expect_mapping(raw, where, required=("name", "model"), allowed=("selectivity",))
        tasks.append(Task(
            name=expect_name(t["name"], f"{where}.name"),
            model=expect_name(t["model"], f"{where}.model"),
            selectivity=expect_number(t.get("selectivity", 1.0), f"{where}.selectivity")))
    default_sigma = {t.name: t.selectivity for t in tasks}
    edges = []
    for i, raw in enumerate(expect_list(doc.get("edges") or [], f"{origin}: edges")):
        where = f"{origin}: edges[{i}]"
        e = expect_mapping(raw, where, required=("from", "to"), allowed=("selectivity",))
        src = expect_name(e["from"], f"{where}.from")
        dst = expect_name(e["to"], f"{where}.to")
        if src not in default_sigma:
            raise SizingError(f"{where}: unknown task {src!r}")
        sigma = e["selectivity"] if "selectivity" in e else default_sigma[src]
        edges.append(Edge(src, dst, expect_number(sigma, f"{where}.selectivity")))
    try:
        return Dag.build(name, tasks, edges, description)
    except SizingError as err:
        raise SizingError(f"{origin}: {err}") from None


def dag_to_dict(dag: Dag) -> dict[str, Any]:
    """The document `parse_dag` reads back to an equal DAG (edge σ always written out)."""
    out: dict[str, Any] = {"name": dag.name}
    if dag.description:
        out["description"] = dag.description
    out["tasks"] = [{"name": t.name, "model": t.model, "selectivity": t.selectivity}
                    for t in dag.tasks]
    out["edges"] = [{"from": e.source, "to": e.target, "selectivity": e.selectivity}
                    for e in dag.edges]
    return out


def dump_dag(dag: Dag, path: Path) -> None:
    """Write the DAG as YAML (or JSON if the file name ends in .json)."""
    data = dag_to_dict(dag)
    if path.suffix == ".json":
        import json
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    else:
        path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
