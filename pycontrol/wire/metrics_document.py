"""Parsing and validation of the worker metrics document (storm-plugins/metrics/SCHEMA.md).

A document that is not valid JSON, misses a field, has a wrong type, an executor span outside the span
rule (pycontrol/wire/executor.py) or a version this reader does not know raises DocumentError with the
path of the first problem; callers log it and skip the document.
Unknown fields are ignored: adding fields is not a version change.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pycontrol.wire import executor as spans
from pycontrol.wire.executor import ExecutorId

SCHEMA = "nonstop.metrics.worker"
SUPPORTED_VERSIONS = frozenset({1})


class DocumentError(ValueError):
    """Not a worker metrics document this reader understands."""


@dataclass(frozen=True)
class Skipped:
    """A document a reader refused: where it was, and why."""
    path: str
    reason: str


@dataclass(frozen=True)
class NetRate:
    interface: str
    rx_bytes_per_s: float
    tx_bytes_per_s: float


@dataclass(frozen=True)
class StateSize:
    """The size of the state an executor's bolt hands over in a live move, as its worker last measured it
    (`executors[].state`; over_limit: measuring stopped past nonstop.migration.state.max.bytes, and bytes is
    that limit plus one). Nimbus refuses to move such an executor live."""
    bytes: int
    over_limit: bool
    measured_at_ms: int


@dataclass(frozen=True)
class ExecutorMetrics:
    start: int
    end: int
    component: str
    tasks: tuple[int, ...]
    cpu_cores: float | None
    child_processes: int
    child_cpu_cores: float | None
    queue_length: int | None
    queue_capacity: int | None
    emitted_per_s: float
    executed_per_s: float
    # Fraction of the window spent in execute (added to version 1 later: absent in older documents).
    busy: float | None = None
    # Its handed-over state's size (added later; absent when not measured).
    state: StateSize | None = None

    @property
    def id(self) -> ExecutorId:
        return ExecutorId(self.start, self.end)


@dataclass(frozen=True)
class PairRate:
    src_task: int
    dst_task: int
    tuples: int
    tuples_per_s: float


@dataclass(frozen=True)
class Input:
    component: str
    stream: str
    grouping: str
    fields: tuple[str, ...]


@dataclass(frozen=True)
class ComponentSpec:
    id: str
    type: str
    tasks: tuple[int, ...]
    inputs: tuple[Input, ...]


@dataclass(frozen=True)
class WorkerDoc:
    version: int
    topology_id: str
    host: str
    port: int
    pid: int
    started_at_ms: int
    cpu_cores: float | None
    window_end_ms: int
    window_s: float
    seq: int
    period_s: int
    node_cpu_count: int
    node_cpu_mhz: float | None
    node_cpu_busy_cores: float | None
    net: tuple[NetRate, ...]
    executors: tuple[ExecutorMetrics, ...]
    traffic: tuple[PairRate, ...]
    components: tuple[ComponentSpec, ...]

    @property
    def worker(self) -> str:
        """The worker as "host:port"."""
        return f"{self.host}:{self.port}"


class _Reader:
    """Typed field access with the JSON path in every error."""

    def __init__(self, d: Any, path: str):
        if not isinstance(d, dict):
            raise DocumentError(f"{path}: expected an object, got {type(d).__name__}")
        self.d = d
        self.path = path

    def _get(self, key: str, nullable: bool) -> Any:
        if key not in self.d:
            raise DocumentError(f"{self.path}.{key}: missing")
        v = self.d[key]
        if v is None and not nullable:
            raise DocumentError(f"{self.path}.{key}: must not be null")
        return v

    def _typed(self, key: str, nullable: bool, types: type | tuple[type, ...], what: str) -> Any:
        """The value, None only if nullable; a bool is never a number here although Python says it is."""
        v = self._get(key, nullable)
        if v is not None and (isinstance(v, bool) or not isinstance(v, types)):
            raise DocumentError(f"{self.path}.{key}: expected {what}, got {v!r}")
        return v

    def int(self, key: str, nullable: bool = False) -> int | None:
        return self._typed(key, nullable, int, "an integer")

    def num(self, key: str, nullable: bool = False) -> float | None:
        v = self._typed(key, nullable, (int, float), "a number")
        if v is None:
            return None
        if v != v or v in (float("inf"), float("-inf")) or v < 0:
            raise DocumentError(f"{self.path}.{key}: expected a finite non-negative number, got {v!r}")
        return float(v)

    def str(self, key: str) -> str:
        v = self._get(key, False)
        if not isinstance(v, str) or not v:
            raise DocumentError(f"{self.path}.{key}: expected a non-empty string, got {v!r}")
        return v

    def list(self, key: str) -> list:
        v = self._get(key, False)
        if not isinstance(v, list):
            raise DocumentError(f"{self.path}.{key}: expected a list, got {type(v).__name__}")
        return v

    def ints(self, key: str) -> tuple[int, ...]:
        items = self.list(key)
        for i, x in enumerate(items):
            if isinstance(x, bool) or not isinstance(x, int):
                raise DocumentError(f"{self.path}.{key}[{i}]: expected an integer, got {x!r}")
        return tuple(items)

    def obj(self, key: str) -> _Reader:
        return _Reader(self._get(key, False), f"{self.path}.{key}")


def _state(executor: _Reader) -> StateSize:
    sr = executor.obj("state")
    size, at = sr.int("bytes"), sr.int("measured_at_ms")
    over = sr._get("over_limit", False)
    if not isinstance(over, bool):
        raise DocumentError(f"{sr.path}.over_limit: expected true or false, got {over!r}")
    if size < 0 or at < 0:
        raise DocumentError(f"{sr.path}: bytes and measured_at_ms must be >= 0, got {size} and {at}")
    return StateSize(size, over, at)


def parse_document(raw: bytes | str) -> WorkerDoc:
    """Parse and validate one document; raises DocumentError."""
    try:
        d = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as e:
        raise DocumentError(f"not JSON: {e}") from None
    return document_from_dict(d)


def document_from_dict(d: Any) -> WorkerDoc:
    r = _Reader(d, "$")
    schema = r.str("schema")
    if schema != SCHEMA:
        raise DocumentError(f"$.schema: expected {SCHEMA!r}, got {schema!r}")
    version = r.int("version")
    if version not in SUPPORTED_VERSIONS:
        raise DocumentError(f"$.version: {version} is not supported (this reader knows {sorted(SUPPORTED_VERSIONS)})")
    w = r.obj("worker")
    win = r.obj("window")
    n = r.obj("node")
    executors = []
    n_tasks = 0
    for i, e in enumerate(r.list("executors")):
        er = _Reader(e, f"$.executors[{i}]")
        ids = er.ints("id")
        if len(ids) != 2:
            raise DocumentError(f"$.executors[{i}].id: expected [start, end], got {list(ids)}")
        bad = spans.check(ids[0], ids[1])
        if bad:
            raise DocumentError(f"$.executors[{i}].id: {bad}")
        n_tasks += spans.tasks(ids[0], ids[1])
        executors.append(ExecutorMetrics(
            ids[0], ids[1], er.str("component"), er.ints("tasks"), er.num("cpu_cores", True),
            er.int("child_processes"), er.num("child_cpu_cores", True), er.int("queue_length", True),
            er.int("queue_capacity", True), er.num("emitted_per_s"), er.num("executed_per_s"),
            er.num("busy", True) if "busy" in e else None, _state(er) if "state" in e else None))
    over = spans.check_total(n_tasks)
    if over:
        raise DocumentError(f"$.executors: {over}")
    traffic = []
    for i, p in enumerate(r.list("traffic")):
        pr = _Reader(p, f"$.traffic[{i}]")
        traffic.append(PairRate(pr.int("src_task"), pr.int("dst_task"), pr.int("tuples"), pr.num("tuples_per_s")))
    components = []
    for i, c in enumerate(r.list("components")):
        cr = _Reader(c, f"$.components[{i}]")
        inputs = []
        for j, x in enumerate(cr.list("inputs")):
            xr = _Reader(x, f"$.components[{i}].inputs[{j}]")
            fields = xr.list("fields")
            if not all(isinstance(f, str) for f in fields):
                raise DocumentError(f"$.components[{i}].inputs[{j}].fields: expected strings")
            inputs.append(Input(xr.str("component"), xr.str("stream"), xr.str("grouping"), tuple(fields)))
        ctype = cr.str("type")
        if ctype not in ("spout", "bolt"):
            raise DocumentError(f"$.components[{i}].type: expected 'spout' or 'bolt', got {ctype!r}")
        components.append(ComponentSpec(cr.str("id"), ctype, cr.ints("tasks"), tuple(inputs)))
    net = []
    for i, x in enumerate(n.list("net")):
        xr = _Reader(x, f"$.node.net[{i}]")
        net.append(NetRate(xr.str("interface"), xr.num("rx_bytes_per_s"), xr.num("tx_bytes_per_s")))
    window_s = win.num("seconds")
    if window_s <= 0:
        raise DocumentError(f"$.window.seconds: must be positive, got {window_s}")
    return WorkerDoc(
        version=version, topology_id=r.str("topology_id"),
        host=w.str("host"), port=w.int("port"), pid=w.int("pid"), started_at_ms=w.int("started_at_ms"),
        cpu_cores=w.num("cpu_cores", True),
        window_end_ms=win.int("end_ms"), window_s=window_s, seq=win.int("seq"), period_s=win.int("period_s"),
        node_cpu_count=n.int("cpu_count"), node_cpu_mhz=n.num("cpu_mhz", True),
        node_cpu_busy_cores=n.num("cpu_busy_cores", True), net=tuple(net),
        executors=tuple(executors), traffic=tuple(traffic), components=tuple(components))
