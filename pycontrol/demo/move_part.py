"""Part 1 of the demo, "one move, two ways": the acked Java word count at a fixed rate below
saturation, and the same placement changes (one executor, then M at once) applied on two fresh
local clusters in turn:

* stock Storm: `--migration off`, no agent in any JVM. The plan-following scheduler (a plain
  IScheduler plugin) gives Nimbus the new assignment, and Storm's supervisors do what they always do
  with a changed assignment: kill the worker and launch it again. Then Storm's own `rebalance`, what
  operators know, on the same cluster.
* nonstop: the agent in every JVM; the same plan znode, executors moved live between workers.

Each segment: `before_s` steady, the move, `after_s` watched. The pieces are the migration
benchmark's (pycontrol.bench.migration: the session, the driver's even re-deployment, the plan and
rebalance movers, worker pids); this module only orders them and keeps what the report needs."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pycontrol.bench.migration import runner as bench
from pycontrol.bench.migration.census import agent_census
from pycontrol.bench.migration.measures import dense_seconds
from pycontrol.bench.migration.realize import PlanMover, RebalanceMover
from pycontrol.bench.migration.schemes import (BY_PLAN, NONSTOP_PLUS, REBALANCE, WORKER_RESTART, ClusterRun, Options,
                                               Segment)
from pycontrol.cluster import manager
from pycontrol.cluster.spec import ClusterSpec, make_spec
from pycontrol.demo import move_table
from pycontrol.workloads import live_status as live
from pycontrol.demo.options import DemoOptions
from pycontrol.workloads.settle import settled
from pycontrol.migration.observe import worker_pids

WORKERS = 4
# A light word count (13 executors over 4 workers, ackers included): the two cores stay well below
# saturation, so what the table shows is the move, not a backlog. A short message timeout makes a
# tuple lost in a killed worker fail (and replay) within the watched window.
SETTINGS = (f"topology.workers={WORKERS}", "workload.par.split=4", "workload.par.count=4",
            "topology.message.timeout.secs=10")
DECISION_TIMEOUT_S = 20
# The stock way is the benchmark's worker-restart scheme: no agent in any JVM, the plan-following
# scheduler in Nimbus turns the plan into the new assignment.
WAYS = {"stock": WORKER_RESTART, "nonstop": NONSTOP_PLUS}
REBALANCE_WAIT_S = 0   # no deliberate pause: only what the rebalance itself costs
RECOVERY_TIMEOUT_S = 180


@dataclass
class SegmentResult:
    way: str                       # "stock", "stock rebalance" or "nonstop"
    m: int | None
    start_ts: int
    move: dict                     # the mover's record (t0_ms, decision, reason, moves)
    restarted: list[str]           # slots whose worker pid changed during the segment
    rows: list = field(default_factory=list)
    recovered_before: bool = True  # the workload was steady again after the previous change

    @property
    def move_ts(self) -> float:
        return self.move.get("t0_ms", 0) / 1000


def cluster_spec(home: Path, way: str, opts: DemoOptions) -> ClusterSpec:
    scheme = WAYS[way]
    return make_spec(home / f"move-{way}", nodes=2, slots=4, network=opts.network, port_base=opts.port_base,
                     migration=scheme.migration, extra_conf={**bench.CLUSTER_CONF, **scheme.extra_conf})


def run_way(home: Path, way: str, opts: DemoOptions, echo: Callable[[str], None],
            keep: bool = False) -> tuple[list[SegmentResult], dict[str, int]]:
    """One fresh cluster, one submission, a segment per M (and, stock, one rebalance); down at the end
    unless keep (then only the topology is killed). Also the agent census taken once the workers run."""
    spec = cluster_spec(home, way, opts)
    scheme = WAYS[way]
    segments = [Segment(scheme, m) for m in opts.moves]
    if way == "stock" and opts.rebalance:
        segments.append(Segment(REBALANCE, None))
    run = ClusterRun(way, scheme.migration, scheme.conf, tuple(segments))
    bench_opts = Options(duration_s=int(opts.before_s + opts.after_s), period_s=int(opts.before_s),
                         moves=opts.moves, schemes=(scheme,), rate=opts.rate, rebalance_wait_s=REBALANCE_WAIT_S)
    echo(f"[{way}] starting a fresh cluster in {spec.home} ({'no agent' if not spec.migration else 'agent loaded'})")
    manager.up(spec, timeout_s=300, echo=lambda msg: echo(f"[{way}] {msg}"))
    session = bench.ClusterSession(run, bench_opts, spec, echo,
                                   settings=(*SETTINGS, f"workload.rate={opts.rate}"), topology=f"demo-{way}",
                                   on_warm_up_poll=live.Throttled(f"{way}: warming up", echo))
    try:
        echo(f"[{way}] submitting the word count at {opts.rate}/s and warming up")
        warm = session.start_workload()
        echo(f"[{way}] {'settled' if warm['settled'] else 'NOT settled'} {warm['after_submit_s']} s after submission")
        census = agent_census(spec)
        echo(f"[{way}] {census['with_agent']} of the cluster's {census['jvms']} JVMs load the migration agent")
        results = []
        for seg in segments:
            recovered = _recover(session, opts, way, echo) if results else True
            results.append(_segment(session, seg, opts, way, echo))
            results[-1].recovered_before = recovered
        time.sleep(bench.FLUSH_WAIT_S)
        rows = session.series()
        for r in results:
            r.rows = dense_seconds(rows, r.start_ts, int(opts.before_s + opts.after_s))
        return results, census
    finally:
        session.stop()
        if keep:
            echo(f"[{way}] cluster left running (--keep): pycontrol cluster down --home {spec.home}")
        else:
            echo(f"[{way}] {manager.down(spec.home)}")


def _recover(session: bench.ClusterSession, opts: DemoOptions, way: str, echo: Callable[[str], None]) -> bool:
    """Waits (at most RECOVERY_TIMEOUT_S) until the workload is steady again after the last change, so
    a segment measures its own change and not the previous one's damage."""
    deadline = time.monotonic() + RECOVERY_TIMEOUT_S
    next_line = 0.0
    while time.monotonic() < deadline:
        rows = session.series()
        if settled(rows, time.time(), opts.rate, max_p50_ms=None):
            return True
        if time.monotonic() >= next_line:
            echo(live.status_line(f"{way}: waiting for the workload to recover", deadline - time.monotonic(), rows,
                                  time.time()))
            next_line = time.monotonic() + 5
        time.sleep(1)
    echo(f"[{way}] the workload did not recover within {RECOVERY_TIMEOUT_S} s; the next change is measured anyway")
    return False


def _segment(session: bench.ClusterSession, seg: Segment, opts: DemoOptions, way: str,
             echo: Callable[[str], None]) -> SegmentResult:
    label = way if seg.scheme.realize == BY_PLAN else f"{way} rebalance"
    phase = f"{label} M={seg.m}" if seg.m else label
    start = math.ceil(time.time()) + 1
    live.watch(f"{phase}: before the move", start + opts.before_s, session.series, echo)
    pids_before = worker_pids(session.spec, session.topo_id)
    mover = (PlanMover(session.client, session.topology, session.topo_id, DECISION_TIMEOUT_S)
             if seg.scheme.realize == BY_PLAN else RebalanceMover(session.rest, session.topo_id, REBALANCE_WAIT_S))
    record = session.move(seg, mover, random.Random(f"demo:{seg.m}"))   # str seeds: stable across runs
    what = f"{len(record.get('moves', []))} executor(s)" if seg.m else "rebalance"
    echo(f"[{phase}] {what}: {record.get('decision')}"
         + (f" ({record['reason'][:160]})" if record.get("reason") and record.get("decision") != "applied" else ""))
    live.watch(f"{phase}: after the move", start + opts.before_s + opts.after_s, session.series, echo)
    pids_after = worker_pids(session.spec, session.topo_id)
    restarted = sorted(s for s, pid in pids_after.items() if pids_before.get(s) not in (None, pid))
    # A rebalance may place a worker on a slot the topology did not use before: a new JVM too.
    restarted += sorted(set(pids_after) - set(pids_before))
    return SegmentResult(label, seg.m, start, record, restarted)


APPLIED = ("applied", "success")   # the plan scheduler's word, and the rebalance reply's


def table_rows(results: list[SegmentResult], opts: DemoOptions) -> list[dict]:
    """The table's rows, each with whether the change was applied at all (and if not, why)."""
    return [move_table.row(r.way, r.m, r.rows, r.move_ts, int(opts.after_s), opts.rate, len(r.restarted))
            | {"applied": r.move.get("decision") in APPLIED, "recovered_before": r.recovered_before,
               "not_applied_reason": None if r.move.get("decision") in APPLIED
               else f"{r.move.get('decision')}: {r.move.get('reason') or ''}".strip(": ")}
            for r in results]


def timelines(results: list[SegmentResult]) -> list[dict]:
    """Per segment: seconds relative to the move, acked/s, p99 latency (None without acks)."""
    out = []
    for r in results:
        move_second = int(r.move_ts)
        out.append({"way": r.way, "m": r.m, "t": [row.ts - move_second for row in r.rows],
                    "acked": [row.acked for row in r.rows],
                    "latency_p99_ms": [row.latency_p99_ms if row.latency_n else None for row in r.rows]})
    return out
