"""OTD against its control, window by window: the windows, medians and spreads, the verdicts, the
printed lines and the document the demo's controller part writes."""

import json

import pytest

from pycontrol.bench.otd import comparison
from pycontrol.bench.otd.comparison import compare, median_and_spread, verdict, windows
from pycontrol.bench.otd.summary import node_cpu_cv
from pycontrol.errors import UserError

A, B = "10.0.0.1:6700", "10.0.0.2:6700"


def sec(ts, acked, p50=10.0, p99=50.0):
    return {"ts": ts, "acked": acked, "latency_p50_ms": p50, "latency_p99_ms": p99}


def smp(at, cpu, share):
    return {"at": at, "phase": "otd", "worker_cpu": cpu, "total_tuples_per_s": 1.0, "inter_node_share": share}


def test_windows_are_complete_slices_from_the_phase_start():
    rows = [sec(100 + i, 10 * (i // 10 + 1)) for i in range(35)]
    samples = [smp(100 + 5 * i, {A: 0.5, B: 0.5}, 0.2) for i in range(7)]
    got = windows(samples, rows, 100.0, 135.0, 10.0, workers=2)
    assert [w["offset_s"] for w in got] == [0, 10, 20]               # 30-35 is partial: dropped
    assert [w["throughput"] for w in got] == [10, 20, 30]
    assert got[0]["worker_cpu_cv"] == 0 and got[0]["inter_node_share"] == 0.2
    assert got[0]["worker_cpu_mean"] == 0.5
    assert got[0]["latency_p99_ms"] == 50


def test_a_window_s_latency_skips_seconds_without_acks_and_empty_windows_have_none():
    got = windows([], [sec(0, 0, p50=999), sec(1, 4, p50=20)], 0.0, 20.0, 10.0, workers=2)
    assert got[0]["throughput"] == 2 and got[0]["latency_p50_ms"] == 20
    assert got[1] == {"offset_s": 10, "throughput": None, "latency_p50_ms": None, "latency_p99_ms": None,
                      "worker_cpu_mean": None, "worker_cpu_cv": None, "node_cpu_cv": None, "inter_node_share": None}
    assert got[0]["worker_cpu_cv"] is None


def test_an_emptied_worker_counts_as_zero_in_the_imbalance():
    got = windows([smp(0, {A: 1.0}, 0.0)], [], 0.0, 10.0, 10.0, workers=2)
    assert got[0]["worker_cpu_cv"] == 1.0


def test_node_imbalance_is_over_nodes_busy_shares_not_workers():
    # node1's one worker runs what node2's three run between them: the workers are uneven, the nodes even.
    cpu = {"h1:1": 0.9, "h2:1": 0.3, "h2:2": 0.3, "h2:3": 0.3}
    got = windows([smp(0, cpu, 0.0)], [], 0.0, 10.0, 10.0, workers=4, node_cpus={"h1": 1, "h2": 1})
    assert got[0]["node_cpu_cv"] == 0.0 and got[0]["worker_cpu_cv"] > 0.4
    # A node with twice the CPUs is as busy with twice the cores; a node running nothing counts as 0.
    assert node_cpu_cv({"h1:1": 0.5, "h2:1": 1.0}, {"h1": 1, "h2": 2}) == 0.0
    assert node_cpu_cv({"h1:1": 1.0}, {"h1": 1, "h2": 1}) == 1.0
    assert node_cpu_cv({"h1:1": 1.0}, {"h1": 1}) is None
    # Without the nodes' CPUs the figure is unknown, not a guess.
    assert windows([smp(0, cpu, 0.0)], [], 0.0, 10.0, 10.0, workers=4)[0]["node_cpu_cv"] is None


def test_median_and_interquartile_range():
    assert median_and_spread([1, 2, 3, 4, 100]) == (3, (2, 4))       # one outlier does not widen it
    assert median_and_spread([None, 5.0]) == (5.0, (5.0, 5.0))
    assert median_and_spread([None]) == (None, None)


def test_verdict_needs_spreads_apart_and_knows_which_way_is_good():
    assert verdict("throughput", (110, 120), (90, 100), 115, 95) is True
    assert verdict("throughput", (80, 85), (90, 100), 82, 95) is False
    assert verdict("latency_p50_ms", (10, 20), (30, 40), 15, 35) is True
    assert verdict("inter_node_share", (0.5, 0.6), (0.2, 0.3), 0.55, 0.25) is False
    assert verdict("throughput", (95, 120), (90, 100), 110, 95) is None      # overlap: no clear difference
    assert verdict("throughput", None, (90, 100), None, 95) is None


def test_compare_lists_every_metric_with_change_and_verdict():
    otd = [{"offset_s": 0, "throughput": t, "latency_p50_ms": 10.0, "latency_p99_ms": 40.0,
            "worker_cpu_cv": 0.2, "node_cpu_cv": 0.1, "inter_node_share": 0.4} for t in (150, 160, 170)]
    control = [{"offset_s": 0, "throughput": t, "latency_p50_ms": 12.0, "latency_p99_ms": 40.0,
                "worker_cpu_cv": None, "node_cpu_cv": 0.1, "inter_node_share": 0.3} for t in (100, 110, 120)]
    rows = {r["metric"]: r for r in compare(otd, control)}
    assert list(rows) == list(comparison.METRICS)
    t = rows["throughput"]
    assert (t["otd_median"], t["otd_spread"]) == (160, [155, 165])
    assert (t["control_median"], t["control_spread"]) == (110, [105, 115])
    assert t["change_pct"] == 45.5 and t["better"] is True
    assert rows["latency_p50_ms"]["better"] is True
    assert rows["latency_p99_ms"]["better"] is None and rows["latency_p99_ms"]["change_pct"] == 0
    assert rows["worker_cpu_cv"]["control_median"] is None and rows["worker_cpu_cv"]["better"] is None
    assert rows["inter_node_share"]["better"] is False


def test_the_lines_say_plainly_where_otd_did_not_win():
    rows = [{"metric": m, "otd_median": 1.0, "otd_spread": [0.9, 1.1], "control_median": 1.0,
             "control_spread": [0.9, 1.1], "change_pct": 0.0, "better": None} for m in comparison.METRICS]
    rows[-1] |= {"better": False, "change_pct": 50.0}
    lines = comparison.summary_lines(rows, [], (4, 4), 10.0)
    assert "OTD did not beat the control on any metric." in lines
    assert any(line.startswith("OTD was worse than the control on: inter-node tuple share") for line in lines)
    assert any("no clear difference" in line for line in lines)
    won = [dict(r, better=True) if r["metric"] == "throughput" else r for r in rows]
    assert "OTD beat the control on: throughput (acked/s)." in comparison.summary_lines(won, [], (4, 4), 10.0)


def test_a_run_that_acked_nothing_for_a_while_is_flagged():
    ok = [{"offset_s": 0, "throughput": 5.0}, {"offset_s": 10, "throughput": 6.0}]
    stalled = [{"offset_s": 0, "throughput": 5.0}, {"offset_s": 10, "throughput": 0.0},
               {"offset_s": 20, "throughput": None}]
    assert comparison.stall_warnings({"control": ok}) == []
    got = comparison.stall_warnings({"OTD": stalled, "control": ok})
    assert got == ["warning: the OTD run acked nothing in 2 of its 3 windows (from 10 s): it stalled, "
                   "so the comparison is not a fair one"]


def _run(phase0, acked, moves=(), decisions=None):
    from pycontrol.bench.otd.live import RunData
    from pycontrol.bench.otd.samples import Sample
    d = RunData("t-1", phases={"default": (phase0 - 30, phase0), "otd": (phase0, phase0 + 40)})
    d.seconds = [sec(phase0 + i, acked) for i in range(40)]
    d.samples = [Sample(phase0 + 5 * i, "otd", {A: 0.5, B: 0.3}, 10.0, 0.1) for i in range(8)]
    d.moves = [dict(m) for m in moves]
    d.decisions = decisions or {}
    d.worker_cpus = {6700: (0,), 6721: (1,)}
    return d


NETNS = {"nodes": 2, "node_slots": [1, 3], "node_cpus": [[0], [1]], "network": "netns", "link_bandwidth": "100mbit",
         "node_hosts": ["10.0.0.11", "10.0.0.12"]}
LOOPBACK = {**NETNS, "network": "loopback", "link_bandwidth": None}


def test_the_document_has_both_runs_every_metric_the_moves_and_the_figure(tmp_path):
    from pycontrol.bench.otd.controlled import build_document
    move = {"at": 1010.0, "cycle": 3, "executor": "[5-5]", "from_slot": B, "to_slot": A, "reason": "otd case 1",
            "predicted_gain": None, "outcome": "applied"}
    doc = build_document(_run(1000.0, 300, [move]), _run(5000.0, 200), spec_info=NETNS, warmup_s=30,
                         phase_s=40, port_base=26000, home=tmp_path / "h", out_dir=tmp_path)
    json.dumps(doc)
    assert doc["moves"] == [{"executor": "[5-5]", "from_slot": B, "to_slot": A, "reason": "otd case 1", "ts": 1010.0,
                             "outcome": "applied"}]
    assert [r["metric"] for r in doc["comparison"]] == list(comparison.METRICS)
    assert doc["comparison"][0]["change_pct"] == 50.0 and doc["comparison"][0]["better"] is True
    assert doc["runs"]["otd"]["moves_made"] == 1 and doc["runs"]["control"]["moves_made"] == 0
    assert doc["runs"]["otd"]["worker_cpus"] == {"6700": [0], "6721": [1]}
    assert len(doc["runs"]["control"]["windows"]) == 4
    assert all((tmp_path / "controller.png").samefile(f) for f in doc["figures"])
    assert "--pin-cpus" in "\n".join(doc["commands"])
    assert any("[5-5]" in line for line in doc["summary_lines"])
    # What the nodes ran on is said, and the commands rebuild the same shaped links.
    assert "  nodes: pinned to CPU 0 and CPU 1; each in its own network namespace, its link shaped to 100mbit (tbf)" \
        in doc["summary_lines"]
    assert "--network netns --link-bandwidth 100mbit" in doc["commands"][2] and "network=" in doc["commands"][0] and "netns" in doc["commands"][0]


def test_on_loopback_the_summary_says_the_nodes_share_no_network(tmp_path):
    from pycontrol.bench.otd.controlled import build_document
    doc = build_document(_run(1000.0, 300), _run(5000.0, 200), spec_info=LOOPBACK, warmup_s=30, phase_s=40,
                         port_base=26000, home=tmp_path, out_dir=tmp_path)
    assert any(line.startswith("  nodes: pinned to CPU 0 and CPU 1; loopback addresses") for line in doc["summary_lines"])
    assert "--network" not in doc["commands"][2]


def test_both_runs_are_compared_over_the_same_stretch_when_a_phase_ended_late(tmp_path):
    from pycontrol.bench.otd.controlled import build_document
    late = _run(1000.0, 300)
    late.phases["otd"] = (1000.0, 1130.0)          # a cycle waited 90 s on a move's verification
    late.seconds = [sec(1000.0 + i, 300) for i in range(130)]
    doc = build_document(late, _run(5000.0, 200), spec_info=LOOPBACK, warmup_s=30, phase_s=40, port_base=26000,
                         home=tmp_path, out_dir=tmp_path)
    assert len(doc["runs"]["otd"]["windows"]) == len(doc["runs"]["control"]["windows"]) == 4


def test_a_run_without_moves_says_so_and_why(tmp_path):
    from pycontrol.bench.otd.controlled import build_document
    doc = build_document(_run(1000.0, 200, decisions={"no-action": 8}), _run(5000.0, 200), spec_info=LOOPBACK,
                         warmup_s=30, phase_s=40, port_base=26000, home=tmp_path, out_dir=tmp_path)
    assert doc["moves"] == []
    assert any("OTD made no move" in line and "no-action 8" in line for line in doc["summary_lines"])


def test_phases_too_short_for_three_windows_are_refused():
    from pycontrol.bench.otd.controlled import controller_experiment
    with pytest.raises(UserError, match="at least 30 s"):
        controller_experiment("otd", 30, 25)
    with pytest.raises(UserError, match="warm-up"):
        controller_experiment("otd", 5, 60)
    exp = controller_experiment("plan-only", 30, 40)
    assert (exp.default_s, exp.otd_s, exp.second_policy, exp.warmup_s) == (30, 40, "plan-only", 0)
    # No wait to settle at the offered rate (neither placement takes it by design); the warm-up is left out.
    assert exp.settle_rate is None
    # The splits' harmonic sums are made heavy: they, not Storm's per-tuple work, bound the topology.
    from pycontrol.bench.otd.controlled import HEAVY_BASE
    assert f"workload.heavy.base={HEAVY_BASE}" in exp.settings
    # CPU thresholds come from the warm-up's worker shares, not fixed values.
    assert exp.calibrate_band is not None and not {"high_cpu", "low_cpu"} & set(exp.otd_params)


def test_the_offered_rate_line_says_which_run_took_the_offered_rate():
    def table(otd, control):
        return [{"metric": "throughput", "otd_median": otd, "control_median": control}]
    assert "above what either run took" in comparison.offered_rate_line(table(800, 500), 2000)
    assert "both runs took it" in comparison.offered_rate_line(table(1990, 1850), 2000)
    line = comparison.offered_rate_line(table(1900, 1200), 2000)
    assert "the OTD run took it, the control run fell behind" in line
    assert "the control run took it, the OTD run fell behind" in comparison.offered_rate_line(table(None, 1900), 2000)


def test_an_ab_run_gives_the_median_acked_rate_and_mean_worker_cpu_of_its_windows():
    from pycontrol.bench.otd import ab
    windows, medians = ab.measured(_run(1000.0, 300), 40, {"10.0.0.11": 1, "10.0.0.12": 1})
    assert len(windows) == 4
    assert medians == {"throughput": 300, "worker_cpu_mean": pytest.approx(0.4)}
