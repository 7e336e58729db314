"""Runs the state-size benchmark: per repetition and way a fresh local cluster (2 nodes x 4 slots), and on
it one statesize-java topology per state size in turn: placed (placing.layout), warmed up, its first keep
executor moved to the spare worker and back every period, the feed stopped and every tuple acked, then
the kept counts checked against the input and the measurements read from the series and event files.
The cluster goes down at the end whatever happened; the JSON is rewritten after every run."""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

from pycontrol import zk
from pycontrol.bench.migration import machine
from pycontrol.bench.migration.census import NotStock, agent_census, check_stock
from pycontrol.bench.migration.measures import dense_seconds, move_measures
from pycontrol.bench.migration.realize import ExecutorComponents
from pycontrol.bench.migration.runner import cluster_spec
from pycontrol.bench.state_size import design, measures, placing
from pycontrol.bench.waiting import sleep_until, wait_for
from pycontrol.cluster import manager, ui_token
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.secrets import cluster_zk_auth
from pycontrol.cluster.spec import ClusterSpec
from pycontrol.errors import UserError
from pycontrol.migration.events import first
from pycontrol.migration.migrate import wait_decision, write_plan
from pycontrol.migration.observe import slot_events, worker_pids
from pycontrol.profiling.trials import RateFile
from pycontrol.storm.assignment import read_assignment
from pycontrol.storm.rest import RestError
from pycontrol.wire.executor import ExecutorId
from pycontrol.wire.plan_document import parse_target
from pycontrol.workloads import locate, outputs, series
from pycontrol.workloads.settle import MAX_P50_MS, settled
from pycontrol.workloads.submit import submit_workload

WORKLOAD = "statesize-java"
WORKERS = 4               # spouts, two keep tasks, a spare (placing.py)
SENTENCES = 40
SETTLE_TIMEOUT_S = 300
DRAIN_TIMEOUT_S = 240


def input_lines() -> list[str]:
    return [f"sentence {i:02d} of the state size benchmark" for i in range(SENTENCES)]


def settings(opts: design.Options, way: design.Way, size: int, input_file: Path, rate_file: Path,
             state_dir: Path) -> list[str]:
    out = [f"workload.input={input_file}", f"workload.rate.schedule={rate_file}", f"workload.rate={opts.rate}",
           f"workload.state.bytes={size}", f"workload.keep.kind={way.keep_kind}", f"topology.workers={WORKERS}",
           f"topology.acker.executors={WORKERS}", "topology.message.timeout.secs=30",
           # after worker.childopts on the worker's command line, so this -Xmx is the one the JVM takes
           f"topology.worker.childopts=-Xmx{design.worker_heap_mb(size)}m",
           # the handoff refuses snapshots over its limit; this benchmark's largest must fit
           f"nonstop.migration.state.max.bytes={max(64 << 20, 2 * size)}"]
    if way.keep_kind == "stateful":
        out += [f"topology.state.provider={design.FILE_PROVIDER}", f"nonstop.file.state.dir={state_dir}",
                "topology.state.checkpoint.interval.ms=1000"]
    return out


class SizeRun:
    """One topology of one state size on a running cluster."""

    def __init__(self, spec: ClusterSpec, client, opts: design.Options, way: design.Way, size: int, home: Path,
                 echo: Callable[[str], None]):
        self.spec, self.client, self.opts, self.way, self.size, self.echo = spec, client, opts, way, size, echo
        self.layout_dirs = Layout(spec.home)
        self.rest = ui_token.rest_client(spec)
        self.name = f"state-{way.name}-{design.size_label(size).lower()}"
        self.rate = RateFile(home / f"{self.name}.rate")
        self.input = home / "sentences.txt"
        self.topo_id: str | None = None

    def rows(self) -> list[series.Second]:
        return series.read_series(locate.artifact_dirs(self.layout_dirs.logs, self.topo_id))

    def run(self) -> dict:
        self.input.write_text("\n".join(input_lines()) + "\n", encoding="ascii")
        self.rate.set(0)                  # silent until placed: a relaunched spout must not lose items
        # A directory of its own: a cluster home is reused by the next repetition, whose topology of the same
        # name must not find this one's checkpoints.
        state_dir = self.spec.home / "state" / f"{self.name}-{time.time_ns()}"
        submit_workload(WORKLOAD, self.name, settings(self.opts, self.way, self.size, self.input, self.rate.path,
                                                      state_dir), self.layout_dirs.control_conf_dir)
        try:
            self.topo_id = wait_for(f"{self.name} listed", lambda: self._topology_id(), 120)
            lay = self._place()
            self.rate.set(self.opts.rate)
            warm = self._settle()
            self.census = agent_census(self.spec)     # while the workers run
            if not self.way.nonstop:
                check_stock(self.way.name, self.census)
            moves = self._moves(lay)
            self.rate.set(0)
            totals = self._drained()
            return self._measure(lay, warm, moves, totals)
        finally:
            self._kill()

    def _topology_id(self) -> str | None:
        try:
            return self.rest.topology_id(self.name)
        except RestError:
            return None

    def _place(self) -> placing.Layout:
        """Storm's placement, then the plan that isolates the spouts and the keep tasks (placing.layout)."""
        components = ExecutorComponents(self.rest, self.topo_id)

        def known():
            try:
                a = {str(e): s for e, s in read_assignment(self.client, self.topo_id).items()}
            except UserError:  # listed by the UI before Nimbus wrote its first assignment
                return None
            c = components.refresh()
            return (a, c) if a and len(set(a.values())) == WORKERS and set(a) <= set(c) else None
        assignment, comps = wait_for(f"{self.name}: {WORKERS} workers and every executor's component", known, 300, 3)
        lay = placing.layout(assignment, comps)
        if lay.plan:
            before = worker_pids(self.spec, self.topo_id)
            placed = self._apply(lay.plan, "initial placement")
            if self.way.nonstop:
                # The feed starts only once every moved executor's old instance has stopped: an acker's
                # instance stopped by its lazy kill takes the tuple trees it started with it (replayed later).
                wait_for(f"{self.name}: the moved executors' old instances stopped", lambda: all(
                    first(slot_events(self.spec, assignment[e]), "stopped", placed["t0_ms"], executor=e)
                    for e in lay.plan), 120, 0.5)
            else:
                # Stock Storm relaunches every worker whose executors changed; the feed may start only once
                # the spouts' new worker runs (an old spout emitting into a dying worker would lose items).
                # (the layout leaves no worker empty, so every changed one runs again)
                changed = {assignment[e] for e in lay.plan} | set(lay.plan.values())
                wait_for(f"{self.name}: the changed workers relaunched", lambda: all(
                    worker_pids(self.spec, self.topo_id, {s}).get(s) not in (None, before.get(s)) for s in changed),
                    300, 2)
        return lay

    def _apply(self, plan: dict[str, str], what: str) -> dict:
        t0_ms = time.time() * 1000
        _, version = write_plan(self.client, self.name, {ExecutorId.parse(e): parse_target(s) for e, s in plan.items()})
        d = wait_decision(self.client, self.name, self.topo_id, version, 60)
        if d.status != "applied":
            raise UserError(f"{self.name}: the {what} was not applied: {d.status} ({d.reason})")
        wait_for(f"{self.name}: Nimbus's assignment shows the {what}",
                 lambda: all(str(e) not in plan or plan[str(e)] == s
                             for e, s in read_assignment(self.client, self.topo_id).items()), 60, 0.2)
        return {"t0_ms": round(t0_ms), "plan_version": version, "decision": d.status}

    def _settle(self) -> dict:
        t0 = time.monotonic()
        try:
            # Storm's stateful bolt acks at its next commit (every second): its latency is that long by design.
            limit = None if self.way.keep_kind == "stateful" else MAX_P50_MS
            wait_for(f"{self.name} steady at {self.opts.rate}/s",
                     lambda: settled(self.rows(), time.time(), self.opts.rate, max_p50_ms=limit), SETTLE_TIMEOUT_S, 2)
            return {"settled": True, "after_s": round(time.monotonic() - t0, 1)}
        except UserError:
            return {"settled": False, "after_s": round(time.monotonic() - t0, 1)}

    def _moves(self, lay: placing.Layout) -> list[dict]:
        """The first keep executor to the spare and back, one move per period (none in the first one)."""
        start = math.ceil(time.time())
        self.start_ts = start
        here, out = lay.keeps[0], []
        for i in range(self.opts.moves):
            sleep_until(start + (i + 1) * self.opts.period_s)
            target = placing.next_target(here, lay)
            rec = self._apply({lay.moved: target}, f"move {i + 1}") | {"from": here, "to": target}
            self.echo(f"    {self.name}: move {i + 1} {here} -> {target}")
            out.append(rec)
            here = target
        sleep_until(start + (self.opts.moves + 1) * self.opts.period_s)
        self.end_ts = math.ceil(time.time())
        return out

    def _drained(self) -> series.Totals:
        """After the feed stopped: until nothing more is emitted and every emitted item is acked."""
        drain = series.Drain()
        return wait_for(f"{self.name}: every item acked", lambda: drain.check(self.rows()), DRAIN_TIMEOUT_S, 2)

    def _counts(self, expected) -> dict:
        """The keep tasks' newest snapshots (written on a 1 s tick), until they equal the input's counts or
        30 s have passed: then how far off they are."""
        dirs = locate.artifact_dirs(self.layout_dirs.logs, self.topo_id)
        deadline = time.monotonic() + 30
        while True:
            check = measures.counts_check(outputs.read_counts(dirs, placing.KEEP).words, expected)
            if check["exact"] or time.monotonic() > deadline:
                return check
            time.sleep(1)

    def _measure(self, lay: placing.Layout, warm: dict, moves: list[dict], totals: series.Totals) -> dict:
        rows = dense_seconds(self.rows(), self.start_ts, self.end_ts - self.start_ts)
        task = ExecutorId.parse(lay.moved).start
        times = [m["t0_ms"] for m in moves]
        for i, m in enumerate(moves):
            until = int(times[i + 1] // 1000) if i + 1 < len(times) else self.end_ts
            m["measures"] = move_measures(rows, m["t0_ms"], int(m["t0_ms"] // 1000) - self.opts.period_s // 2, until)
            if self.way.nonstop:
                m["handoff"] = measures.handoff_breakdown(slot_events(self.spec, m["from"]),
                                                          slot_events(self.spec, m["to"]), task, m["t0_ms"])
        # Failures and replays of the warm-up (before the first period of moves began) are not the moves'
        # doing: a live move of the checkpoint spout in the initial placement, e.g., stalls Storm's checkpoints.
        warm_rows = series.totals([r for r in self.rows() if r.ts < self.start_ts])
        counts = self._counts(measures.expected_counts(input_lines(), totals.emitted))
        self.echo(f"    {self.name}: {totals.emitted} emitted, {totals.failed - warm_rows.failed} failed and "
                  f"{totals.replayed - warm_rows.replayed} replayed from the moves' first period on "
                  f"({warm_rows.failed} failed in the warm-up); "
                  f"counts {'exact' if counts['exact'] else 'NOT exact'} ({counts['counted']} of {counts['expected']})")
        return {"way": self.way.name, "state_bytes": self.size, "topology": self.name, "warm_up": warm,
                "agent_census": self.census,
                "layout": {"spouts": lay.spouts, "keeps": list(lay.keeps), "spare": lay.spare, "moved": lay.moved},
                "emitted": totals.emitted, "acked": totals.acked,
                "failed": totals.failed - warm_rows.failed, "replayed": totals.replayed - warm_rows.replayed,
                "warm_up_failed": warm_rows.failed, "warm_up_replayed": warm_rows.replayed,
                "counts": counts, "moves": moves,
                "summary": measures.run_summary(moves)}

    def _kill(self) -> None:
        if self.topo_id is None:
            return
        try:
            self.rest.kill(self.topo_id, 0)
            wait_for(f"{self.name} gone", lambda: self._topology_id() is None, 120, 2)
        except (RestError, UserError) as e:
            self.echo(f"    {self.name}: could not kill it: {e}")


def run_way(way: design.Way, rep: int, opts: design.Options, home: Path, port_base: int,
            echo: Callable[[str], None]) -> list[dict]:
    """Every size on one fresh cluster of this way, with the machine's records around each run."""
    # Each repetition's cluster home (its logs) is kept: a run that went wrong can be read afterwards.
    spec = cluster_spec(way.cluster, home / f"rep{rep + 1}", port_base)
    echo(f"[{way.name}] repetition {rep + 1}: a fresh cluster in {spec.home}")
    manager.up(spec, timeout_s=300, echo=lambda msg: echo(f"[{way.name}] {msg}"))
    client = zk.connect(f"{spec.control_host}:{spec.zk_port}", auth=cluster_zk_auth(spec.home))
    out = []
    try:
        for size in opts.sizes:
            start, waited = machine.wait_quiet()
            r = SizeRun(spec, client, opts, way, size, spec.home, echo)
            try:
                rec = r.run()
            except NotStock:
                raise
            except (UserError, RuntimeError, OSError) as e:
                echo(f"[{way.name}] {design.size_label(size)} FAILED: {e}")
                rec = {"way": way.name, "state_bytes": size, "error": str(e), "moves": []}
            rec |= {"repetition": rep, "busy_start": start["busy"], "worker_heap_mb": design.worker_heap_mb(size),
                    "machine": {"start": start, "end": machine.now(), "waited_for_quiet_s": waited}}
            out.append(rec)
    finally:
        client.stop()
        client.close()
        echo(f"[{way.name}] {manager.down(spec.home)}")
    return out


def run_benchmark(opts: design.Options, home: Path, port_base: int, out: Path,
                  echo: Callable[[str], None]) -> dict:
    started, load_before = time.time(), os.getloadavg()
    runs: list[dict] = []

    def save() -> dict:
        doc = {"benchmark": "state size vs move: nonstop handoff against Storm's restart from a checkpoint",
               "command": opts.command(),
               "when": datetime.fromtimestamp(started, timezone.utc).isoformat(timespec="seconds"),
               "elapsed_s": round(time.time() - started),
               "machine": {"cpus": os.cpu_count(), "loadavg_before": [round(x, 2) for x in load_before],
                           "loadavg_after": [round(x, 2) for x in os.getloadavg()]},
               "ways": {w.name: w.about for w in opts.ways}, "workload": WORKLOAD,
               "options": {"sizes": list(opts.sizes), "repeat": opts.repeat, "rate": opts.rate,
                           "moves": opts.moves, "period_s": opts.period_s, "workers": WORKERS},
               "summary": measures.summarize([r for r in runs if "error" not in r]), "runs": runs}
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(doc, indent=1) + "\n")
        return doc

    for rep, way in design.run_order(opts):
        runs.extend(run_way(way, rep, opts, home, port_base, echo))
        save()
    return save()
