"""State handoff when the destination worker dies during it (F1, docs/state-handoff.md), on a dedicated real
2-node cluster (the test kills a worker, so Storm must wait for its relaunch: RELAUNCH_PATIENT).

The Java word count with one `count` executor (it opts in: its count map is its state) and the spout in the
same worker, A. The count executor moves to the other worker, B, whose install is held back by a test-only
worker property; B's worker JVM is SIGKILLed in that window: after the barrier (A sent its snapshot and
processes nothing of the executor any more), before the install. The plan still says B: the supervisor
relaunches B's worker on its slot, the new instance waits for its state with a closed gate, A sends the copy
it kept again, and B confirms the install to A. Tuples lost with B time out and are replayed by the spout;
since one task counts every word and none was counted on B before the install nor on A after the barrier,
the final count of every word equals a direct count of what the spout emitted: nothing lost, nothing
counted twice."""

from __future__ import annotations

import os
import signal
import time

import psutil
import pytest

from pycontrol import zk
from pycontrol.cluster.spec import make_spec
from pycontrol.migration.events import first
from pycontrol.migration.observe import slot_events, worker_pids
from pycontrol.storm import placement
from pycontrol.workloads.outputs import read_counts
from tests.conftest import RELAUNCH_PATIENT, TEST_PORT_BASE, live_cluster, wait_for
from tests.integration.migration_runs import (FeedSwitch, Mover, expected_counts, pids_of, wait_counts_exact,
                                              wait_stream_settled)
from tests.integration.workload_runs import Run, sentences_subset

pytestmark = pytest.mark.cluster

PORT_BASE = TEST_PORT_BASE + 600   # its own block: clear of the session cluster and the other dedicated ones
NAME = "handoff-f1"
INSTALL_DELAY_MS = 20_000          # the target's first install waits this long: the window for the kill
CONFIRM_TIMEOUT_MS = 300_000       # the source keeps its copy this long: a relaunch here can take minutes
RATE = 20                          # sentences/s
SENTENCES = 300
COUNTED_BEFORE = 200               # words counted before the move, so the moving instance has state
RUN_AFTER_S = 4


@pytest.fixture(scope="module")
def fcluster(tmp_path_factory):
    with live_cluster(make_spec(tmp_path_factory.mktemp("handoff-faults"), nodes=2, slots=2, port_base=PORT_BASE,
                                extra_conf=RELAUNCH_PATIENT)) as c:
        yield c


def _events(cluster, slot, t0_ms, kind, **fields):
    return [e for e in slot_events(cluster.spec, slot)
            if e.get("event") == kind and e.get("t_ms", 0) >= t0_ms and all(e.get(k) == v for k, v in fields.items())]


def test_the_state_reaches_the_relaunched_destination_when_its_worker_dies_during_the_handoff(fcluster, tmp_path):
    cluster = fcluster
    input_file = sentences_subset(tmp_path, SENTENCES)
    feed = FeedSwitch(tmp_path / "rate-schedule.txt")
    run = Run(cluster, "wordcount-java", NAME,
              [f"workload.input={input_file}", "workload.total=0", feed.setting(), "topology.workers=2",
               "workload.par.split=2", "workload.par.count=1", "topology.message.timeout.secs=30",
               f"nonstop.migration.state.confirm.timeout.ms={CONFIRM_TIMEOUT_MS}",
               f"topology.worker.childopts=-Dnonstop.migration.test.handoff.install.delay.ms={INSTALL_DELAY_MS}"])
    client = zk.connect(cluster.zk_hosts, auth=cluster.zk_auth)
    try:
        def placed():
            places = placement.placement(cluster.rest, run.topo_id)
            slots = {f"{p.host}:{p.port}" for p in places}
            if len(slots) != 2 or len({s.rsplit(':', 1)[0] for s in slots}) != 2:
                return None
            spout = next((p for p in places if p.component == "sentences"), None)
            count = next((p for p in places if p.component == "count"), None)
            return (slots, spout, count) if spout and count else None
        slots, spout, count = wait_for("both workers up on different nodes", placed, 300, 2)
        a = f"{spout.host}:{spout.port}"             # the spout's worker: it must outlive the fault
        b = next(s for s in slots if s != a)
        task = count.executor.start
        pids = pids_of(cluster, run.topo_id, (a, b))
        mover = Mover(cluster, client, NAME, run.topo_id, timeout_s=180, handoffs=True)
        feed.start(RATE)
        wait_for(f"{COUNTED_BEFORE} words counted", lambda: read_counts(run.dirs(), "count").tuples >= COUNTED_BEFORE,
                 180, 1)
        if mover.assignment()[count.executor] != a:
            # The counts first join the spout in A (an ordinary handoff, its install held back as well).
            mover.finish(mover.move(count.executor, a))

        t0_ms = time.time() * 1000
        mover.move(count.executor, b)
        delayed = wait_for("B received the whole snapshot and holds its install back",
                           lambda: _events(cluster, b, t0_ms, "handoff_install_delayed", task=task), 120, 0.02)
        os.kill(pids[b], signal.SIGKILL)
        killed_ms = time.time() * 1000
        assert killed_ms < delayed[0]["t_ms"] + INSTALL_DELAY_MS, "the kill came after the install window"
        # A logs its send once every chunk is out, B its delay on arrival: either may come first.
        sent = wait_for("A's handoff_sent", lambda: _events(cluster, a, t0_ms, "handoff_sent", task=task), 30, 0.1)
        assert len(sent) == 1 and sent[0]["attempt"] == 1 and sent[0]["bytes"] > 0, sent
        assert not _events(cluster, b, t0_ms, "handoff_installed", task=task), "B installed before it was killed"

        def relaunched():
            pid = worker_pids(cluster.spec, run.topo_id, {b}).get(b)
            return pid if pid and pid != pids[b] and psutil.pid_exists(pid) else None
        new_pid = wait_for("the supervisor relaunching B's worker on its slot", relaunched, 300, 0.5)
        # The relaunched instance waits for the state as a fresh target does, and gets A's kept copy again.
        awaiting = wait_for("B's new instance waiting for its state",
                            lambda: _events(cluster, b, killed_ms, "handoff_awaiting", task=task), 300, 0.5)
        installed = wait_for("B installing A's resent copy",
                             lambda: _events(cluster, b, killed_ms, "handoff_installed", task=task), 300, 0.5)
        confirmed = wait_for("A told of the install",
                             lambda: _events(cluster, a, t0_ms, "handoff_confirmed", task=task), 120, 0.5)
        released = wait_for("B's gate opened with the state",
                            lambda: _events(cluster, b, killed_ms, "handoff_released", task=task), 60, 0.5)
        assert len(installed) == 1 and installed[0]["attempt"] >= 2, installed
        assert installed[0]["plan_version"] == sent[0]["plan_version"], (installed, sent)
        assert [e["attempt"] for e in confirmed] == [installed[0]["attempt"]], confirmed
        assert released[0]["reason"] == "installed", released
        assert awaiting[0]["t_ms"] <= installed[0]["t_ms"], (awaiting, installed)
        resent = _events(cluster, a, t0_ms, "handoff_resent", task=task)
        assert resent and resent[-1]["attempt"] >= installed[0]["attempt"], resent
        assert not [e for e in _events(cluster, a, t0_ms, "handoff_gave_up") + _events(cluster, b, t0_ms,
                                                                                        "handoff_gave_up")], \
            "a handoff gave up"

        time.sleep(RUN_AFTER_S)   # traffic on the new home, not a check
        feed.stop()
        totals = wait_stream_settled(run, 300)
        print(f"emitted {totals.emitted}, acked {totals.acked}, failed {totals.failed}, replayed {totals.replayed}; "
              f"killed {killed_ms - t0_ms:.0f} ms after the plan, B relaunched as pid {new_pid}, "
              f"installed on attempt {installed[0]['attempt']}, confirmed {confirmed[0]['took_ms']} ms after the "
              f"first send")
        assert totals.acked == totals.emitted, totals
        wait_counts_exact(run, expected_counts(input_file, totals.emitted), 60)
        assert worker_pids(cluster.spec, run.topo_id, {a}) == {a: pids[a]}, "A's worker restarted"
        assert first(slot_events(cluster.spec, a), "stopped", t0_ms, executor=str(count.executor)), \
            "A never shut its old instance down"
    finally:
        client.stop()
        client.close()
        run.kill()
