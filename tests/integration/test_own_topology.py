"""Your own topologies on the real cluster, through the CLI's front door: a jar built here from sources that
use only Storm's public API (an anchored, acked spout with fields grouping; a ShellBolt running a multilang
script from the jar's resources/; windowed, tick-tuple and checkpointing stateful bolts; a Trident
persistentAggregate), a Flux YAML file and a streamparse project. Each is submitted, one of its executors moved
live between the nodes with `pycontrol migrate` (no worker JVM restarts), and where results are defined they
are exact: every emitted tuple acked, every Trident batch committed; what in-memory state does on a move is
measured and asserted as it is."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import psutil
import pytest
import requests
import yaml

from pycontrol import paths
from pycontrol.migration.migrate import where_is
from pycontrol.migration.observe import worker_pids
from pycontrol.storm import placement
from pycontrol.storm.rest import executor_id
from pycontrol.wire.executor import ExecutorId
from tests.conftest import wait_for
from tests.fixtures.own_topologies.build import build_jar

pytestmark = pytest.mark.cluster

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
# Tuples at most; the spout emits at most ~400/s, so the stream outlasts a move (50/s on a loaded machine). A test
# ends the stream once its move is done (_stop), so how long it runs does not depend on the machine.
TOTAL = 20_000


@pytest.fixture(scope="module")
def own_jar(tmp_path_factory) -> Path:
    return build_jar(tmp_path_factory.mktemp("own-jar"))


def _cli(cluster, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    """`pycontrol <args>` against the test cluster; options go before any `--`."""
    args = list(args)
    at = args.index("--") if "--" in args else len(args)
    argv = [sys.executable, "-m", "pycontrol", *args[:at], "--home", str(cluster.spec.home), *args[at:]]
    p = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    if check:
        assert p.returncode == 0, f"{argv}: exit {p.returncode}\n{p.stdout}\n{p.stderr}"
    return p


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(autouse=True)
def _nothing_left_running(cluster):
    """A test that fails half-way still frees its slots: the session cluster's 8 are shared with the modules
    that follow (a topology left here once starved the word-count module's last submission)."""
    yield
    for t in cluster.rest.topologies():
        if t.get("name", "").startswith("own-"):
            cluster.rest.kill(t["id"], 0)
            wait_for(f"{t['name']} gone", lambda: cluster.rest.topology_id(t["name"]) is None, 120)


def _status(path: Path) -> tuple[int, int, int]:
    """(emitted, acked, failed) as the CountingSpout last wrote them."""
    try:
        emitted, acked, failed = map(int, path.read_text().split())
    except (OSError, ValueError):
        return 0, 0, 0
    return emitted, acked, failed


def _stop(status: Path) -> int:
    """Ends the CountingSpout's stream: it emits no new tuples (still replays failed ones); returns how many it
    emitted, once it says so."""
    Path(f"{status}.stop").touch()
    stopped = Path(f"{status}.stopped")

    def emitted():
        try:
            return int(stopped.read_text())
        except (OSError, ValueError):
            return None
    return wait_for(f"{status.name}'s spout stopped", lambda: emitted() is not None, 120) and emitted()


def _running(cluster, name: str, executors: int) -> str:
    rest = cluster.rest
    topo_id = wait_for(f"{name} listed", lambda: rest.topology_id(name), 60)
    wait_for(f"{name}'s {executors} executors placed on both nodes",
             lambda: len(placement.by_host(placement.placement(rest, topo_id))) == 2
             and len(placement.placement(rest, topo_id)) == executors, 600, 2)
    return topo_id


def _move(cluster, name: str, topo_id: str, component: str) -> tuple[str, str]:
    """One executor of `component` to the topology's worker on the other node, with `pycontrol migrate`;
    asserts it arrived and that neither worker JVM restarted. Returns (executor, target slot)."""
    rest = cluster.rest
    places = placement.placement(rest, topo_id)
    slots = {f"{p.host}:{p.port}" for p in places}
    assert len(slots) == 2, slots
    mover = next(p for p in places if p.component == component)
    target = next(s for s in slots if s.split(":")[0] != mover.host)
    pids = worker_pids(cluster.spec, topo_id, slots)
    assert set(pids) == slots
    _cli(cluster, "migrate", name, "--executor", str(mover.executor), "--to", target, "--wait", "--timeout", "180")
    assert where_is(rest, topo_id, mover.executor) == target
    assert worker_pids(cluster.spec, topo_id, slots) == pids
    assert all(psutil.pid_exists(p) for p in pids.values())
    return mover.executor, target


def _executed(cluster, topo_id: str, component: str, executor: ExecutorId) -> int:
    for e in cluster.rest.component(topo_id, component).get("executorStats", []):
        if executor_id(e) == executor:
            return int(e.get("executed") or 0)
    return 0


def _kill(cluster, name: str) -> None:
    out = _cli(cluster, "topology", "kill", name, "--timeout", "120").stdout
    assert f"killed {name}" in out
    assert cluster.rest.topology_id(name) is None


def _acked_exactly_once_across_a_move(cluster, own_jar, tmp_path, main: str, name: str, executors: int,
                                      component: str) -> None:
    status = tmp_path / f"{name}.status"
    out = _cli(cluster, "topology", "submit", "--jar", str(own_jar), "--class", main, "--",
               name, str(TOTAL), str(status)).stdout
    assert f"submitted {name}" in out
    topo_id = _running(cluster, name, executors)
    wait_for(f"{name}: tuples acked", lambda: _status(status)[1] > 0, 300)
    _move(cluster, name, topo_id, component)
    emitted_at_move = _status(status)[0]
    wait_for(f"{name}: tuples emitted after the move", lambda: _status(status)[0] > emitted_at_move, 120)
    total = _stop(status)
    wait_for(f"{name}: all {total} tuples acked", lambda: _status(status)[1] == total, 900, 2)
    emitted, acked, failed = _status(status)
    print(f"{name}: emitted {emitted} (at the move: {emitted_at_move}), acked {acked}, failed (replayed) {failed}")
    assert emitted == acked == total
    assert emitted_at_move < total, "the move happened while the stream ran"
    listed = _cli(cluster, "topology", "list").stdout
    assert name in listed
    _kill(cluster, name)


def test_a_jar_topology_with_anchoring_and_fields_grouping_moves_live_and_acks_every_tuple(cluster, own_jar,
                                                                                           tmp_path):
    _acked_exactly_once_across_a_move(cluster, own_jar, tmp_path, "byot.AckedCount", "own-acked", 3, "count")


def test_a_shellbolt_from_the_jars_resources_moves_live_and_acks_every_tuple(cluster, own_jar, tmp_path):
    """upper.py (multilang, run by the python3 on the PATH that --python's default sets) in the moved executor."""
    _acked_exactly_once_across_a_move(cluster, own_jar, tmp_path, "byot.ShellUpper", "own-shell", 5, "upper")


def _keeps_executing_after_a_move(cluster, name: str, topo_id: str, component: str) -> None:
    executor, target = _move(cluster, name, topo_id, component)
    base = _executed(cluster, topo_id, component, executor)
    wait_for(f"{name}: {component} {executor} executing on {target}",
             lambda: _executed(cluster, topo_id, component, executor) > base, 180, 2)


def test_a_flux_topology_with_property_substitution_moves_live(cluster, own_jar):
    flux = FIXTURES / "own_topologies" / "flux"
    out = _cli(cluster, "topology", "submit", "--flux", str(flux / "upper.yaml"),
               "--filter", str(flux / "upper.properties"), "--jar", str(own_jar),
               "--set", "topology.stats.sample.rate=1.0").stdout
    assert "submitted own-flux" in out  # the name came from the properties file
    topo_id = _running(cluster, "own-flux", 5)
    _keeps_executing_after_a_move(cluster, "own-flux", topo_id, "upper")
    _kill(cluster, "own-flux")


def test_a_streamparse_project_with_requirements_moves_live(cluster):
    out = _cli(cluster, "topology", "submit", "--sparse", str(FIXTURES / "sparse_project"),
               "--set", "topology.stats.sample.rate=1.0").stdout
    assert "numbers" in out
    topo_id = _running(cluster, "numbers", 5)
    _keeps_executing_after_a_move(cluster, "numbers", topo_id, "double")
    _kill(cluster, "numbers")


def test_a_main_that_throws_is_one_line_and_a_non_zero_exit(cluster, own_jar):
    p = _cli(cluster, "topology", "submit", "--jar", str(own_jar), "--class", "byot.FailingMain", "--", "x",
             check=False)
    assert p.returncode != 0
    assert p.stderr.strip() == "error: byot.FailingMain failed: java.lang.IllegalStateException: no topology here: x"


def _two_ints(path: Path) -> tuple[int, int]:
    """The two integers a fixture component last wrote to `path`, or (0, 0) before it wrote any."""
    try:
        a, b = map(int, path.read_text().split())
    except (OSError, ValueError):
        return 0, 0
    return a, b


def _fired(path: Path) -> tuple[int, int]:
    """(worker pid, times fired) as FiringRecorder last wrote them."""
    return _two_ints(path)


def test_a_windowed_bolt_and_a_tick_bolt_keep_firing_on_their_new_home(cluster, own_jar, tmp_path):
    name = "own-window-tick"
    _cli(cluster, "topology", "submit", "--jar", str(own_jar), "--class", "byot.WindowAndTick", "--",
         name, "1000000", str(tmp_path))
    topo_id = _running(cluster, name, 5)
    for kind in ("window", "tick"):
        wait_for(f"{kind} bolts firing", lambda: any(_fired(f)[1] > 0 for f in tmp_path.glob(f"{kind}-*")), 300)
        executor, target = _move(cluster, name, topo_id, kind)
        target_pid = worker_pids(cluster.spec, topo_id, {target})[target]
        record = tmp_path / f"{kind}-{executor.start}"
        # The moved task's new instance fires in the target worker's JVM, again and again.
        first = wait_for(f"{kind} {executor} firing in the worker at {target} (pid {target_pid})",
                         lambda: _fired(record)[1] if _fired(record)[0] == target_pid else 0, 180)
        wait_for(f"{kind} {executor} firing again there",
                 lambda: _fired(record)[0] == target_pid and _fired(record)[1] > first, 60)
    _kill(cluster, name)


def test_storms_rebalance_changes_worker_and_executor_counts(cluster, own_jar, tmp_path):
    name = "own-rebalanced"
    _cli(cluster, "topology", "submit", "--jar", str(own_jar), "--class", "byot.AckedCount", "--",
         name, "1000000", str(tmp_path / "status"))
    topo_id = _running(cluster, name, 3)
    out = _cli(cluster, "topology", "rebalance", name, "--workers", "1", "-e", "count=1").stdout
    assert f"rebalancing {name}: 1 workers, count=1" in out
    wait_for(f"{name} on one worker with one count executor",
             lambda: (lambda ps: len({(p.host, p.port) for p in ps}) == 1
                      and sum(p.component == "count" for p in ps) == 1)(placement.placement(cluster.rest, topo_id)),
             600, 2)
    bad = _cli(cluster, "topology", "rebalance", name, "-e", "cuont=1", check=False)
    assert bad.returncode != 0 and "Invalid component cuont" in bad.stderr
    _kill(cluster, name)


def _checkpoints(path: Path) -> tuple[int, int, int, int, int, int]:
    """(worker pid, initState calls, commits, counted total at initState, counted total now, rollbacks) as
    StatefulCountBolt last wrote them."""
    try:
        pid, inits, commits, at_init, now, rollbacks = map(int, path.read_text().split())
    except (OSError, ValueError):
        return 0, 0, 0, 0, 0, 0
    return pid, inits, commits, at_init, now, rollbacks


def test_a_stateful_bolt_with_in_memory_state_moves_live_with_its_state_and_keeps_committing_without_a_rollback(
        cluster, own_jar, tmp_path):
    """KeyValueState with Storm's default in-memory provider, a checkpoint every second. Without state handoff a
    live move that lands between a checkpoint's PREPARE (old instance) and COMMIT (new instance) stopped that
    provider's checkpointing for good (the COMMIT retried, failing in every task); with it the new instance gets
    the state's current, prepared and committed contents and the tuples awaiting their commit. One state
    executor moves to the other node and back, the other one across: each new instance is initialised once
    (from the handoff, no INITSTATE), commits in its new JVM, nothing is rolled back or replayed, the kept
    counts add up to exactly the input, and no worker restarts. The checkpoint spout stays where it is (its own
    transaction is not handed over: Nimbus refuses it with the reason)."""
    _stateful_moves_keep_exact_counts_without_a_rollback(cluster, own_jar, tmp_path, "own-stateful", [],
                                                         spout_refused=True)


def test_a_stateful_bolt_with_a_persistent_provider_moves_live_without_a_rollback(cluster, own_jar, tmp_path):
    """The same checkpointing count with a persistent provider: the suite's file-backed one
    (`io.nonstopstorm.workloads.state.FileStateProvider`, standing in for Redis or HBase; its directory, shared
    by both nodes' workers on this machine, is the store). Before this was built such a move cost one rollback
    and replay of every stateful bolt (the new instance waited for an INITSTATE, its first PREPARE failed); now
    only what the store lacks travels (the old instance's changes since its last commit, and the executor's
    bookkeeping and held acks), and the new instance builds its state from the store at the install. The same
    moves and checks: one initState per instance, commits in the new JVM, no rollback (no bolt's preRollback
    ran), no replay, exact counts, no worker restart."""
    jar = paths.require_dist() / "topologies" / "nonstop-workloads.jar"
    store = tmp_path / "store"
    _stateful_moves_keep_exact_counts_without_a_rollback(
        cluster, own_jar, tmp_path, "own-stateful-file",
        ["--set", "topology.state.provider=io.nonstopstorm.workloads.state.FileStateProvider",
         "--set", f"nonstop.file.state.dir={store}", "--set", f"topology.classpath={jar}"],
        spout_refused=False)
    # The state really was in the provider's files: one directory per state task, each with a commit (a change
    # file per commit, a full copy every 32).
    assert sorted(p.name for p in store.glob("state-*")) == sorted(f"state-{t}" for t in _state_tasks(tmp_path))
    assert all((d / "committed.bin").is_file() or any(d.glob("change-*.bin")) for d in store.glob("state-*"))


def _state_tasks(tmp_path: Path) -> list[str]:
    return [f.name.removeprefix("state-") for f in tmp_path.glob("state-*") if not f.name.endswith(".tmp")
            and f.is_file()]


def _stateful_moves_keep_exact_counts_without_a_rollback(cluster, own_jar, tmp_path, name: str,
                                                         settings: list[str], spout_refused: bool) -> None:
    status = tmp_path / "spout"
    _cli(cluster, "topology", "submit", "--jar", str(own_jar), "--class", "byot.StatefulCount", *settings, "--",
         name, str(TOTAL), str(tmp_path))
    topo_id = _running(cluster, name, 4)  # $checkpointspout, numbers, state x2
    records = lambda: [_checkpoints(f) for f in tmp_path.glob("state-*")  # noqa: E731
                       if not f.name.endswith(".tmp") and f.is_file()]
    wait_for("both state bolts committing counted tuples",
             lambda: (lambda rs: len(rs) == 2 and all(r[2] > 0 and r[4] > 0 for r in rs))(records()), 300)
    places = placement.placement(cluster.rest, topo_id)
    slots = {f"{p.host}:{p.port}" for p in places}
    pids = worker_pids(cluster.spec, topo_id, slots)
    first, second = sorted((p for p in places if p.component == "state"), key=lambda p: p.executor.start)
    home = f"{first.host}:{first.port}"
    away = next(s for s in slots if s.split(":")[0] != first.host)
    spout = next(p for p in places if p.component == "$checkpointspout")

    if spout_refused:
        refused = _cli(cluster, "migrate", name, "--executor", str(spout.executor),
                       "--to", next(s for s in slots if s.split(":")[0] != spout.host), "--wait", "--timeout", "180",
                       check=False)
        assert refused.returncode != 0 and "is not moved live: in_memory_state" in refused.stderr, refused.stderr

    moves = [(first, away), (first, home),
             (second, next(s for s in slots if s.split(":")[0] != second.host))]
    for mover, target in moves:
        record = tmp_path / f"state-{mover.executor.start}"
        emitted_before = _status(status)[0]
        _cli(cluster, "migrate", name, "--executor", str(mover.executor), "--to", target, "--wait", "--timeout", "180")
        assert where_is(cluster.rest, topo_id, mover.executor) == target
        # The new instance was initialised once, from the handed-over state, and commits in the target's JVM.
        now = wait_for(f"state {mover.executor} committing in the worker at {target} (pid {pids[target]})",
                       lambda: (lambda r: r if r[0] == pids[target] and r[2] > 0 else None)(_checkpoints(record)), 120)
        assert now[1] == 1 and now[5] == 0, now
        assert now[3] > 0, f"the new instance started from an empty state: {now}"
        print(f"{name}: {mover.executor} -> {target}: started from a kept total of {now[3]} "
              f"(spout had emitted {emitted_before} before the move)")

    # The moves are done: end the stream, and check the sums against what it emitted.
    total = _stop(status)
    wait_for(f"{name}: all {total} emitted tuples acked", lambda: _status(status)[1] == total, 900, 2)
    emitted, acked, failed = _status(status)
    final = wait_for("both state bolts' last commit recorded",
                     lambda: (lambda rs: rs if len(rs) == 2 and sum(r[4] for r in rs) >= total else None)(records()),
                     60)
    print(f"{name}: emitted {emitted}, acked {acked}, failed (replayed) {failed}; records {final}")
    assert emitted == acked == total and failed == 0
    assert sum(r[4] for r in final) == total, final
    assert all(r[5] == 0 and r[1] == 1 for r in final), f"a rollback or a second initState: {final}"
    assert worker_pids(cluster.spec, topo_id, slots) == pids
    _kill(cluster, name)


def test_a_component_the_topology_pins_is_not_moved_live_and_the_refusal_says_so(cluster, own_jar, tmp_path):
    """`nonstop.migration.pinned` in the topology conf (here from `--set` at submit) keeps a component in place:
    Nimbus rejects a plan that moves it, naming the rule; nothing moves or restarts."""
    name = "own-pinned"
    _cli(cluster, "topology", "submit", "--jar", str(own_jar), "--class", "byot.AckedCount",
         "--set", 'nonstop.migration.pinned=["count"]', "--", name, "1000000", str(tmp_path / "status"))
    topo_id = _running(cluster, name, 3)
    places = placement.placement(cluster.rest, topo_id)
    slots = {f"{p.host}:{p.port}" for p in places}
    mover = next(p for p in places if p.component == "count")
    target = next(s for s in slots if s.split(":")[0] != mover.host)
    pids = worker_pids(cluster.spec, topo_id, slots)
    refused = _cli(cluster, "migrate", name, "--executor", str(mover.executor), "--to", target, "--wait", "--timeout", "180",
                   check=False)
    assert refused.returncode != 0
    assert "rejected" in refused.stderr and "(count) is not moved live: pinned" in refused.stderr, refused.stderr
    assert where_is(cluster.rest, topo_id, mover.executor) == f"{mover.host}:{mover.port}"
    assert worker_pids(cluster.spec, topo_id, slots) == pids
    _kill(cluster, name)


def test_inspect_prometheus_the_controller_and_drain_work_on_an_own_jar_topology(cluster, own_jar, tmp_path):
    """What the suite does for its own workloads it does for a topology it did not write: the metrics plane
    and `inspect` see its components, the Prometheus exporter labels it, a controller cycle decides about
    it, and `drain` empties a node of it."""
    name = "own-ops"
    _cli(cluster, "topology", "submit", "--jar", str(own_jar), "--class", "byot.AckedCount", "--",
         name, "1000000", str(tmp_path / "status"))
    topo_id = _running(cluster, name, 3)
    report = wait_for(f"{name}'s executors measured by the metrics plane",
                      lambda: (lambda r: r if r["workers"] and all(w["status"] == "ok" for w in r["workers"]) else None)(
                          json.loads(_cli(cluster, "inspect", name, "--json", "--wait", "30").stdout)), 240, 2)
    components = {e["component"] for n in report["placement"] for w in n["workers"] for e in w["executors"]}
    assert "count" in components and report["tuples_per_s"] > 0, report

    port = free_port()
    exporter = subprocess.Popen([sys.executable, "-m", "pycontrol", "metrics", "serve", "--port", str(port),
                                 "--interval", "2", "--home", str(cluster.spec.home)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        def labelled():
            try:
                text = requests.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
            except requests.RequestException:
                return None
            return [ln for ln in text.splitlines()
                    if ln.startswith("nonstop_executor_") and f'topology="{name}"' in ln and 'component="count"' in ln]
        assert wait_for(f"exporter lines labelled topology={name}, component=count", labelled, 120, 2)
    finally:
        exporter.terminate()
        exporter.wait(30)

    config = tmp_path / "controller.yml"
    config.write_text(yaml.safe_dump({"cycle_s": 5, "defaults": {"policy": "off"},
                                      "topologies": {name: {"policy": "plan-only"}}}))
    run = _cli(cluster, "run", "--config", str(config), "--once", "--metrics-port", "0")
    (record,) = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    assert record["topology"] == name and record["policy"] == "plan-only", record

    drained = _cli(cluster, "drain", "node2", "--topology", name, "--timeout", "180")
    host = cluster.spec.node_specs[1].host
    assert f"node {host} is empty after" in drained.stdout, drained.stdout
    assert all(p.host != host for p in placement.placement(cluster.rest, topo_id))
    _kill(cluster, name)


# The stream's upper bound (10 words a batch, at most 3 batches in flight): it outlasts two moves. The test ends
# it once both moves are done and batches commit again, so how long it runs does not depend on the machine.
TRIDENT_WORDS = 12_000


def _committed(path: Path) -> tuple[int, int, int]:
    """(batches committed, words committed, words in the stream) as WordBatchSpout last wrote them, or zeros
    before it wrote any."""
    try:
        batches, words, end = map(int, path.read_text().split())
    except (OSError, ValueError):
        return 0, 0, 0
    return batches, words, end


def _counts(path: Path) -> tuple[int, int, dict[str, int]]:
    """(worker pid, updates seen, latest count per word) as CountRecorder last wrote them."""
    try:
        head, *lines = path.read_text().splitlines()
        pid, updates = map(int, head.split())
        return pid, updates, {w: int(c) for w, c in (line.split() for line in lines)}
    except (OSError, ValueError):
        return 0, 0, {}


def test_a_trident_persistent_aggregate_keeps_committing_batches_after_live_moves(cluster, own_jar, tmp_path):
    """Trident word count (MemoryMapState, Count; 2 partitions): one partition's bolt executor and then the
    master batch coordinator move live; batches keep committing to the last one, the moved partition
    aggregates in the target worker, the other partition's counts are exact, and the moved partition's
    counts restart from what the target worker's MemoryMapState holds for its words: nothing."""
    name = "own-trident"
    status = tmp_path / "spout"
    _cli(cluster, "topology", "submit", "--jar", str(own_jar), "--class", "byot.TridentWordCount", "--",
         name, str(TRIDENT_WORDS), str(tmp_path))
    topo_id = _running(cluster, name, 6)  # $mastercoord-bg0, $spoutcoord-spout-words, spout-words, b-0, b-1 x2
    wait_for(f"{name}: both partitions counting", lambda: len(list(tmp_path.glob("counts-?"))) == 2, 300)
    partitions = sorted((p for p in placement.placement(cluster.rest, topo_id) if p.component == "b-1"),
                        key=lambda p: p.executor.start)
    executor, target = _move(cluster, name, topo_id, "b-1")
    moved = next(i for i, p in enumerate(partitions) if p.executor == executor)
    committed_at_move = _committed(status)[1]
    target_pid = worker_pids(cluster.spec, topo_id, {target})[target]
    record = tmp_path / f"counts-{moved}"
    first = wait_for(f"partition {moved} ({executor}) aggregating in the worker at {target} (pid {target_pid})",
                     lambda: _counts(record)[1] if _counts(record)[0] == target_pid else 0, 180)
    wait_for(f"partition {moved} aggregating again there",
             lambda: _counts(record)[0] == target_pid and _counts(record)[1] > first, 60)
    before = _committed(status)[0]
    _move(cluster, name, topo_id, "$mastercoord-bg0")
    wait_for(f"{name}: batches committing after the coordinator's move", lambda: _committed(status)[0] > before, 180)
    (tmp_path / "stop").touch()     # the stream ends at the next batch the spout emits
    words = wait_for(f"{name}: every word of the stream committed",
                     lambda: (lambda c: c[1] == c[2] and c[1])(_committed(status)), 900, 2)
    expected = {f"w{k}": len(range(k, words, 7)) for k in range(7)}
    kept = _counts(tmp_path / f"counts-{1 - moved}")[2]
    restarted = _counts(record)[2]
    print(f"{name}: {committed_at_move} of {words} words committed at the move; "
          f"kept partition {kept}, moved partition {restarted}, expected {expected}")
    assert committed_at_move < words, "the move happened while the stream ran"
    assert kept and kept == {w: expected[w] for w in kept}
    assert restarted and set(restarted).isdisjoint(kept)
    assert all(0 < c < expected[w] for w, c in restarted.items()), "counted from zero in the target worker"
    _kill(cluster, name)
