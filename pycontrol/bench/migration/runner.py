"""Runs the migration benchmark: for each planned cluster (schemes.plan_runs) a fresh local cluster,
one submission of the Java word count at a fixed rate, a warm-up, then its segments back to back,
each `duration_s` long with the driver's moves every `period_s`; then the measurements are read
(series files, migration events, worker pids) and the cluster is taken down, whatever happened."""

from __future__ import annotations

import logging
import math
import os
import random
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

import psutil
from kazoo.exceptions import KazooException

from pycontrol import zk
from pycontrol.bench.migration import machine, report
from pycontrol.bench.migration.census import NotStock, agent_census, check_stock
from pycontrol.bench.migration.driver import apply_moves, redeploy
from pycontrol.bench.migration.effect import move_effect, sending_slots
from pycontrol.bench.migration.measures import (dense_seconds, percentiles, segment_move_measures, segment_summary,
                                                worst_of_moves)
from pycontrol.bench.migration.realize import (MOVABLE_COMPONENTS, MOVABLE_WITH_SPOUTS, ExecutorComponents, PlanMover,
                                               RebalanceMover, read_placement)
from pycontrol.bench.waiting import sleep_until, wait_for
from pycontrol.bench.migration.schemes import (BASELINE, BY_PLAN, BY_REBALANCE, ClusterRun, Options, Segment,
                                               plan_runs, repetitions)
from pycontrol.cluster import manager, ui_token
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.secrets import cluster_zk_auth
from pycontrol.workloads.settle import settled
from pycontrol.cluster.spec import ClusterSpec, make_spec
from pycontrol.errors import UserError
from pycontrol.migration.observe import move_timeline, slot_events, worker_pids
from pycontrol.storm.assignment import read_assignment
from pycontrol.storm.rest import RestError, StormRest
from pycontrol.workloads import locate, series, stability
from pycontrol.workloads.series import Second
from pycontrol.workloads.submit import submit_workload

log = logging.getLogger(__name__)

WORKLOAD = "wordcount-java"
WORKERS = 8
NODES, SLOTS = 2, 4
WARMUP_TIMEOUT_S = 600
# storm.yaml of every benchmark cluster. On a loaded 2-core box 8 worker JVMs can take minutes to start:
# Storm's 120 s start timeout would kill and relaunch them in a loop, and its BlacklistScheduler (always
# wrapped around storm.scheduler) would count the late workers as bad slots and blacklist the whole
# supervisor for 30 min, after which every plan naming its slots is rejected ("slots: []"); and Nimbus would
# reassign executors whose heartbeats are late (30 s), and supervisors would kill such workers, moving
# and restarting them on their own in the middle of a run.
CLUSTER_CONF = {"supervisor.worker.start.timeout.secs": 300, "blacklist.scheduler.tolerance.count": 1_000_000,
                "nimbus.task.timeout.secs": 120, "supervisor.worker.timeout.secs": 120}
FLUSH_WAIT_S = 4      # the spout writes each second's line shortly after it ends


def safe_name(name: str) -> str:
    """Scheme names as directory and topology names ("nonstop+" -> "nonstop-plus", "tw0.3" -> "tw0p3":
    Storm refuses topology names with '/', '.', ':' or '\\')."""
    return name.replace("+", "-plus").replace(".", "p")


def cluster_spec(run: ClusterRun, home: Path, port_base: int) -> ClusterSpec:
    return make_spec(home / safe_name(run.name), nodes=NODES, slots=SLOTS, port_base=port_base,
                     migration=run.migration, extra_conf={**CLUSTER_CONF, **dict(run.conf)})


class ClusterSession:
    """One fresh cluster and one submission of the word count on it."""

    def __init__(self, run: ClusterRun, opts: Options, spec: ClusterSpec, echo: Callable[[str], None],
                 settings: tuple[str, ...] | None = None, topology: str | None = None,
                 on_warm_up_poll: Callable[[list[Second], float], None] | None = None):
        self.run, self.opts, self.spec, self.echo = run, opts, spec, echo
        self.layout = Layout(spec.home)
        self.rest = ui_token.rest_client(spec)
        self.topology = topology or f"bench-{safe_name(run.name)}"
        self.settings = settings or (f"workload.rate={opts.rate}", f"topology.workers={WORKERS}")
        # Called with the series and the seconds left at every warm-up poll (a live display).
        self.on_warm_up_poll = on_warm_up_poll
        self.topo_id: str | None = None
        self.client = None
        self.components: ExecutorComponents | None = None

    def series(self) -> list[Second]:
        return series.read_series(locate.artifact_dirs(self.layout.logs, self.topo_id))

    def start_workload(self) -> dict:
        submit_workload(WORKLOAD, self.topology, list(self.settings), self.layout.control_conf_dir)
        t0 = time.monotonic()
        self.topo_id = wait_for(f"{self.topology} listed", lambda: self._topology_id(), 120)
        warm = self._warm_up(t0)
        if any(s.scheme.realize == BY_PLAN for s in self.run.segments):
            self.client = zk.connect(f"{self.spec.control_host}:{self.spec.zk_port}",
                                     auth=cluster_zk_auth(self.spec.home))
            self.components = ExecutorComponents(self.rest, self.topo_id)
            warm["executors_identified"] = self._identify_executors()
        return warm

    def _identify_executors(self, timeout_s: float = 180) -> dict:
        """Until the UI REST API has named the component of every executor (or the time is up: the
        executors not named yet simply do not move)."""
        deadline = time.monotonic() + timeout_s
        while True:
            total = len(read_assignment(self.client, self.topo_id))
            known = len(self.components.refresh())
            if known >= total or time.monotonic() > deadline:
                return {"known": known, "total": total}
            time.sleep(3)

    def _topology_id(self) -> str | None:
        try:
            return self.rest.topology_id(self.topology)
        except RestError:
            return None

    def _warm_up(self, t0: float) -> dict:
        """Until the workload has settled at the rate (workloads.settle: 5 whole seconds in a row, each
        acking >= 90 % of it with median latency under a second), at least 15 s after the first ack (JIT,
        connections); the run goes on if it never happens."""
        first_ack = None
        deadline = time.monotonic() + WARMUP_TIMEOUT_S
        while time.monotonic() < deadline:
            time.sleep(2)
            rows = self.series()
            if self.on_warm_up_poll is not None:
                self.on_warm_up_poll(rows, deadline - time.monotonic())
            if first_ack is None and any(r.acked for r in rows):
                first_ack = time.monotonic()
            if (first_ack is not None and time.monotonic() - first_ack >= 15
                    and settled(rows, time.time(), self.opts.rate)):
                return {"settled": True, "after_submit_s": round(time.monotonic() - t0, 1)}
        return {"settled": False, "after_submit_s": round(time.monotonic() - t0, 1)}

    def run_segment(self, seg: Segment) -> dict:
        """The segment's moves at their offsets; measurements are read later, from the files."""
        start = math.ceil(time.time()) + 1
        sleep_until(start)
        pids_before = worker_pids(self.spec, self.topo_id)
        rng = random.Random(f"{self.opts.seed}:{seg.m}")   # str seeds are stable across Python runs
        mover = (PlanMover(self.client, self.topology, self.topo_id, min(20.0, self.opts.period_s / 2))
                 if seg.scheme.realize == BY_PLAN else
                 RebalanceMover(self.rest, self.topo_id, self.opts.rebalance_wait_s)
                 if seg.scheme.realize == BY_REBALANCE else None)
        moves = []
        for offset in self.opts.move_offsets() if mover else []:
            sleep_until(start + offset)
            rec = self.move(seg, mover, rng)
            rec["offset_s"] = round(rec.get("t0_ms", time.time() * 1000) / 1000 - start, 3)
            moves.append(rec)
            why = f"  ({rec['reason'][:120]})" if rec.get("reason") and rec.get("decision") != "applied" else ""
            self.echo(f"    t={offset:>4} s  {rec.get('decision')}  {len(rec.get('moves', []))} executor(s){why}")
        sleep_until(start + self.opts.duration_s)
        pids_after = worker_pids(self.spec, self.topo_id)
        # A worker killed and not relaunched yet by the segment's end (its pid file still names the old
        # JVM) was restarted all the same.
        restarted = sorted(s for s, pid in pids_before.items()
                           if pids_after.get(s) not in (None, pid) or not psutil.pid_exists(pid))
        return {"scheme": seg.scheme.name, "m": seg.m, "cluster": self.run.name, "start_ts": start,
                "duration_s": self.opts.duration_s, "moves": moves, "restarted_workers": restarted,
                "worker_pids_before": pids_before}

    def move(self, seg: Segment, mover, rng: random.Random) -> dict:
        """One re-deployment of seg.m executors (or a rebalance), recorded; a failure is recorded, not raised."""
        if isinstance(mover, RebalanceMover):
            return mover.apply()
        try:
            tp = read_placement(self.client, self.topo_id, self.components,
                                MOVABLE_WITH_SPOUTS if self.opts.move_spouts else MOVABLE_COMPONENTS)
            chosen = redeploy(tp.placement, tp.slots, tp.movable, seg.m, rng)
        except UserError as e:  # no assignment to read, or no even re-deployment: this period moves nothing
            return {"t0_ms": round(time.time() * 1000), "decision": "skipped", "reason": str(e), "moves": []}
        except KazooException as e:
            return {"t0_ms": round(time.time() * 1000), "decision": "failed", "reason": repr(e), "moves": []}
        try:
            record = mover.apply(chosen)
        except KazooException as e:  # ZooKeeper trouble: recorded, the run goes on
            return {"t0_ms": round(time.time() * 1000), "decision": "failed", "reason": repr(e), "moves": []}
        # Who must route to each moved executor's new home: workers of its upstream components, afterwards.
        after, known = apply_moves(tp.placement, chosen), self.components.known
        for rec, m in zip(record.get("moves", []), chosen):
            rec["component"] = known.get(m.executor)
            rec["senders"] = sending_slots(rec["component"] or "", after, known)
        return record

    def plan_to_effect(self, moves: list[dict]) -> dict:
        """Per moved executor, from the workers' event files (nonstop schemes only): plan znode written ->
        running on its target with source and target routing to it (`ms`), and -> every worker sending to
        it routing to its new home, matched by node plan version (`all_senders`, pycontrol.bench.migration.effect)."""
        effects, missing = [], 0
        all_effects, each = [], []
        events: dict[str, list[dict]] = {}

        def of(slot: str) -> list[dict]:
            if slot not in events:
                events[slot] = slot_events(self.spec, slot)
            return events[slot]

        for rec in moves:
            if rec.get("decision") != "applied":
                continue
            for m in rec["moves"]:
                tl = move_timeline(of(m["from"]), of(m["to"]), m["executor"], rec["t0_ms"])
                if tl is None:
                    missing += 1
                else:
                    effects.append(round(tl.effect_ms, 1))
                slots = {m["from"], m["to"], *m.get("senders", [])}
                eff = move_effect({s: of(s) for s in slots}, m["executor"], m["from"], m["to"],
                                  m.get("senders", []), rec["t0_ms"])
                each.append({"executor": m["executor"], "component": m.get("component"), "ms": eff["ms"],
                             "workers": len(eff["workers"]), "missing": eff["missing"],
                             "via_plan_seen": sorted(s for s, p in eff["workers"].items()
                                                     if p and p["via"] == "plan_seen")})
                if eff["ms"] is not None:
                    all_effects.append(eff["ms"])
        return {"ms": percentiles(effects), "missing": missing, "each_ms": sorted(effects),
                "all_senders": {"ms": percentiles(all_effects), "each_ms": sorted(all_effects),
                                "missing": sum(1 for e in each if e["ms"] is None), "moves": each}}

    def stop(self) -> None:
        if self.client is not None:
            self.client.stop()
            self.client.close()
        if self.topo_id is not None:
            try:
                self.rest.kill(self.topo_id, 0)
            except RestError as e:
                log.warning("could not kill %s: %s", self.topo_id, e)


def run_cluster(run: ClusterRun, opts: Options, home: Path, port_base: int, echo: Callable[[str], None],
                settings: tuple[str, ...] | None = None) -> list[dict]:
    """Every segment of one cluster run on a fresh cluster, taken down at the end whatever happened."""
    spec = cluster_spec(run, home, port_base)
    echo(f"[{run.name}] starting a fresh cluster in {spec.home}")
    manager.up(spec, timeout_s=300, echo=lambda msg: echo(f"[{run.name}] {msg}"))
    try:
        return measure_on(spec, run, opts, echo, settings)
    finally:
        echo(f"[{run.name}] {manager.down(spec.home)}")


def measure_on(spec: ClusterSpec, run: ClusterRun, opts: Options, echo: Callable[[str], None],
               settings: tuple[str, ...] | None = None) -> list[dict]:
    """One submission of the word count on a running cluster: the agent census (a stock run that finds
    the agent raises NotStock), the run's segments, then per segment its per-second rows (dense), finer
    per-move measures and plan-to-effect times. The topology is killed at the end."""
    session = ClusterSession(run, opts, spec, echo, settings=settings)
    try:
        warm = session.start_workload()
        echo(f"[{run.name}] {WORKLOAD} at {opts.rate}/s {'settled' if warm['settled'] else 'NOT settled'} "
             f"{warm['after_submit_s']} s after submission")
        census = agent_census(spec)
        echo(f"[{run.name}] {census['with_agent']} of the cluster's {census['jvms']} JVMs load the migration agent")
        if not run.migration:
            check_stock(run.name, census)
        results = []
        for seg in run.segments:
            echo(f"[{run.name}] segment {seg.scheme.name}" + (f" M={seg.m}" if seg.m else "")
                 + f": {opts.duration_s} s")
            results.append({**session.run_segment(seg), "warm_up": warm, "agent_census": census})
        time.sleep(FLUSH_WAIT_S)
        rows = session.series()
        for r in results:
            r["rows"] = dense_seconds(rows, r["start_ts"], r["duration_s"])
            r["per_move"] = segment_move_measures(r["rows"], r["moves"], r["start_ts"], r["duration_s"],
                                                  opts.period_s)
            r["moves_summary"] = worst_of_moves(r["per_move"])
        for seg, r in zip(run.segments, results):
            r["plan_to_effect"] = session.plan_to_effect(r["moves"]) if seg.scheme.nonstop else None
        return results
    finally:
        session.stop()


def baseline_verdict(rows: list[Second], rate: int) -> dict:
    """Was the rate sustainable without migration? (The benchmark needs a rate below saturation.)"""
    v = stability.judge(rows, rate, warmup_s=0, min_seconds=max(10, len(rows) // 2))
    return {"sustainable": v.sustainable, "reason": v.reason, "acked_rate": v.acked_rate,
            "latency_slope_ms_per_s": v.latency_slope_ms_per_s}


def baseline_throughputs(segments: list[dict]) -> dict[int, float]:
    """Each repetition's baseline throughput (its last baseline run that did not start busy, else its last)."""
    out: dict[int, tuple[bool, float]] = {}
    for s in segments:
        if s["scheme"] != BASELINE.name:
            continue
        rep, quiet = s.get("repetition", 0), not s.get("busy_start", False)
        if rep not in out or quiet or not out[rep][0]:
            out[rep] = (quiet, segment_summary(s["rows"], None)["throughput_mean"])
    return {rep: thr for rep, (_, thr) in out.items()}


def summarize(segments: list[dict], by_repetition: dict[int, float]) -> float | None:
    """Every segment's summary against its own repetition's baseline, or the mean of all baselines when
    its repetition has none (yet: the rotated order may run the baseline later). Returns that mean."""
    usable = [t for t in by_repetition.values() if t > 0]
    pooled = round(sum(usable) / len(usable), 2) if usable else None
    for s in segments:
        own = by_repetition.get(s.get("repetition", 0))
        base = own if own else pooled
        s["summary"] = segment_summary(s["rows"], base)
        s["baseline_throughput_used"] = base
    return pooled


def measured_run(run: ClusterRun, rep: int, opts: Options, home: Path, port_base: int,
                 echo: Callable[[str], None], repeat_of_busy: bool = False) -> list[dict]:
    """One cluster run with the machine's records at its start and end. A busy machine is waited for
    (bounded) first; a run that still starts busy is flagged `busy_start`."""
    start, waited = machine.wait_quiet()
    if waited:
        echo(f"[{run.name}] waited {waited:.0f} s for the load average to drop ({start['loadavg'][0]} now, "
             f"{start['cpus']} CPUs)")
    if start["busy"]:
        echo(f"[{run.name}] starts on a busy machine (1-min load {start['loadavg'][0]}): flagged busy_start")
    results = run_cluster(run, opts, home, port_base, echo)
    end = machine.now()
    for r in results:
        r.update(repetition=rep, busy_start=start["busy"], repeat_of_busy=repeat_of_busy,
                 machine={"start": start, "end": end, "waited_for_quiet_s": waited})
    return results


def run_benchmark(opts: Options, home: Path, port_base: int, out_dir: Path,
                  echo: Callable[[str], None]) -> tuple[dict, list[Path]]:
    """Every planned cluster run, `opts.repeat` times in rotated orders; a run that started busy is run
    once more right after. The JSON is rewritten after each run, so a crash keeps what was measured. A
    failing run is recorded and the others go on, except a stock run that finds the agent (NotStock)."""
    runs = plan_runs(opts)
    schemes = list({seg.scheme.name: seg.scheme for run in runs for seg in run.segments}.values())
    segments: list[dict] = []
    failures: list[dict] = []
    verdicts: dict[int, dict] = {}
    started, load_before = time.time(), os.getloadavg()

    def baseline_doc() -> dict | None:
        by_rep = baseline_throughputs(segments)
        pooled = summarize(segments, by_rep)
        if pooled is None:
            return None
        first = verdicts[min(verdicts)] if verdicts else None
        return {"throughput_mean": pooled, "throughput_by_repetition": by_rep, "verdict": first,
                "verdict_by_repetition": verdicts}

    def save() -> list[Path]:
        extra = {"when": datetime.fromtimestamp(started, timezone.utc).isoformat(timespec="seconds"),
                 "elapsed_s": round(time.time() - started),
                 "machine": {"cpus": os.cpu_count(), "loadavg_before": [round(x, 2) for x in load_before],
                             "loadavg_now": [round(x, 2) for x in os.getloadavg()]},
                 "failures": failures}
        doc = report.document(opts, schemes, segments, baseline_doc(), extra, CLUSTER_CONF)
        return [report.write_json(out_dir, doc)]

    queue = [(rep, run, False) for rep, run in repetitions(runs, opts.repeat)]
    while queue:
        rep, run, repeat_of_busy = queue.pop(0)
        echo(f"[{run.name}] repetition {rep + 1} of {opts.repeat}" + (" (again: the last one started busy)"
                                                                      if repeat_of_busy else ""))
        try:
            results = measured_run(run, rep, opts, home, port_base, echo, repeat_of_busy)
        except NotStock:
            raise
        except (UserError, RuntimeError, OSError) as e:
            echo(f"[{run.name}] FAILED: {e}")
            failures.append({"cluster": run.name, "repetition": rep, "error": str(e)})
            save()
            continue
        base = next((r for r in results if r["scheme"] == BASELINE.name), None)
        if base is not None:
            verdicts[rep] = baseline_verdict(base["rows"], opts.rate)
            if not verdicts[rep]["sustainable"]:
                echo(f"WARNING: {opts.rate}/s is not sustainable here without migration "
                     f"({verdicts[rep]['reason']}); choose a lower --rate for meaningful degradation numbers")
        segments.extend(results)
        if results and results[0]["busy_start"] and not repeat_of_busy:
            queue.insert(0, (rep, run, True))
        save()
    baseline = baseline_doc()
    if baseline is None:
        raise UserError("no baseline run acked anything: see the stock cluster's logs under "
                        f"{home / 'stock' / 'logs'}" + (f" (failures: {failures})" if failures else ""))
    written = save() + report.plots(out_dir, segments, opts, baseline["throughput_mean"])
    return report.document(opts, schemes, segments, baseline, {}, CLUSTER_CONF), written
