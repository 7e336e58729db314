"""Runs the Java grouping simulator (build/dist/tools/nonstop-grouping-sim.jar) and reads its JSON.

The simulator drives the very same routing classes as the Storm groupings. This module only turns a
typed request into the jar's arguments, runs it (once, or once per value of a swept parameter) and
collects the results; the model and every metric are the jar's (storm-plugins/grouping/README.md).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Callable

from pycontrol import paths
from pycontrol.errors import UserError
from pycontrol.jvm.command import JavaCommand, last_lines
from pycontrol.jvm.command import run as run_java

SIM_JAR = "tools/nonstop-grouping-sim.jar"
SCHEMES = ("kg", "sg", "pkg", "potc", "ch", "porc", "cg")
CAPACITY_MODES = ("homogeneous", "heterogeneous", "changing")
# Parameters a sweep can vary: CLI name -> request field, and the type of its values.
SWEEPABLE = {
    "epsilon": ("epsilon", float),
    "workers": ("workers", int),
    "sources": ("sources", int),
    "virtual-workers": ("virtual_workers", int),
    "zipf-exponent": ("zipf_exponent", float),
    "strong-factor": ("strong_factor", float),
    "load": ("load", float),
}


@dataclass(frozen=True)
class Request:
    """One simulation: a key stream, workers with capacities, and the schemes' parameters."""

    keys_file: Path | None = None          # None: a Zipf stream
    zipf_exponent: float = 1.0
    keys: int = 10_000
    messages: int = 1_000_000
    workers: int = 10
    sources: int = 5
    schemes: tuple[str, ...] = SCHEMES
    capacities: str = "homogeneous"
    strong_workers: int = 1                # heterogeneous: how many workers are stronger
    strong_factor: float = 2.0
    changes: tuple[str, ...] = ()          # changing: "AT=c1,...,cW"; empty = the default schedule
    load: float = 0.8
    epsilon: float = 0.2
    virtual_workers: int = 10
    idle_below: float = 0.7
    busy_above: float = 0.9
    time_slot: int | None = None           # ticks; None = the jar's default (500 x workers)
    signal_delivery: str = "piggyback"
    samples: int = 200
    seed: int = 42
    extra: tuple[str, ...] = field(default=())  # further jar options, passed as they are

    def __post_init__(self):
        problems = []
        if self.messages <= 0:
            problems.append(f"messages must be positive, got {self.messages}")
        if self.keys <= 0:
            problems.append(f"keys must be positive, got {self.keys}")
        if not self.zipf_exponent > 0:
            problems.append(f"the Zipf exponent must be > 0, got {self.zipf_exponent}")
        if self.workers <= 0 or self.sources <= 0:
            problems.append(f"workers and sources must be positive, got {self.workers} and {self.sources}")
        unknown = [s for s in self.schemes if s not in SCHEMES]
        if unknown or not self.schemes:
            problems.append(f"schemes must be among {', '.join(SCHEMES)}, got {', '.join(self.schemes) or 'none'}")
        if self.capacities not in CAPACITY_MODES:
            problems.append(f"capacities must be one of {', '.join(CAPACITY_MODES)}, got {self.capacities!r}")
        if self.capacities == "heterogeneous" and not 0 < self.strong_workers < self.workers:
            problems.append(f"heterogeneous capacities need 0 < strong workers < workers, got {self.strong_workers} "
                            f"of {self.workers}")
        if not self.strong_factor > 0:
            problems.append(f"the strong factor must be > 0, got {self.strong_factor}")
        if self.changes and self.capacities != "changing":
            problems.append("capacity changes need --capacities changing")
        if not 0 < self.load:
            problems.append(f"load must be > 0, got {self.load}")
        if not self.epsilon >= 0:
            problems.append(f"epsilon must be >= 0, got {self.epsilon}")
        if self.virtual_workers <= 0:
            problems.append(f"virtual workers per worker must be positive, got {self.virtual_workers}")
        if not 0 <= self.idle_below < self.busy_above:
            problems.append(f"need 0 <= idle-below < busy-above, got {self.idle_below} and {self.busy_above}")
        if self.time_slot is not None and self.time_slot <= 0:
            problems.append(f"the time slot must be positive, got {self.time_slot}")
        if self.signal_delivery not in ("piggyback", "immediate"):
            problems.append(f"signal delivery must be piggyback or immediate, got {self.signal_delivery!r}")
        if self.samples <= 0:
            problems.append(f"samples must be positive, got {self.samples}")
        if problems:
            raise UserError("; ".join(problems))

    def capacity_args(self) -> list[str]:
        if self.capacities == "heterogeneous":
            return ["--workers", str(self.workers), "--strong-workers", str(self.strong_workers),
                    "--strong-factor", f"{self.strong_factor:g}"]
        args = ["--workers", str(self.workers)]
        if self.capacities == "changing":
            for change in self.changes or default_changes(self.workers, self.messages, self.strong_factor):
                args += ["--capacity-change", change]
        return args

    def jar_args(self, output: Path) -> list[str]:
        """The simulator's command line (after `java -jar JAR`)."""
        args = ["--output", str(output), "--schemes", ",".join(self.schemes), "--messages", str(self.messages),
                "--sources", str(self.sources), "--load", f"{self.load:g}", "--epsilon", f"{self.epsilon:g}",
                "--virtual-workers", str(self.virtual_workers), "--idle-below", f"{self.idle_below:g}",
                "--busy-above", f"{self.busy_above:g}", "--signal-delivery", self.signal_delivery,
                "--samples", str(self.samples), "--seed", str(self.seed)]
        if self.keys_file is not None:
            args += ["--keys-file", str(self.keys_file)]
        else:
            args += ["--zipf-exponent", f"{self.zipf_exponent:g}", "--keys", str(self.keys)]
        args += self.capacity_args()
        if self.time_slot is not None:
            args += ["--time-slot", str(self.time_slot)]
        return args + list(self.extra)


def default_changes(workers: int, messages: int, factor: float) -> list[str]:
    """The paper's Fig. 13 shape with total capacity constant: all equal, then after a third of the stream
    the first half of the workers is `factor` times stronger than the second half, and after two thirds
    the other way round."""
    half = workers // 2
    strong, weak = 2 * factor / (factor + 1), 2 / (factor + 1)  # mean 1 over an even split
    if workers % 2:
        first = [strong] * half + [1.0] + [weak] * half
    else:
        first = [strong] * half + [weak] * half
    second = list(reversed(first))
    fmt = lambda ws: ",".join(f"{w:.6g}" for w in ws)  # noqa: E731
    return [f"{messages // 3}={fmt(first)}", f"{2 * messages // 3}={fmt(second)}"]


def sim_jar() -> Path:
    jar = paths.dist_dir() / SIM_JAR
    if not jar.is_file():
        raise UserError(f"{jar} missing: build it with `mvn -q -pl storm-plugins/grouping -am package`")
    return jar


def run(request: Request, output: Path, timeout_s: float = 3600, echo: Callable[[str], None] | None = None) -> dict:
    """Runs the simulator once; returns its JSON document (also written to `output`)."""
    output.parent.mkdir(parents=True, exist_ok=True)
    cmd = JavaCommand(str(sim_jar()), tuple(request.jar_args(output)), options=("-Xmx1g",), jar=True,
                      what="the simulation")
    p = run_java(cmd, timeout_s)
    if p.returncode != 0:
        # The simulator's last line says what was wrong with the request.
        lines = last_lines(p.stderr or p.stdout, 1)
        raise UserError(f"simulator: {lines[-1] if lines else f'exit {p.returncode}'}")
    if echo:
        for line in p.stdout.splitlines():
            echo(line)
    return json.loads(output.read_text())


def parse_sweep(spec: str) -> tuple[str, list]:
    """'workers=5,10,20' -> ('workers', [5, 10, 20]) with the parameter's type."""
    name, eq, values = spec.partition("=")
    name = name.strip()
    if not eq or name not in SWEEPABLE:
        raise UserError(f"--sweep must be PARAM=v1,v2,... with PARAM one of {', '.join(SWEEPABLE)}; got {spec!r}")
    kind = SWEEPABLE[name][1]
    try:
        parsed = [kind(v.strip()) for v in values.split(",") if v.strip()]
    except ValueError:
        raise UserError(f"--sweep {name}: values must be {kind.__name__}s, got {values!r}") from None
    if not parsed:
        raise UserError(f"--sweep {name}: no values")
    return name, parsed


def sweep(request: Request, name: str, values: list, out_dir: Path,
          echo: Callable[[str], None] | None = None) -> dict:
    """One run per value of parameter `name`; returns {parameter, values, points: [{value, file, summaries}]}."""
    attr = SWEEPABLE[name][0]
    points = []
    for value in values:
        point = replace(request, **{attr: value})
        file = out_dir / "points" / f"{name}-{value:g}.json"
        if echo:
            echo(f"{name} = {value:g}")
        doc = run(point, file, echo=echo)
        points.append({"value": value, "file": str(file.relative_to(out_dir)),
                       "summaries": {r["scheme"]: r["summary"] for r in doc["runs"]}})
    return {"parameter": name, "values": values, "request": describe(request), "points": points}


def describe(request: Request) -> dict:
    """The request as JSON-friendly data (paths as strings)."""
    out = {}
    for f in fields(request):
        v = getattr(request, f.name)
        out[f.name] = str(v) if isinstance(v, Path) else list(v) if isinstance(v, tuple) else v
    return out
