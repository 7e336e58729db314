"""Nonstop migration under faults, on a dedicated real 2-node cluster (these tests kill daemons, so they
do not touch the shared session cluster): the destination worker dies during a move; a supervisor
crashes and is started again; a supervisor dies on its own and its keeper starts it again; ZooKeeper
restarts; malformed plans (the plan znode, a node's plan store).

One acked topology runs a bounded stream at a fixed rate through all cases. After each fault tuples are
acked again, nothing but the requested executor moves, and at the end every tuple of the stream has been
acked exactly once. Failed (timed out, then replayed by the spout) tuples are reported per case."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field

import psutil
import pytest
from kazoo.client import KazooClient

from pycontrol import zk
from pycontrol.cluster import manager, processes
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.spec import make_spec
from pycontrol.errors import UserError
from pycontrol.migration.events import first
from pycontrol.migration.migrate import migrate, wait_decision, write_plan
from pycontrol.migration.observe import slot_events, wait_move_done, worker_pids
from pycontrol.storm import placement, submit
from pycontrol.storm.rest import RestError
from pycontrol.wire.executor import ExecutorId
from tests.conftest import RELAUNCH_PATIENT, TEST_PORT_BASE, LiveCluster, live_cluster, wait_for

pytestmark = pytest.mark.cluster

# Inside this test base's own block of 1000 ports: the session cluster uses base..base+140, other
# dedicated clusters +1000 and +2000; a suite on another base 1000*k away cannot collide either. For the
# default base 27000 this is 27500-27640, below the ephemeral port range (32768+).
PORT_BASE = TEST_PORT_BASE + 500
FAULT_CONF = RELAUNCH_PATIENT

NAME = "mig-faults"
SPOUT = "sequence"
RATE = 40           # tuples/s: light, far below what two workers carry on a loaded box
STREAM_S = 240      # the bounded stream outlasts the fault cases (about 3 min on a quiet machine)
TOTAL = RATE * STREAM_S
# topology.message.timeout.secs: a lost tuple fails, and is replayed, 1x to 2x this after it was emitted
# (Storm's default of 30 s would make each case wait a minute to count its failures).
TIMEOUT_S = 10
ZK_DOWN_S = 40      # case 3: ZooKeeper's outage; a worker status poll (every 10 s) gives up within about 25 s


@dataclass
class Stream:
    cluster: LiveCluster
    topo_id: str
    client: KazooClient
    started: float                                  # time.monotonic() when the first tuple was acked
    report: list[str] = field(default_factory=list)
    restarted_node: str | None = None               # node whose supervisor case 2 restarted


@pytest.fixture(scope="module")
def fcluster(tmp_path_factory):
    with live_cluster(make_spec(tmp_path_factory.mktemp("faults"), nodes=2, slots=2, port_base=PORT_BASE,
                                extra_conf=FAULT_CONF)) as c:
        yield c


@pytest.fixture(scope="module")
def stream(fcluster):
    submit.submit_java("relay", NAME, [f"workload.total={TOTAL}", f"workload.rate={RATE}", "topology.workers=2",
                                       "topology.stats.sample.rate=1.0", f"topology.message.timeout.secs={TIMEOUT_S}"],
                       fcluster.conf_dir)
    rest = fcluster.rest
    topo_id = wait_for(f"{NAME} listed", lambda: rest.topology_id(NAME), 60)
    wait_for("all 7 executors placed on both nodes",
             lambda: len(set(_where(rest, topo_id).values())) == 2 and len(_where(rest, topo_id)) == 7, 240)
    wait_for("tuples acked", lambda: _counts(rest, topo_id)[0] > 0, 120)
    client = zk.connect(fcluster.zk_hosts, auth=fcluster.zk_auth)
    s = Stream(fcluster, topo_id, client, time.monotonic())
    try:
        yield s
    finally:
        print("\n".join(["", "migration fault cases:", *s.report]))
        client.stop()
        client.close()   # the topology goes down with the module's cluster


# ---------------------------------------------------------------------------------------------- helpers

def _quiet(fn):
    """fn(), or None while the REST API cannot answer (daemons restarting)."""
    try:
        return fn()
    except RestError:
        return None


def _places(rest, topo_id) -> list[placement.ExecutorPlace]:
    return placement.placement(rest, topo_id)


def _where(rest, topo_id) -> dict[ExecutorId, str]:
    """Executor -> "host:port" of every spout and bolt executor the UI lists (live ones)."""
    return {p.executor: f"{p.host}:{p.port}" for p in _places(rest, topo_id)}


def _counts(rest, topo_id) -> tuple[int, int]:
    """(acked, failed) at the spout, all time."""
    for s in rest.topology(topo_id).get("topologyStats", []):
        if s.get("window") == ":all-time":
            return int(s.get("acked") or 0), int(s.get("failed") or 0)
    return 0, 0


def _settled(stream: Stream, expected: dict[str, str]):
    """The placement once the UI lists exactly `expected`, else None (for wait_for)."""
    now = _quiet(lambda: _where(stream.cluster.rest, stream.topo_id))
    return now if now == expected else None


def _flowing(stream: Stream, acked_before: int, what: str, timeout_s: float = 120) -> int:
    """Waits until more tuples are acked than before (or the whole bounded stream is: nothing is stuck)."""
    def more():
        c = _quiet(lambda: _counts(stream.cluster.rest, stream.topo_id))
        return c is not None and (c[0] > acked_before or c[0] >= TOTAL) and c[0]
    return wait_for(f"tuples acked {what}", more, timeout_s, 1)


def _failed_once_settled(stream: Stream, since: float) -> int:
    """The spout's failed count once every tuple lost before `since` (time.monotonic()) has timed out,
    plus one stats heartbeat (executor.metrics.frequency.secs = 5)."""
    time.sleep(max(0.0, since + 2 * TIMEOUT_S + 6 - time.monotonic()))
    return wait_for("the failed count", lambda: _quiet(lambda: _counts(stream.cluster.rest, stream.topo_id)), 60)[1]


def _log_since(path, marker: str) -> str:
    """The log's text from the last line containing `marker` on."""
    text = path.read_text(errors="replace")
    return text[text.rfind(marker):] if marker in text else ""


def _node_of(stream: Stream, slot: str):
    host = slot.rsplit(":", 1)[0]
    return next(n for n in stream.cluster.spec.node_specs if n.host == host)


def _pick_move(places: list[placement.ExecutorPlace], source: str | None = None) -> tuple[ExecutorId, str, str]:
    """(executor, source slot, target slot): a bolt executor of `source` (default: the slot with the most
    bolt executors) to the topology's other worker. The spout never moves: a moved or killed spout
    forgets the tuples it would replay (storm-plugins/migration README, Limits)."""
    slots = sorted({f"{p.host}:{p.port}" for p in places})
    assert len(slots) == 2, slots
    bolts = [p for p in places if p.component != SPOUT]
    if source is None:
        source = max(slots, key=lambda s: sum(f"{p.host}:{p.port}" == s for p in bolts))
    mover = next((p for p in sorted(bolts, key=lambda p: p.executor) if f"{p.host}:{p.port}" == source), None)
    assert mover is not None, f"no bolt executor at {source} to move: {places}"
    return mover.executor, source, next(s for s in slots if s != source)


def _spout_slot(places) -> str:
    p = next(p for p in places if p.component == SPOUT)
    return f"{p.host}:{p.port}"


def _target(slot: str) -> tuple[str, int]:
    host, port = slot.rsplit(":", 1)
    return host, int(port)


def _alive(pids: dict[str, int]) -> bool:
    return all(psutil.pid_exists(p) for p in pids.values())


def _workers_changed(spec, topo_id: str, pids: dict[str, int]) -> str:
    """"" when every worker in `pids` ("host:port" -> pid) still runs as that pid; otherwise which did not,
    with what its own log and its supervisor's log said last, so a failure on a CI machine explains itself."""
    now = worker_pids(spec, topo_id, set(pids))
    gone = {slot: pid for slot, pid in pids.items() if now.get(slot) != pid or not psutil.pid_exists(pid)}
    if not gone:
        return ""
    layout = Layout(spec.home)
    report = []
    for slot, pid in gone.items():
        host, port = slot.rsplit(":", 1)
        node = next(n.name for n in spec.node_specs if n.host == host)
        report.append(f"worker {slot}: pid {pid} alive={psutil.pid_exists(pid)}, pid file now {now.get(slot)}")
        worker_dir = layout.node_log_dir(node) / "workers-artifacts" / topo_id / port
        for name, keep in (("worker.log", 30), ("worker.log.err", 10), ("worker.log.out", 10)):
            f = worker_dir / name
            if f.exists():
                lines = f.read_text(errors="replace").splitlines()
                report += [f"  --- {name}, last {keep} lines"] + [f"  {x[:300]}" for x in lines[-keep:]]
        sup = layout.node_log_dir(node) / "supervisor.log"
        if sup.exists():
            hits = [x for x in sup.read_text(errors="replace").splitlines()
                    if f"SLOT_{port}" in x or f":{port} " in x or "Halting" in x or "Starting Supervisor" in x]
            report += [f"  --- {node} supervisor.log about slot {port}, last 15"] + [f"  {x[:300]}" for x in hits[-15:]]
    return "\n".join(report)


def _moved(before: dict[ExecutorId, str], executor: ExecutorId, target: str) -> dict[ExecutorId, str]:
    return {**before, executor: target}


def _keeper_restarts(spec, name: str, since: str) -> list[str]:
    """The keeper's "starting it again" lines for daemon `name` at or after `since` (its timestamp format)."""
    lines = Layout(spec.home).process_log(name).read_text(errors="replace").splitlines()
    return [x for x in lines if f"keeper[{name}]" in x and "starting it again" in x and x[:19] >= since]


def _outage(events: list[dict], after_ms: float) -> int | None:
    """The length (ms) of the ZooKeeper outage a worker rode out after `after_ms`, once it has recorded both
    its start and its end in its event log, else None."""
    began = first(events, "zk_unreachable", after_ms)
    ended = began and first(events, "zk_reachable", began["t_ms"])
    return ended and int(ended["outage_ms"]) or None


def _nimbus_log(stream: Stream) -> str:
    return (Layout(stream.cluster.spec.home).logs / "nimbus.log").read_text(errors="replace")


# ---------------------------------------------------------------------------------------------- cases

def test_the_destination_worker_killed_during_a_move_comes_back_running_the_moved_executor(fcluster, stream):
    """Case 1. The destination's JVM is SIGKILLed the moment it starts taking the executor on. The move
    stands (Nimbus's assignment already has the executor there): the supervisor relaunches the worker on
    the same slot, the new JVM starts with the planned executors, and the source worker, untouched, has
    shut its copy down after the lazy kill. Tuples lost with the dead worker time out and are replayed."""
    rest, spec, client = fcluster.rest, fcluster.spec, stream.client
    places = _places(rest, stream.topo_id)
    before = _where(rest, stream.topo_id)
    # From the spout's worker to the other one: the killed worker must not hold the spout's replay list.
    mover, src, dst = _pick_move(places, source=_spout_slot(places))
    pids = worker_pids(spec, stream.topo_id, {src, dst})
    assert set(pids) == {src, dst} and _alive(pids)
    acked0, failed0 = _counts(rest, stream.topo_id)

    t0_ms = time.time() * 1000
    rid, version = write_plan(client, NAME, {mover: _target(dst)})
    key = str(mover)
    reconcile = wait_for("the destination worker reconciling to the new plan",
                         lambda: first(slot_events(spec, dst), "reconcile", t0_ms), 120, poll_s=0.01)
    os.kill(pids[dst], signal.SIGKILL)
    killed_ms = time.time() * 1000
    started_before_kill = first(slot_events(spec, dst), "started", t0_ms, executor=key) is not None

    d = wait_decision(client, NAME, stream.topo_id, version, 60)
    assert d.status == "applied" and d.request_id == rid, d
    assert [(m["executor"], m["from"], m["to"]) for m in d.moves] == [(key, src, dst)], d.moves

    def relaunched():
        pid = worker_pids(spec, stream.topo_id, {dst}).get(dst)
        return pid if pid and pid != pids[dst] and psutil.pid_exists(pid) else None
    new_pid = wait_for("the supervisor relaunching the killed worker on its slot", relaunched, 300, 0.5)
    relaunched_s = (time.time() * 1000 - killed_ms) / 1000
    # The relaunched worker follows the plan store from the start (its event file names its pid)...
    assert wait_for("the relaunched worker attached to the plan store",
                    lambda: first(slot_events(spec, dst), "attached", killed_ms, pid=new_pid), 300, 0.5)
    # ...and runs the moved executor; nothing else moved.
    wait_for("every executor listed again, the moved one at the destination",
             lambda: _settled(stream, _moved(before, mover, dst)), 300, 2)
    listed_s = (time.time() * 1000 - killed_ms) / 1000
    listed = time.monotonic()
    # Storm's supervisor says what it did: the worker's main process exited, so it relaunched it.
    sup_log = Layout(spec.home).node_log_dir(_node_of(stream, dst).name) / "supervisor.log"
    assert (f"SLOT {_target(dst)[1]}: main process has exited for topology: {stream.topo_id}"
            in sup_log.read_text(errors="replace"))
    # The source worker lived through it and shut its copy of the executor down after the lazy kill.
    assert worker_pids(spec, stream.topo_id, {src}) == {src: pids[src]} and psutil.pid_exists(pids[src])
    stopped = first(slot_events(spec, src), "stopped", t0_ms, executor=key)
    assert stopped is not None, "the source never shut its copy of the moved executor down"

    acked = _flowing(stream, _counts(rest, stream.topo_id)[0], "after the relaunch")
    failed = _failed_once_settled(stream, listed)
    stream.report.append(
        f"1 destination killed: {mover} {src} -> {dst}; killed {killed_ms - t0_ms:.0f} ms after the plan write "
        f"({reconcile['t_ms'] - t0_ms:.0f} ms: reconcile seen; executor already started: {started_before_kill}); "
        f"worker relaunched (pid {pids[dst]} -> {new_pid}) after {relaunched_s:.1f} s, all executors listed after "
        f"{listed_s:.1f} s; source stopped its copy {stopped['t_ms'] - t0_ms:.0f} ms after the plan; "
        f"acked {acked0} -> {acked}, failed (replayed) +{failed - failed0}")


def test_a_supervisor_crash_and_restart_keeps_the_workers_and_moves_still_work(fcluster, stream):
    """Case 2. The supervisor JVM of the node that receives the next move is SIGKILLed: its workers run on
    (tuples are acked while it is down); started again, it adopts them (same PIDs) and a move into that
    node's worker is applied by the restarted supervisor without any restart."""
    rest, spec, client = fcluster.rest, fcluster.spec, stream.client
    places = _places(rest, stream.topo_id)
    before = _where(rest, stream.topo_id)
    mover, src, dst = _pick_move(places)
    pids = worker_pids(spec, stream.topo_id, {src, dst})
    node = _node_of(stream, dst)
    name = f"{node.name}-supervisor"
    acked0, failed0 = _counts(rest, stream.topo_id)

    fcluster.state = manager.stop_daemon(spec.home, name, crash=True)
    crashed = time.monotonic()
    acked_down = _flowing(stream, acked0, "while the supervisor is down", 60)
    assert not (why := _workers_changed(spec, stream.topo_id, pids)), f"a worker was restarted:\n{why}"

    fcluster.state = manager.start_daemon(spec.home, name, timeout_s=180)
    back_s = time.monotonic() - crashed
    stream.restarted_node = node.name
    assert not (why := _workers_changed(spec, stream.topo_id, pids)), f"a worker was restarted:\n{why}"
    sup_log = Layout(spec.home).node_log_dir(node.name) / "supervisor.log"

    t0_ms = time.time() * 1000
    r = migrate(client, rest, NAME, mover, _target(dst), wait=True, timeout_s=180)
    assert r.decision.status == "applied" and r.source == src, r
    timeline = wait_move_done(spec, mover, src, dst, t0_ms, 120)
    assert not (why := _workers_changed(spec, stream.topo_id, pids)), f"a worker was restarted:\n{why}"
    wait_for("the placement: only the moved executor changed", lambda: _settled(stream, _moved(before, mover, dst)),
             60, 2)
    # The restarted supervisor adopted the running worker (Storm's log says so) and launched none.
    since_start = _log_since(sup_log, "Starting Supervisor")
    assert "Recovered Worker" in since_start and "Launching worker" not in since_start
    acked = _flowing(stream, _counts(rest, stream.topo_id)[0], "after the move")
    failed = _failed_once_settled(stream, time.monotonic())
    stream.report.append(
        f"2 supervisor crash: {name} SIGKILLed, started again after {back_s:.1f} s and recovered the running worker, "
        f"worker pids kept {sorted(pids.values())}; acked while it was down: {acked0} -> {acked_down}; then {mover} "
        f"{src} -> {dst} decided in {r.decided_after_s} s, effect {timeline.effect_ms:.0f} ms; acked -> {acked}, "
        f"failed (replayed) +{failed - failed0}")


def test_a_supervisor_that_dies_on_its_own_is_started_again_by_its_keeper(fcluster, stream):
    """Case 2b. Storm's daemons are fail-fast: a supervisor halts itself when, for example, its heartbeat
    cannot reach ZooKeeper, and expects to be started again. Here its JVM alone is SIGKILLed (the keeper
    is not told): the keeper starts it again, the new supervisor adopts the running workers (same PIDs)
    and tuples keep being acked."""
    rest, spec = fcluster.rest, fcluster.spec
    before = _where(rest, stream.topo_id)
    slots = set(before.values())
    pids = worker_pids(spec, stream.topo_id, slots)
    node = _node_of(stream, sorted(slots)[0])
    name = f"{node.name}-supervisor"
    rec = next(p for p in fcluster.state.processes if p.name == name)
    old = processes.daemon_pid(rec)
    assert old is not None, f"{name} has no running JVM under its keeper"
    sup_log = Layout(spec.home).node_log_dir(node.name) / "supervisor.log"
    starts = sup_log.read_text(errors="replace").count("Starting Supervisor")
    since = time.strftime("%Y-%m-%d %H:%M:%S")
    killed = time.monotonic()
    os.kill(old, signal.SIGKILL)

    def restarted():
        pid = processes.daemon_pid(rec)
        return pid if pid not in (None, old) else None
    new = wait_for(f"the keeper starting {name} again", restarted, 60, 0.2)
    assert processes.is_alive(rec), "the keeper itself exited"
    assert _keeper_restarts(spec, name, since), "the keeper did not log the restart"

    def adopted():   # the new supervisor's part of the log (one more start) says it recovered the worker
        text = sup_log.read_text(errors="replace")
        return (text.count("Starting Supervisor") > starts
                and "Recovered Worker" in text[text.rfind("Starting Supervisor"):])
    wait_for("the new supervisor adopting its running worker", adopted, 120, 1)
    back_s = time.monotonic() - killed
    assert "Launching worker" not in _log_since(sup_log, "Starting Supervisor")
    assert not (why := _workers_changed(spec, stream.topo_id, pids)), f"a worker was restarted:\n{why}"
    assert wait_for("the placement unchanged", lambda: _settled(stream, before), 60, 2)
    acked = _flowing(stream, _counts(rest, stream.topo_id)[0], "after the supervisor came back")
    stream.report.append(f"2b supervisor JVM killed under its keeper: {name} pid {old} -> {new}, worker adopted "
                         f"{back_s:.1f} s after the kill, worker pids kept {sorted(pids.values())}; acked -> {acked}")


def test_a_supervisor_restarted_while_nimbus_is_down_keeps_its_workers(fcluster, stream):
    """Case 2c. Nimbus is down (or not yet the leader again after a ZooKeeper outage) when a supervisor
    starts again. Storm's supervisor would read "nothing assigned here" from its empty assignment cache and
    kill every worker of its node; ours waits for Nimbus's assignments and says so, the workers run on
    (same PIDs), and once Nimbus is back the supervisor takes them over unchanged."""
    rest, spec = fcluster.rest, fcluster.spec
    before = _where(rest, stream.topo_id)
    slots = set(before.values())
    pids = worker_pids(spec, stream.topo_id, slots)
    node = _node_of(stream, sorted(slots)[-1])
    name = f"{node.name}-supervisor"
    rec = next(p for p in fcluster.state.processes if p.name == name)
    sup_log = Layout(spec.home).node_log_dir(node.name) / "supervisor.log"
    starts = sup_log.read_text(errors="replace").count("Starting Supervisor")

    fcluster.state = manager.stop_daemon(spec.home, "nimbus")
    stopped = time.monotonic()
    old = processes.daemon_pid(rec)
    assert old is not None, f"{name} has no running JVM under its keeper"
    os.kill(old, signal.SIGKILL)      # a fail-fast halt; its keeper starts it again while Nimbus is down

    def new_part():                   # the restarted supervisor's part of its log
        text = sup_log.read_text(errors="replace")
        return text[text.rfind("Starting Supervisor"):] if text.count("Starting Supervisor") > starts else ""
    wait_for("the restarted supervisor holding its workers until Nimbus answers",
             lambda: "nonstop: no assignments from Nimbus yet" in new_part(), 120, 0.5)
    # Storm's supervisor kills within its first sync (about 2 s); allow two more sync rounds (10 s each).
    time.sleep(22)
    held_s = time.monotonic() - stopped
    assert "Killing" not in new_part() and "Launching worker" not in new_part(), new_part()[-3000:]
    assert not (why := _workers_changed(spec, stream.topo_id, pids)), f"a worker was killed:\n{why}"

    fcluster.state = manager.start_daemon(spec.home, "nimbus", timeout_s=240)
    wait_for("the supervisor receiving its assignments from Nimbus",
             lambda: "nonstop: assignments received from Nimbus" in new_part(), 120, 1)
    assert wait_for("the placement unchanged", lambda: _settled(stream, before), 120, 2)
    back_s = time.monotonic() - stopped
    assert "Launching worker" not in new_part()
    assert not (why := _workers_changed(spec, stream.topo_id, pids)), f"a worker was restarted:\n{why}"
    acked = _flowing(stream, _counts(rest, stream.topo_id)[0], "after Nimbus came back")
    stream.report.append(f"2c supervisor restarted while Nimbus was down: {name} held its workers for {held_s:.0f} s "
                         f"without Nimbus, worker pids kept {sorted(pids.values())}; Nimbus back and placement "
                         f"unchanged {back_s:.1f} s after its stop; acked -> {acked}")


def test_zookeeper_restart_refuses_moves_while_down_and_applies_them_once_back(fcluster, stream):
    """Case 3. ZooKeeper stops: a move asked for meanwhile fails at once with a clear message and writes
    nothing (the CLI, and the library with a client connected before the outage: kazoo would otherwise
    hold the write and send it when ZooKeeper is back). ZooKeeper starts again: Nimbus and the workers
    reconnect by themselves (same PIDs, same placement) and a new move is applied. A supervisor (or Nimbus)
    whose ZooKeeper call fails while ZooKeeper is down halts itself (Storm's fail-fast design); its keeper
    starts it again, as systemd would, and the new supervisor adopts the running workers. A worker would
    halt too, from its topology-status poll; ours keeps its last known status and retries. The receiving
    node's supervisor is down throughout (crashed first, started after ZooKeeper), so that node's worker
    reads its assignment from ZooKeeper in each connection refresh: those reads fail, and Storm would take
    that for "no assignment" and halt the worker; ours keeps the last assignment read and its routes."""
    rest, spec, client = fcluster.rest, fcluster.spec, stream.client
    places = _places(rest, stream.topo_id)
    before = _where(rest, stream.topo_id)
    mover, src, dst = _pick_move(places)
    pids = worker_pids(spec, stream.topo_id, {src, dst})
    plan_path = f"{zk.PLANS}/{NAME}"
    plan_before = client.exists(plan_path)
    acked0, failed0 = _counts(rest, stream.topo_id)
    supervisor = f"{_node_of(stream, dst).name}-supervisor"

    fcluster.state = manager.stop_daemon(spec.home, supervisor, crash=True)
    fcluster.state = manager.stop_daemon(spec.home, "zookeeper")
    stopped = time.monotonic()
    stopped_at = time.strftime("%Y-%m-%d %H:%M:%S")
    stopped_ms = time.time() * 1000
    wait_for("the control plane's client noticing the outage", lambda: not client.connected, 30, 0.1)

    cli = subprocess.run([sys.executable, "-m", "pycontrol", "migrate", NAME, "--executor", str(mover), "--to", dst,
                          "--home", str(spec.home), "--timeout", "30"], capture_output=True, text=True, timeout=120)
    assert cli.returncode == 2, cli
    assert "Traceback" not in cli.stderr, cli.stderr
    assert cli.stderr.strip().splitlines()[-1] == (f"error: ZooKeeper at {spec.control_host}:{spec.zk_port} "
                                                   f"unreachable within 10 s: no plan written, nothing moves"), cli.stderr
    t = time.monotonic()
    with pytest.raises(UserError, match=f"no connection to ZooKeeper at .*: no plan written for {NAME}; nothing moves"):
        migrate(client, rest, NAME, mover, _target(dst), wait=True, timeout_s=30)
    assert time.monotonic() - t < 2, "refused at once, not held until ZooKeeper is back"
    # Long enough that every worker's topology-status poll (every task.refresh.poll.secs = 10 s) gives up on
    # ZooKeeper (Curator's retries end 10-25 s after the poll began): Storm's worker would halt then.
    time.sleep(max(0.0, ZK_DOWN_S - (time.monotonic() - stopped)))

    fcluster.state = manager.start_daemon(spec.home, "zookeeper", timeout_s=60)
    down_s = time.monotonic() - stopped
    wait_for("the control plane's client reconnecting", lambda: client.connected, 60, 0.2)
    fcluster.state = manager.start_daemon(spec.home, supervisor, timeout_s=180)
    wait_for("the REST API listing every executor where it was", lambda: _settled(stream, before), 180, 2)
    back_s = time.monotonic() - stopped
    assert not (why := _workers_changed(spec, stream.topo_id, pids)), f"a worker was restarted:\n{why}"
    # Each worker rode out the outage in its status poll and records it (the event log is written at once;
    # worker.log is buffered) once its next poll succeeds; a poll blocks in Curator's retries for up to
    # about 25 s before it fails.
    outages = {}
    for slot in sorted({src, dst}):
        outages[slot] = wait_for(f"the worker at {slot} recording the outage and its end",
                                 lambda: _outage(slot_events(spec, slot), stopped_ms), 60, 1)
    assert not (why := _workers_changed(spec, stream.topo_id, pids)), f"a worker was restarted:\n{why}"
    kept = first(slot_events(spec, dst), "assignment_kept", stopped_ms)
    assert kept and "ConnectionLoss" in kept["error"], \
        f"the worker at {dst} (its supervisor down) recorded no failed assignment read it rode out: {kept}"
    plan_after = client.exists(plan_path)
    assert (plan_after and plan_after.version) == (plan_before and plan_before.version), "the refused move wrote a plan"
    acked_back = _flowing(stream, acked0, "after ZooKeeper is back")

    t0_ms = time.time() * 1000
    r, unknown_slot = _migrate_once_nimbus_has_the_slot(client, rest, mover, dst, 180)
    assert r.decision.status == "applied" and r.source == src, r
    timeline = wait_move_done(spec, mover, src, dst, t0_ms, 120)
    assert not (why := _workers_changed(spec, stream.topo_id, pids)), f"a worker was restarted:\n{why}"
    wait_for("the placement: only the moved executor changed", lambda: _settled(stream, _moved(before, mover, dst)),
             60, 2)
    # Nimbus says why nothing was scheduled meanwhile: it lost its leadership with ZooKeeper, then took it back.
    nimbus_log = _nimbus_log(stream)
    lost = nimbus_log.rfind("localhost lost leadership.")
    assert lost >= 0 and nimbus_log.find("localhost gained leadership.", lost) > lost
    acked = _flowing(stream, _counts(rest, stream.topo_id)[0], "after the move")
    failed = _failed_once_settled(stream, time.monotonic())
    restarted = [n.name for n in spec.node_specs if _keeper_restarts(spec, f"{n.name}-supervisor", stopped_at)]
    stream.report.append(
        f"3 ZooKeeper restart: down {down_s:.1f} s, {supervisor} down throughout, supervisors restarted by their "
        f"keeper: {restarted or 'none'}, the worker at {dst} kept its assignment after a read failed "
        f"{(kept['t_ms'] - stopped_ms) / 1000:.1f} s into the outage, "
        f"workers' status polls failing for {sorted(outages.values())} ms without halting, cluster back (REST, same placement and pids) {back_s:.1f} s after "
        f"the stop; acked {acked0} -> {acked_back}; refused while down: CLI and library; then {mover} {src} -> {dst} "
        f"decided in {r.decided_after_s} s ({unknown_slot} earlier plan(s) rejected while Nimbus's round did not "
        f"yet have the restarted supervisor), effect {timeline.effect_ms:.0f} ms; acked -> {acked}, "
        f"failed (replayed) +{failed - failed0}")


def _migrate_once_nimbus_has_the_slot(client, rest, mover: ExecutorId, dst: str, timeout_s: float):
    """The move to `dst` once Nimbus schedules onto its restarted supervisor. The REST API lists a supervisor
    before Nimbus's scheduling round has it, and a plan naming a target the round does not know is rejected
    ("slot ... does not exist", or "no live supervisor has id or host ..." while the round has no supervisors
    yet: nothing moves, the decision says why). So such a rejection is retried; any other outcome is returned
    at once. Returns the result and how many plans were rejected that way."""
    deadline = time.monotonic() + timeout_s
    rejected = 0
    while True:
        r = migrate(client, rest, NAME, mover, _target(dst), wait=True, timeout_s=timeout_s)
        unknown = r.decision.status == "rejected" and ("does not exist" in r.decision.reason
                                                       or "no live supervisor has id or host" in r.decision.reason)
        if not unknown or time.monotonic() > deadline:
            return r, rejected
        rejected += 1
        time.sleep(2)


def test_garbage_in_the_plan_znode_is_rejected_with_a_clear_reason_and_nothing_moves(fcluster, stream):
    """Case 4. Not JSON at all in /nonstop/plans/<topology>: the scheduler rejects that plan version, says
    why in the decision record and Nimbus's log, and leaves every executor and worker where it was."""
    rest, spec, client = fcluster.rest, fcluster.spec, stream.client
    before = _where(rest, stream.topo_id)
    slots = set(before.values())
    pids = worker_pids(spec, stream.topo_id, slots)
    acked0, failed0 = _counts(rest, stream.topo_id)

    path = f"{zk.PLANS}/{NAME}"
    client.ensure_path(path)
    version = client.set(path, b'{"request_id": "x", "placement": {"[3,3]": ').version
    d = wait_decision(client, NAME, stream.topo_id, version, 60)
    assert d.status == "rejected" and d.reason.startswith("plan is not valid JSON"), d
    assert d.moves == [] and d.request_id is None
    assert f"plan v{version} for {NAME} rejected: plan is not valid JSON" in _nimbus_log(stream)

    time.sleep(5)  # two more scheduling rounds (nimbus.monitor.freq.secs = 2): still nothing may move
    assert _where(rest, stream.topo_id) == before
    assert not (why := _workers_changed(spec, stream.topo_id, pids)), f"a worker was restarted:\n{why}"
    for slot in slots:
        assert first(slot_events(spec, slot), "reconcile", d.decided_at_ms) is None, slot
    acked = _flowing(stream, acked0, "after the rejected plan")
    stream.report.append(f"4 garbage plan znode v{version}: rejected ({d.reason[:60]}...); nothing moved; "
                         f"acked {acked0} -> {acked}, failed +{_counts(rest, stream.topo_id)[1] - failed0}")


def test_a_corrupt_node_plan_store_is_ignored_by_its_workers_and_rewritten_by_the_supervisor(fcluster, stream):
    """Case 4b. Garbage in a node's plan store (plan.json): its workers keep their executors (the store is
    unreadable, so they keep what they run), and the supervisor's next sync writes the plan again with a
    higher version, also when that supervisor was restarted since (case 2), so no worker can mistake a
    later plan for one it has seen."""
    rest, spec = fcluster.rest, fcluster.spec
    before = _where(rest, stream.topo_id)
    slots = set(before.values())
    pids = worker_pids(spec, stream.topo_id, slots)
    acked0, _ = _counts(rest, stream.topo_id)
    node = stream.restarted_node or spec.node_specs[0].name
    plan_file = Layout(spec.home).node_local_dir(node) / "nonstop" / "plan.json"
    old = json.loads(plan_file.read_text())

    t0_ms = time.time() * 1000
    garbage = plan_file.with_name("plan.json.garbage")
    garbage.write_text('{"format": 1, "version": ')
    os.replace(garbage, plan_file)   # a rename, as the supervisor writes: the workers' watch fires at once

    def rewritten():
        try:
            return json.loads(plan_file.read_text())
        except ValueError:
            return None
    new = wait_for("the supervisor rewriting its plan store (it syncs every 10 s)", rewritten, 60, 0.5)
    assert (new["ports"], new["topologies"]) == (old["ports"], old["topologies"])
    assert new["version"] == old["version"] + 1, f"plan store version went from {old['version']} to {new['version']}"
    rewritten_s = (new["written_at_ms"] - t0_ms) / 1000

    time.sleep(2)
    assert _where(rest, stream.topo_id) == before
    assert not (why := _workers_changed(spec, stream.topo_id, pids)), f"a worker was restarted:\n{why}"
    for slot in slots:
        assert first(slot_events(spec, slot), "reconcile", t0_ms) is None, slot
    acked = _flowing(stream, acked0, "after the corrupt plan store")
    stream.report.append(f"4b corrupt plan store on {node}: rewritten v{old['version']} -> v{new['version']} after "
                         f"{rewritten_s:.1f} s; nothing moved; acked {acked0} -> {acked}")


def test_every_tuple_of_the_stream_is_acked_exactly_once(fcluster, stream):
    rest = fcluster.rest

    def all_acked():
        c = _quiet(lambda: _counts(rest, stream.topo_id))
        return c is not None and c[0] >= TOTAL
    remaining = stream.started + STREAM_S - time.monotonic()
    wait_for(f"all {TOTAL} tuples acked", all_acked, max(remaining, 0) + 240, 2)
    time.sleep(6)  # one more stats heartbeat (executor.metrics.frequency.secs = 5): no overshoot
    acked, failed = _counts(rest, stream.topo_id)
    assert acked == TOTAL
    stream.report.append(f"end: acked {acked} of {TOTAL} exactly; failed (replayed) in all: {failed}")
