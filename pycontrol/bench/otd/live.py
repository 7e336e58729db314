"""One OTD run on a fresh local cluster: submit a word count, let it run under Storm's default
placement with the controller only observing (policy plan-only), then the controller with policy otd
moving executors live. Every controller cycle's model is reduced to a Sample; applied moves and the
spout's per-second throughput and latency are kept. The cluster is taken down at the end unless
`keep` (then only the topology is killed and the cluster stays for inspection)."""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from pycontrol import zk
from pycontrol.bench.otd.samples import Sample, sample_of
from pycontrol.cluster import manager, processes, ui_token
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.secrets import cluster_zk_auth
from pycontrol.cluster.spec import ClusterSpec
from pycontrol.controller import policy as policy_mod
from pycontrol.controller import snapshot
from pycontrol.controller.clock import SystemClock
from pycontrol.controller.decisions import APPLIED, ControllerDecisionRecord
from pycontrol.controller.prom import ControllerMetrics, serve
from pycontrol.controller.source import Collected, ModelSource
from pycontrol.errors import UserError
from pycontrol.storm import placement
from pycontrol.storm.rest import RestError, StormRest
from pycontrol.workloads import live_status, locate, series
from pycontrol.workloads.settle import settled
from pycontrol.workloads.submit import submit_workload

log = logging.getLogger(__name__)

# On a loaded 2-core box worker JVMs can take minutes to start; Storm's defaults would kill them in a
# loop, blacklist the supervisor, or reassign executors whose first or later heartbeats are late (which
# would move them on its own, before or during a run).
CLUSTER_CONF = {"supervisor.worker.start.timeout.secs": 600, "blacklist.scheduler.tolerance.count": 1_000_000,
                "nimbus.task.launch.secs": 600, "nimbus.task.timeout.secs": 180}
START_TIMEOUT_S = 900


@dataclass(frozen=True)
class Experiment:
    workload: str
    topology: str
    settings: tuple[str, ...]
    default_s: float                   # Storm's default placement, controller observing
    otd_s: float                       # controller with policy otd
    otd_params: dict[str, Any] = field(default_factory=dict)
    # Derive OTD's high/low CPU thresholds from the default phase's worker shares (mean x (1 +- band)):
    # a local cluster's "nodes" share one machine, so absolute thresholds mean little there.
    calibrate_band: float | None = None
    safety: dict[str, Any] = field(default_factory=lambda: {"max_moves_per_cycle": 1, "cooldown_s": 10,
                                                            "hysteresis_s": 120})
    cycle_s: float = 5.0
    warmup_s: float = 20.0
    # "plan-only" makes phase 2 a control: the same timeline with nothing moved, which measures how much
    # of a change between the phases is the run warming up (JIT, queues, caches) rather than OTD.
    second_policy: str = "otd"
    # When set (the offered sentences/s), the phases begin only once the workload has settled at this
    # rate (workloads.settle), waiting at most settle_max_s: a fixed wait is long enough on one run and
    # leaves the start-up backlog inside the measured phase on the next.
    settle_rate: float | None = None
    settle_max_s: float = 180.0
    # When set, this component's executors are first spread evenly over the nodes by live moves (before
    # the warm-up; balance.balanced_moves): the A/B benchmark's "ceiling" run, with plan-only after it.
    balance_component: str | None = None


@dataclass
class RunData:
    topology_id: str
    samples: list[Sample] = field(default_factory=list)
    shares: list[dict[str, float]] = field(default_factory=list)   # OTD's worker shares, per sample
    moves: list[dict] = field(default_factory=list)
    decisions: dict[str, int] = field(default_factory=dict)        # kind -> count
    phases: dict[str, tuple[float, float]] = field(default_factory=dict)
    seconds: list[dict] = field(default_factory=list)
    otd_params: dict[str, Any] = field(default_factory=dict)
    cycles: list[dict] = field(default_factory=list)               # every decision record, with its reason
    worker_cpus: dict[int, tuple[int, ...]] = field(default_factory=dict)  # slot port -> CPUs it may use
    settle: dict[str, Any] = field(default_factory=dict)           # {"settled": bool, "after_submit_s": s}
    initial_moves: list[dict] = field(default_factory=list)        # the ceiling run's balancing moves


# Nodes sharing the machine's CPUs: a worker this far above (below) the mean share seen under the default
# placement counts as high (low). One home for the demo and the benchmark.
CALIBRATION_BAND = 0.15


def calibrated_thresholds(shares: list[dict[str, float]], band: float) -> dict[str, float]:
    """high_cpu / low_cpu around the mean worker share seen: above-average workers count as high,
    below-average ones as low (OTD's case 1 relieves the first onto the second)."""
    vals = [v for s in shares for v in s.values()]
    if not vals:
        raise UserError("no worker CPU was measured under the default placement: cannot set OTD's thresholds")
    mean = sum(vals) / len(vals)
    high = min(0.99, round(mean * (1 + band), 4))
    return {"high_cpu": high, "low_cpu": round(min(high * 0.99, mean * (1 - band)), 4)}


class RecordingSource:
    """The controller's collect phase, keeping what each cycle saw."""

    def __init__(self, inner: ModelSource, topology: str, data: RunData):
        self.inner, self.topology, self.data = inner, topology, data
        self.phase = "default"

    def collect(self) -> Collected:
        got = self.inner.collect()
        for m in got.models:
            if m.name == self.topology and not m.errors and snapshot.placement(m):
                self.data.samples.append(sample_of(m, self.phase))
                self.data.shares.append(snapshot.worker_shares(m, count_background=False))
        return got


class RecordingSink:
    def __init__(self, data: RunData, echo: Callable[[str], None]):
        self.data, self.echo = data, echo

    def publish(self, records: list[ControllerDecisionRecord]) -> None:
        for r in records:
            self.data.decisions[r.kind] = self.data.decisions.get(r.kind, 0) + 1
            self.data.cycles.append({"at": r.at, "cycle": r.cycle, "policy": r.policy, "kind": r.kind,
                                     "reason": r.reason, "predicted_gain": r.predicted_gain,
                                     "suppressed": r.suppressed})
            if r.kind == APPLIED:
                for m in r.applied:
                    self.data.moves.append({"at": r.at, "cycle": r.cycle, "executor": m["executor"],
                                            "from_slot": m["from_slot"], "to_slot": m["to_slot"],
                                            "reason": m.get("reason") or r.reason,
                                            "predicted_gain": r.predicted_gain, "outcome": r.outcome})
                    self.echo(f"  move {m['executor']}: {m['from_slot']} -> {m['to_slot']} ({r.outcome})")


def wait_until(what: str, check: Callable[[], Any], timeout_s: float, poll_s: float = 2.0):
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            value = check()
        except RestError:
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise UserError(f"timed out after {timeout_s:.0f} s waiting for {what}")
        time.sleep(poll_s)


def _config(exp: Experiment, name: str, params: dict) -> policy_mod.ControllerConfig:
    return policy_mod.parse({"cycle_s": exp.cycle_s, "verify_timeout_s": 120,
                             "defaults": {"policy": "off"},
                             "topologies": {exp.topology: {"policy": name, "params": params,
                                                           "safety": exp.safety}}})


@contextlib.contextmanager
def cluster_session(spec: ClusterSpec, echo: Callable[[str], None], keep: bool = False) -> Iterator[None]:
    """The cluster is up inside the block and taken down after it (unless keep), whatever happened,
    Ctrl-C included."""
    per_node = "/".join(str(len(n.slot_ports)) for n in spec.node_specs)
    pins = f", pinned to CPUs {';'.join(','.join(map(str, c)) for c in spec.node_cpus)}" if spec.node_cpus else ""
    echo(f"bringing up {spec.nodes} nodes with {per_node} slots ({spec.network}"
         f"{', links ' + spec.link_bandwidth if spec.link_bandwidth else ''}{pins}) under {spec.home}")
    state = manager.up(spec, echo=echo)
    echo(f"cluster ready in {state.ready_after_s} s; UI REST at {spec.ui_url}")
    try:
        yield
    finally:
        if keep:
            echo(f"cluster left running (--keep): pycontrol cluster down --home {spec.home}")
        else:
            echo(manager.down(spec.home))


def run_experiment(spec: ClusterSpec, exp: Experiment, echo: Callable[[str], None], keep: bool = False,
                   metrics_port: int = 0, stop: threading.Event | None = None) -> RunData:
    """Brings the cluster up, runs both phases and takes it down (unless keep), whatever happened."""
    with cluster_session(spec, echo, keep):
        return run_on_cluster(spec, exp, echo, metrics_port, stop or threading.Event())


def wait_topology_gone(spec: ClusterSpec, name: str, timeout_s: float = 180) -> None:
    """Until Nimbus no longer lists `name` and none of the cluster's worker JVMs is left: the next
    submission then finds every slot free, so it gets the same default placement as the last one."""
    rest = ui_token.rest_client(spec)
    wait_until(f"{name} gone and its workers stopped",
               lambda: rest.topology_id(name) is None and not processes.worker_cpus(spec.home), timeout_s)


def wait_settled(exp: Experiment, read_rows: Callable[[], list], submitted_at: float, echo: Callable[[str], None],
                 stop: threading.Event) -> dict[str, Any]:
    """Until the workload has settled at exp.settle_rate, or exp.settle_max_s has passed (the run then goes
    on, and says so)."""
    deadline = time.monotonic() + exp.settle_max_s
    status = live_status.Throttled(f"{exp.topology} settling", echo)
    while not stop.is_set():
        rows = read_rows()
        if settled(rows, time.time(), exp.settle_rate):
            took = round(time.monotonic() - submitted_at, 1)
            echo(f"settled at {exp.settle_rate:g}/s {took:g} s after submission")
            return {"settled": True, "after_submit_s": took}
        if time.monotonic() >= deadline:
            took = round(time.monotonic() - submitted_at, 1)
            echo(f"NOT settled at {exp.settle_rate:g}/s after {exp.settle_max_s:g} s; the phases begin anyway")
            return {"settled": False, "after_submit_s": took}
        status(rows, deadline - time.monotonic())
        stop.wait(2)
    return {"settled": False, "after_submit_s": round(time.monotonic() - submitted_at, 1)}


def balance_now(client, rest: StormRest, exp: Experiment, topo_id: str, echo: Callable[[str], None]) -> list[dict]:
    """The ceiling run's start: exp.balance_component spread evenly over the nodes by one plan of live
    moves; returns the moves. A plan the scheduler does not apply is an error: the run would not be the
    ceiling its name says."""
    from pycontrol.bench.otd.balance import balanced_moves
    from pycontrol.migration.migrate import wait_decision, write_plan
    moves = balanced_moves(placement.placement(rest, topo_id), exp.balance_component)
    if not moves:
        echo(f"{exp.balance_component} already spread evenly over the nodes: no move")
        return []
    echo(f"balancing {exp.balance_component}: {len(moves)} live move(s) before the warm-up")
    _, version = write_plan(client, exp.topology, moves)
    decision = wait_decision(client, exp.topology, topo_id, version, 120)
    if decision.status != APPLIED:
        raise UserError(f"the balancing plan for {exp.topology} was not applied: {decision.status} ({decision.reason})")
    wait_until("the balanced placement in the REST API", lambda: all(
        moves.get(pl.executor, (pl.host, pl.port)) == (pl.host, pl.port) for pl in placement.placement(rest, topo_id)),
        120)
    return [{"executor": str(e), "to": f"{h}:{p}"} for e, (h, p) in sorted(moves.items())]


def run_on_cluster(spec: ClusterSpec, exp: Experiment, echo: Callable[[str], None], metrics_port: int = 0,
                   stop: threading.Event | None = None) -> RunData:
    """Both phases of `exp` on a running cluster: submit, wait until it runs, observe, then the second
    policy; the topology is killed at the end."""
    stop = stop or threading.Event()
    from pycontrol.controller.daemon import Daemon
    from pycontrol.controller.leader import Leadership
    from pycontrol.controller.loop import ControlLoop
    from pycontrol.controller.planner import SCHEDULERS, JavaPlanner
    from pycontrol.controller.realize import Realizer, StormClusterIO
    from pycontrol.controller.state_store import StateStore
    from pycontrol.metrics.collect import Collector
    from pycontrol.metrics.zk import MetricsZk

    layout = Layout(spec.home)
    rest = ui_token.rest_client(spec)
    zk_hosts = f"{spec.control_host}:{spec.zk_port}"
    echo(f"submitting {exp.workload} as {exp.topology}: {' '.join(exp.settings)}")
    submitted_at = time.monotonic()
    submit_workload(exp.workload, exp.topology, list(exp.settings), layout.control_conf_dir)
    topo_id = wait_until(f"{exp.topology} listed", lambda: rest.topology_id(exp.topology), 120)
    data = RunData(topo_id)
    auth = cluster_zk_auth(spec.home)
    client = zk.connect(zk_hosts, auth=auth)
    mz = MetricsZk.sharing(client, auth=auth)   # one ZooKeeper session
    server = None
    java = None
    try:
        wait_until(f"{exp.topology}'s executors on all {spec.nodes} nodes",
              lambda: len(placement.by_host(placement.placement(rest, topo_id))) == spec.nodes, START_TIMEOUT_S)
        if not mz.start(30):
            raise UserError(f"cannot reach ZooKeeper at {zk_hosts}")
        wait_until("every worker publishing metrics", lambda: len(docs := mz.read(topo_id).docs) >= 1
              and all(d.seq >= 2 for d in docs.values()), START_TIMEOUT_S)
        wait_until("acked tuples", lambda: placement.acked(rest, topo_id) > 0, START_TIMEOUT_S)
        data.worker_cpus = processes.worker_cpus(spec.home)
        if exp.settle_rate is not None:
            data.settle = wait_settled(exp, lambda: series.read_series(locate.artifact_dirs(layout.logs, topo_id)),
                                       submitted_at, echo, stop)
        if exp.balance_component is not None:
            data.initial_moves = balance_now(client, rest, exp, topo_id, echo)
        if exp.warmup_s > 0:
            echo(f"running; warming up {exp.warmup_s:g} s under Storm's default placement")
            stop.wait(exp.warmup_s)
        clock = SystemClock()
        metrics = ControllerMetrics()
        if metrics_port:
            server, _ = serve(metrics, "127.0.0.1", metrics_port)
            echo(f"controller metrics on http://127.0.0.1:{metrics_port}/metrics")
        collector = Collector(rest, mz, clock_ms=lambda: int(clock.now() * 1000))
        source = RecordingSource(ModelSource(collector.collect_all, clock), exp.topology, data)
        store = StateStore(client)
        lead = Leadership(client, "bench-otd", clock=clock)
        realizer = Realizer(StormClusterIO(client, rest, fence=lead.fence), store, clock, 120, timer=metrics.time,
                            leading=lead.is_leader)
        java = JavaPlanner(timeout_s=60)
        sink = RecordingSink(data, echo)

        def phase(name: str, policy_name: str, params: dict, seconds: float) -> None:
            if stop.is_set():
                return
            source.phase = name
            loop = ControlLoop(_config(exp, policy_name, params), source, {p: java for p in SCHEDULERS},
                               realizer, store, clock, metrics, sink)
            done = threading.Event()
            # One event ends the phase: its time is up, or the caller asked to stop.
            timer = threading.Timer(seconds, done.set)
            relay = threading.Thread(target=lambda: (stop.wait(seconds + 1), done.set()), daemon=True)
            t0 = time.time()
            # A status line every 5 s (phase, time left, acked/s, p99 latency) while the phase runs.
            status = threading.Thread(target=live_status.watch, daemon=True, args=(
                f"{exp.topology} {name if name == 'default' or policy_name == 'otd' else 'control'}", t0 + seconds,
                lambda: series.read_series(locate.artifact_dirs(layout.logs, topo_id)), echo),
                kwargs={"stop": done})
            timer.start()
            relay.start()
            status.start()
            try:
                Daemon(loop, lead, clock, exp.cycle_s, done).run()
            finally:
                timer.cancel()
                done.set()
            data.phases[name] = (t0, time.time())

        echo(f"phase 1: Storm's default placement for {exp.default_s:g} s (controller observing)")
        phase("default", "plan-only", {}, exp.default_s)
        params = dict(exp.otd_params)
        if exp.calibrate_band is not None:
            params |= calibrated_thresholds([s for s, x in zip(data.shares, data.samples) if x.phase == "default"],
                                            exp.calibrate_band)
        data.otd_params = params
        if exp.second_policy == "otd":
            echo(f"phase 2: controller with policy otd for {exp.otd_s:g} s; params {params}")
            phase("otd", "otd", params, exp.otd_s)
        else:   # the control: OTD's parameters are recorded, but the observing policy takes none
            echo(f"phase 2 (control): controller with policy {exp.second_policy} for {exp.otd_s:g} s")
            phase("otd", exp.second_policy, {}, exp.otd_s)
        time.sleep(3)   # the spout writes each second's line shortly after it ends
        data.seconds = [{"ts": r.ts, "acked": r.acked, "latency_p50_ms": r.latency_p50_ms,
                         "latency_p99_ms": r.latency_p99_ms}
                        for r in series.read_series(locate.artifact_dirs(layout.logs, topo_id))]
        if stop.is_set():
            raise UserError("stopped before the run was complete")
        return data
    finally:
        if server is not None:
            server.shutdown()
        if java is not None:
            java.close()   # its planner JVM
        mz.stop()
        try:
            rest.kill(topo_id, 0)
        except RestError as e:
            log.warning("cannot kill %s: %s", exp.topology, e)
        client.stop()
        client.close()
