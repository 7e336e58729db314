"""The migration benchmark end to end, shortened to seconds of measurement (n = 1, one move of one
executor, 4 workers at 100 sentences/s): the worker-restart scheme on its own fresh cluster loads the
agent in no JVM and still applies the plan (the worker restarts); a nonstop run on the session's cluster
reaches every sending worker; both carry the finer per-move measures into the benchmark's JSON."""

from __future__ import annotations

import json

import pytest

from pycontrol.bench.migration import report, runner
from pycontrol.bench.migration.schemes import NONSTOP_PLUS, WORKER_RESTART, ClusterRun, Segment, make_options
from tests.conftest import TEST_PORT_BASE

PORT_BASE = TEST_PORT_BASE + 4400
RATE = 100
SETTINGS = ("topology.workers=4", "workload.par.split=4", "workload.par.count=4", "topology.message.timeout.secs=10",
            f"workload.rate={RATE}")


def _opts(scheme: str):
    return make_options(False, scheme, "1", 30, 15, None, RATE, 1, 0, repeat=1)


def _check_move_measures(seg: dict) -> None:
    (move,) = seg["per_move"]
    assert move["steady"]["seconds"] >= 5 and move["after"]["seconds"] == 15, move
    assert move["steady"]["latency_p99_ms"] is not None and move["above_2x_steady_p99_s"] is not None, move
    # The spout's own ack gaps (1 ms resolution) reached the series: a steady second has one well under 1 s.
    assert move["steady"]["longest_ack_gap_ms"] is not None and move["steady"]["longest_ack_gap_ms"] < 1000, move
    assert seg["moves_summary"]["longest_ack_gap_ms"] is not None


@pytest.mark.slow
def test_worker_restart_runs_stock_storm_with_no_agent_and_reports_the_finer_measures(tmp_path):
    run = ClusterRun(WORKER_RESTART.name, WORKER_RESTART.migration, WORKER_RESTART.conf, (Segment(WORKER_RESTART, 1),))
    lines: list[str] = []
    (seg,) = runner.run_cluster(run, _opts("worker-restart"), tmp_path / "home", PORT_BASE, lines.append,
                                settings=SETTINGS)
    census = seg["agent_census"]
    assert census["jvms"] >= 5 and census["with_agent"] == 0, census       # zk, nimbus, ui, supervisors, workers
    (move,) = seg["moves"]
    assert move["decision"] == "applied", move
    assert seg["restarted_workers"], seg["restarted_workers"]                 # the stock way: workers relaunched
    _check_move_measures(seg)
    runner.summarize([seg], {0: float(RATE)})
    doc = json.loads(json.dumps(report.document(_opts("worker-restart"), [WORKER_RESTART], [seg],
                                                {"throughput_mean": RATE}, {})))
    (row,) = doc["by_configuration"]
    assert row["n"] == 1 and row["longest_ack_gap_ms"]["n"] == 1 and row["above_2x_steady_p99_s"]["n"] == 1
    assert doc["segments"][0]["agent_census"]["with_agent"] == 0


@pytest.mark.slow
def test_a_nonstop_move_is_in_effect_once_every_sending_worker_routes_to_the_new_home(cluster):
    run = ClusterRun(NONSTOP_PLUS.name, True, (), (Segment(NONSTOP_PLUS, 1),))
    lines: list[str] = []
    (seg,) = runner.measure_on(cluster.spec, run, _opts("nonstop+"), lines.append, settings=SETTINGS)
    assert seg["agent_census"]["with_agent"] >= 4, seg["agent_census"]
    (move,) = seg["moves"]
    assert move["decision"] == "applied", move
    (moved,) = move["moves"]
    assert moved["component"] in ("split", "count") and moved["senders"], moved
    all_senders = seg["plan_to_effect"]["all_senders"]
    (each,) = all_senders["moves"]
    assert each["missing"] == [] and each["ms"] is not None, all_senders
    assert each["workers"] >= len({moved["from"], moved["to"], *moved["senders"]})
    # Every sending worker counts: the effect is never earlier than the source and target switch alone.
    assert seg["plan_to_effect"]["missing"] == 0, seg["plan_to_effect"]
    assert each["ms"] >= seg["plan_to_effect"]["each_ms"][0], seg["plan_to_effect"]
    assert seg["restarted_workers"] == []
    _check_move_measures(seg)
