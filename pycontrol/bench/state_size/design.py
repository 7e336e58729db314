"""What the state-size benchmark runs (pure): the ways a stateful executor moves, the state sizes, and the
order of the runs (each repetition rotates the ways; sizes run smallest first on one cluster per way)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from pycontrol.bench.migration.schemes import NONSTOP_PLUS, WORKER_RESTART, ClusterRun
from pycontrol.bench.order import rotated
from pycontrol.errors import UserError

FILE_PROVIDER = "io.nonstopstorm.workloads.state.FileStateProvider"


@dataclass(frozen=True)
class Way:
    name: str
    cluster: ClusterRun          # the cluster it runs on (agent or none, storm.yaml)
    keep_kind: str               # statesize-java's workload.keep.kind
    about: str

    @property
    def nonstop(self) -> bool:
        return self.cluster.migration


NONSTOP = Way("nonstop", ClusterRun("nonstop", True, NONSTOP_PLUS.conf, ()), "handoff",
              "the agent in every JVM (nonstop+ settings); the keep bolt opts in (HandoffState): its counts and "
              "ballast are snapshot at the routing switch, sent in chunks over the workers' connections and "
              "installed before the new instance's first tuple")
STORM_RESTART = Way("storm-restart", ClusterRun("storm-restart", False, WORKER_RESTART.conf, ()), "stateful",
                    "stock Storm 2.8.3, no agent in any JVM, the suite's plan-following scheduler in Nimbus: the "
                    "supervisors relaunch the workers whose executors change; the keep bolt is Storm's stateful "
                    "bolt (KeyValueState, checkpoints every second) with a file-backed persistent provider, so "
                    "the new instance restores the last checkpoint and Storm replays what was not committed")
NONSTOP_STATEFUL = Way("nonstop-stateful", ClusterRun("nonstop-stateful", True, NONSTOP_PLUS.conf, ()), "stateful",
                       "the agent in every JVM (nonstop+ settings); the same stateful bolt and file-backed provider "
                       "as storm-restart, moved live: only the changes not yet in the files and the executor's "
                       "checkpoint bookkeeping are handed over, the new instance builds its state from the files")
WAYS = {w.name: w for w in (NONSTOP, NONSTOP_STATEFUL, STORM_RESTART)}

_UNITS = {"": 1, "B": 1, "KB": 1024, "MB": 1024 ** 2}
MAX_BYTES = 200 * 1024 ** 2     # a keep task holds this much twice (its ballast and a snapshot) in its worker
MIN_WORKER_HEAP_MB = 768          # Storm's worker.heap.memory.mb default


def worker_heap_mb(state_bytes: int) -> int:
    """The -Xmx every worker of a run gets (every way alike). Storm sizes a worker's heap by the executors it
    was launched with (128 MB each by default), so a worker holding only an acker gets -Xmx128m and cannot
    take in a moved task's tens of MB; an operator sizes workers for the state they will receive. A source
    holds the state, its serialised copy and the kept chunks, a target the chunks, the assembled bytes and
    the restored state: about 6x the state, on top of Storm's own 256 MB."""
    return max(MIN_WORKER_HEAP_MB, 256 + math.ceil(6 * state_bytes / 1024 ** 2))


def parse_size(text: str) -> int:
    """"1KB", "10MB", "512" (bytes) -> bytes (binary units)."""
    m = re.fullmatch(r"\s*(\d+)\s*([KkMm]?[Bb]?)\s*", text)
    if not m:
        raise UserError(f"a state size is a whole number with KB or MB (e.g. 1KB, 10MB), got '{text}'")
    n = int(m.group(1)) * _UNITS[m.group(2).upper()]
    if not 0 < n <= MAX_BYTES:
        raise UserError(f"a state size must be between 1 byte and {MAX_BYTES // 1024 ** 2} MB, got '{text}'")
    return n


def size_label(n: int) -> str:
    for unit in ("MB", "KB"):
        if n >= _UNITS[unit] and n % _UNITS[unit] == 0:
            return f"{n // _UNITS[unit]}{unit}"
    return f"{n}B"


@dataclass(frozen=True)
class Options:
    sizes: tuple[int, ...]
    ways: tuple[Way, ...]
    repeat: int = 3
    rate: int = 100            # sentences/s
    moves: int = 2             # moves of the keep executor per run: to the spare worker and back
    period_s: int = 45         # seconds between moves (and before the first): Storm's relaunch fits in it

    def command(self) -> str:
        return (f"pycontrol bench state-size --sizes {','.join(size_label(s) for s in self.sizes)} "
                f"--ways {','.join(w.name for w in self.ways)} --repeat {self.repeat} --rate {self.rate} "
                f"--moves {self.moves} --period {self.period_s}")


def make_options(sizes: str, ways: str, repeat: int, rate: int, moves: int, period_s: int) -> Options:
    parsed = tuple(sorted({parse_size(s) for s in sizes.split(",") if s.strip()}))
    if not parsed:
        raise UserError("--sizes needs at least one size")
    names = [w.strip() for w in ways.split(",") if w.strip()]
    unknown = [n for n in names if n not in WAYS]
    if unknown or not names:
        raise UserError(f"--ways takes {', '.join(WAYS)}; got '{ways}'")
    if not 1 <= repeat <= 20:
        raise UserError(f"--repeat must be between 1 and 20, got {repeat}")
    if rate < 1 or moves < 1 or period_s < 10:
        raise UserError(f"--rate and --moves must be positive and --period at least 10 s "
                        f"(got {rate}, {moves}, {period_s})")
    return Options(parsed, tuple(WAYS[n] for n in dict.fromkeys(names)), repeat, rate, moves, period_s)


def run_order(opts: Options) -> list[tuple[int, Way]]:
    """(repetition, way) per cluster in the order they run: the ways rotated by one per repetition."""
    return [(rep, way) for rep in range(opts.repeat) for way in rotated(opts.ways, rep)]
