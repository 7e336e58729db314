"""The OTD experiment's pure parts: samples from a live model, window statistics, the before/after
summary, target verdicts, the series the plots draw, threshold calibration and the option checks."""

import pytest

from pycontrol.bench.otd import summary
from pycontrol.bench.otd.live import RecordingSink, calibrated_thresholds
from pycontrol.bench.otd.runner import make_options
from pycontrol.bench.otd.samples import sample_of
from pycontrol.bench.otd.scaling import parse_sizes, per_pair
from pycontrol.controller.decisions import APPLIED, NO_ACTION, ControllerDecisionRecord
from pycontrol.errors import UserError
from tests.unit.controller.fakes import model

A, A2, B = "10.0.0.1:6700", "10.0.0.1:6701", "10.0.0.2:6700"


def s(at, cpu, share, phase="default"):
    return {"at": at, "phase": phase, "worker_cpu": cpu, "total_tuples_per_s": 100.0, "inter_node_share": share}


def sec(ts, acked, p50=10.0):
    return {"ts": ts, "acked": acked, "latency_p50_ms": p50}


def test_a_sample_holds_placed_workers_cpu_and_the_share_of_tuples_crossing_nodes():
    m = model({"[1-1]": A, "[2-2]": A2, "[3-3]": B}, {("[1-1]", "[2-2]"): 30.0, ("[1-1]", "[3-3]"): 10.0},
              worker_load={A: 0.5, A2: 0.25}, now_s=1234.5)
    got = sample_of(m, "otd")
    assert got.at == 1234.5 and got.phase == "otd"
    assert got.worker_cpu == {A: 0.5, A2: 0.25}          # B's load is unknown: left out, not 0
    assert got.total_tuples_per_s == 40.0 and got.inter_node_share == 0.25


def test_a_sample_of_an_idle_topology_has_no_share():
    assert sample_of(model({"[1-1]": A}), "default").inter_node_share is None


def test_cpu_balance_is_the_coefficient_of_variation():
    assert summary.cpu_cv({"a": 1.0, "b": 1.0}) == 0.0
    assert summary.cpu_cv({"a": 0.5, "b": 1.5}) == pytest.approx(0.5)
    assert summary.cpu_cv({"a": 1.0}) is None and summary.cpu_cv({"a": 0.0, "b": 0.0}) is None
    assert summary.cpu_mean({}) is None


def test_windows_average_samples_and_seconds_inside_them_only():
    samples = [s(0, {"a": 1.0, "b": 1.0}, 0.5), s(5, {"a": 0.5, "b": 1.5}, 0.3), s(10, {"a": 9.0, "b": 9.0}, 0.0)]
    seconds = [sec(0, 100, 20.0), sec(1, 0, 999.0), sec(2, 50, 10.0), sec(10, 7)]
    w = summary.window_stats(samples, seconds, 0, 10)
    assert w["samples"] == 2 and w["seconds"] == 3
    assert w["worker_cpu_mean"] == 1.0 and w["worker_cpu_cv"] == 0.25 and w["inter_node_share"] == 0.4
    assert w["throughput"] == 50.0                       # the idle second counts as 0 ...
    assert w["latency_p50_ms"] == 15.0                   # ... but has no latency


def test_a_worker_otd_emptied_counts_as_a_worker_using_nothing():
    """Three workers before; OTD moves the last executor off one. Its CPU is 0, not left out."""
    samples = [s(0, {"a": 0.3, "b": 0.3, "c": 0.3}, 0.5),
               s(20, {"a": 0.6, "b": 0.6}, 0.5, "otd")]
    doc = summary.summarise(samples, [sec(0, 10), sec(20, 10)], [], {"default": (0, 10), "otd": (10, 30)})
    assert doc["workers"] == 3
    assert doc["default"]["worker_cpu_mean"] == 0.3 and doc["otd"]["worker_cpu_mean"] == 0.4
    assert doc["change_pct"]["worker_cpu_mean"] == pytest.approx(33.3)
    assert doc["otd"]["worker_cpu_cv"] == pytest.approx(0.7071, abs=1e-4)
    series = summary.plot_series(samples, [], [], 0)
    assert series["worker_cpu_mean"]["y"] == pytest.approx([0.3, 0.4])


def test_an_empty_window_has_unknown_figures_and_no_change():
    w = summary.window_stats([], [], 0, 10)
    assert w["throughput"] is None and w["worker_cpu_cv"] is None
    assert summary.change_pct(None, 1.0) is None and summary.change_pct(0.0, 1.0) is None
    assert summary.change_pct(2.0, 3.0) == 50.0 and summary.change_pct(0.5, 0.05) == -90.0


def test_targets_are_signed_percentages():
    v = summary.verdicts({"throughput": 20.0, "inter_node_share": -80.0, "latency_p50_ms": None},
                         {"throughput": 19.0, "inter_node_share": -88.0, "latency_p50_ms": -14.0})
    assert v["throughput"]["met"] is True and v["inter_node_share"]["met"] is False
    assert v["latency_p50_ms"] == {"target_pct": -14.0, "change_pct": None, "met": None}


def test_the_summary_compares_the_default_phase_with_the_settled_end_of_the_otd_phase():
    samples = ([s(t, {"a": 0.2, "b": 0.6}, 0.8) for t in range(0, 60, 5)]
               + [s(t, {"a": 0.6, "b": 0.6}, 0.8, "otd") for t in range(60, 90, 5)]    # moves still settling
               + [s(t, {"a": 0.8, "b": 0.8}, 0.1, "otd") for t in range(90, 120, 5)])
    seconds = [sec(t, 100 if t < 90 else 130) for t in range(120)]
    moves = [{"at": 70.0, "executor": "[3-3]", "from_slot": A, "to_slot": B, "reason": "otd case 1"}]
    doc = summary.summarise(samples, seconds, moves, {"default": (0, 60), "otd": (60, 120)},
                            targets={"worker_cpu_mean": 51.0, "throughput": 14.0})
    assert doc["otd"]["start"] == 90                     # the last half of the OTD phase
    assert doc["default"]["worker_cpu_cv"] == 0.5 and doc["otd"]["worker_cpu_cv"] == 0.0
    assert doc["change_pct"]["worker_cpu_mean"] == 100.0 and doc["change_pct"]["throughput"] == 30.0
    assert doc["change_pct"]["inter_node_share"] == -87.5
    assert doc["targets"]["worker_cpu_mean"]["met"] and doc["targets"]["throughput"]["met"]
    assert doc["moves_made"] == 1 and doc["moves"][0]["reason"] == "otd case 1"


@pytest.mark.parametrize("phases,share", [({"default": (0, 1)}, 0.5), ({"default": (0, 1), "otd": (1, 2)}, 0.0),
                                          ({"default": (0, 1), "otd": (1, 2)}, 1.5)])
def test_the_summary_names_bad_phases_and_shares(phases, share):
    with pytest.raises(ValueError):
        summary.summarise([], [], [], phases, settled_share=share)


def test_plot_series_are_relative_to_the_start_and_skip_unknown_points():
    samples = [s(110, {"a": 1.0, "b": 3.0}, None), s(105, {"a": 1.0}, 0.5)]
    seconds = [sec(101, 0), sec(100, 5, 12.0)]
    got = summary.plot_series(samples, seconds, [{"at": 107.5}], t0=100, phase_switch=104)
    assert got["throughput"] == {"x": [0, 1], "y": [5, 0]}
    assert got["latency_p50_ms"] == {"x": [0], "y": [12.0]}
    # The sample at 105 lacks worker b: it counts as a worker using nothing.
    assert got["worker_cpu_mean"] == {"x": [5, 10], "y": [0.5, 2.0]}
    assert got["worker_cpu_cv"] == {"x": [5, 10], "y": [1.0, 0.5]}
    assert got["inter_node_share"] == {"x": [5], "y": [0.5]}
    assert got["moves"] == [7.5] and got["phase_switch"] == 4


def test_thresholds_calibrate_around_the_mean_worker_share():
    got = calibrated_thresholds([{A: 0.4, B: 0.6}, {A: 0.5}], band=0.2)
    assert got == {"high_cpu": 0.6, "low_cpu": 0.4}
    assert calibrated_thresholds([{A: 2.0}], band=0.5)["high_cpu"] == 0.99     # a share is at most 1
    with pytest.raises(UserError, match="no worker CPU"):
        calibrated_thresholds([{}], band=0.2)


def test_the_sink_keeps_applied_moves_with_their_reasons_and_counts_every_kind():
    from pycontrol.bench.otd.live import RunData
    data, said = RunData("t-1"), []
    move = {"topology": "wc", "executor": "[3-3]", "from_slot": A, "to_slot": B, "reason": "", "expected_gain": 0}
    RecordingSink(data, said.append).publish([
        ControllerDecisionRecord(4, 50.0, "wc", "otd", APPLIED, "computation-bound; otd case 1", applied=[move],
                       outcome="applied"),
        ControllerDecisionRecord(5, 55.0, "wc", "otd", NO_ACTION, "balanced")])
    assert data.decisions == {APPLIED: 1, NO_ACTION: 1}
    assert data.moves == [{"at": 50.0, "cycle": 4, "executor": "[3-3]", "from_slot": A, "to_slot": B,
                           "reason": "computation-bound; otd case 1", "predicted_gain": None, "outcome": "applied"}]
    assert [(c["cycle"], c["kind"], c["reason"]) for c in data.cycles] == [
        (4, APPLIED, "computation-bound; otd case 1"), (5, NO_ACTION, "balanced")]
    assert len(said) == 1


def test_bench_options_name_their_mistakes():
    assert make_options(True).parts == ("compute", "comm", "scaling")
    assert make_options(False, "scaling,comm").parts == ("scaling", "comm")
    for kw, msg in [({"parts": "compute,net"}, "unknown"), ({"otd_s": 10}, "otd-seconds"),
                    ({"band": 1.5}, "band"), ({"comm_rate": 0}, "positive"), ({"sizes": "4by12"}, "sizes")]:
        with pytest.raises(UserError, match=msg):
            make_options(True, **kw)


def test_the_warm_up_control_runs_phase_two_without_moving_anything():
    from pycontrol.bench.otd.runner import comm_experiment, compute_experiment
    for opts, policy in [(make_options(True), "otd"), (make_options(True, control=True), "plan-only")]:
        assert compute_experiment(opts).second_policy == policy
        assert comm_experiment(opts).second_policy == policy


def test_both_experiments_deploy_with_plain_shuffle():
    """With Storm's load-aware shuffle the spout's local split got nearly every sentence, so per-worker
    loads followed the spout, not the placement OTD chose."""
    from pycontrol.bench.otd.runner import comm_experiment, compute_experiment
    for exp in (compute_experiment(make_options(True)), comm_experiment(make_options(True))):
        assert "topology.disable.loadaware.messaging=true" in exp.settings


def test_both_experiments_saturate_and_time_latency_from_the_emits():
    """Offered far more than the cluster takes, throughput is the placement's capacity; latency from
    intended times would only grow with the backlog, so it is measured from the emits."""
    from pycontrol.bench.otd.runner import comm_experiment, compute_experiment
    for exp in (compute_experiment(make_options(True)), comm_experiment(make_options(True))):
        settings = dict(x.split("=", 1) for x in exp.settings)
        assert settings["workload.latency.from"] == "emit"
        assert int(settings["topology.max.spout.pending"]) > 0 and float(settings["workload.rate"]) >= 10_000


def test_the_compute_experiment_fills_every_slot_of_its_uneven_nodes_with_fixed_thresholds_when_pinned():
    """One worker per slot, so Storm's default spreads the executors over all six workers, five of them on
    one node; pinned nodes make the worker shares absolute, so the thresholds are fixed, and only
    unpinned nodes (or --band) calibrate them."""
    from pycontrol.bench.otd.runner import COMPUTE_NODE_SLOTS, compute_experiment
    exp = compute_experiment(make_options(True))
    settings = dict(x.split("=", 1) for x in exp.settings)
    assert int(settings["topology.workers"]) == sum(COMPUTE_NODE_SLOTS) and len(set(COMPUTE_NODE_SLOTS)) == 2
    assert int(settings["workload.par.split"]) % int(settings["topology.workers"]) == 0
    assert exp.calibrate_band is None and exp.otd_params["low_cpu"] < exp.otd_params["high_cpu"]
    assert compute_experiment(make_options(True, pin_nodes=False)).calibrate_band == 0.15
    assert compute_experiment(make_options(True, band=0.2)).calibrate_band == 0.2


def test_nodes_get_equal_disjoint_cpu_sets_or_none():
    from pycontrol.bench.otd.runner import node_cpus
    assert node_cpus(2, [0, 1]) == ((0,), (1,))
    assert node_cpus(2, [0, 1, 2, 3, 4]) == ((0, 1), (2, 3))
    assert node_cpus(2, [5]) == ()


def test_scaling_sizes_and_per_pair_times():
    assert parse_sizes(" 4x12, 10x100 ") == "4x12,10x100"
    with pytest.raises(UserError):
        parse_sizes("0x12")
    rows = per_pair([{"ok": True, "executors": 100, "workers": 20, "median_thread_cpu_ms": 4.0},
                     {"ok": False, "executors": 1, "workers": 1}])
    assert [(r["e_times_n"], r["thread_cpu_us_per_pair"]) for r in rows] == [(2000, 2.0)]


def test_a_failing_part_is_reported_and_the_others_still_run(tmp_path, monkeypatch):
    from pycontrol.bench.otd import runner
    ran = []

    def part(name, *args):
        ran.append(name)
        if name == "compute":
            raise UserError("timed out after 900 s waiting for acked tuples")
        return {"rows": []}, []

    monkeypatch.setattr(runner, "_run_part", part)
    report, written = runner.run_benchmark(make_options(True, "compute,scaling"), tmp_path, 31000, tmp_path,
                                           lambda m: None)
    assert ran == ["compute", "scaling"]
    assert report["parts"]["compute"]["error"] == "timed out after 900 s waiting for acked tuples"
    assert report["parts"]["scaling"]["rows"] == []
    assert written == [tmp_path / "summary.json"] and (tmp_path / "summary.json").exists()
