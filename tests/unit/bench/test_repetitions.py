"""Repetitions of the migration benchmark: rotated orders, machine records and busy starts, per-repetition
baselines, and the per-configuration spread."""

from pathlib import Path

from pycontrol.bench.migration import machine, report, runner
from pycontrol.bench.migration.schemes import make_options, plan_runs, repetitions
from pycontrol.bench.migration.spread import spread, text
from tests.unit.bench.test_report import segment


def test_every_run_appears_once_per_repetition_and_no_run_is_always_first():
    runs = plan_runs(make_options(True, "nonstop+,worker-restart", None, None, None, None, 400, 1, None))
    order = repetitions(runs, 3)
    assert [(i, r.name) for i, r in order] == [
        (0, "stock"), (0, "nonstop+"), (0, "worker-restart"),
        (1, "nonstop+"), (1, "worker-restart"), (1, "stock"),
        (2, "worker-restart"), (2, "stock"), (2, "nonstop+")]


def test_cpu_frequency_from_cpufreq_else_cpuinfo_else_none():
    info = "processor\t: 0\ncpu MHz\t\t: 2400.000\nprocessor\t: 1\ncpu MHz\t\t: 2600.500\nflags\t: fpu\n"
    assert machine.cpuinfo_mhz(info) == [2400.0, 2600.5]
    assert machine.cpuinfo_mhz("processor : 0\nBogoMIPS : 50.00\n") == []
    assert machine.cpu_mhz([1_800_000, 2_200_000], [2400.0]) == 2000.0    # sysfs wins (kHz)
    assert machine.cpu_mhz([], [2400.0, 2600.5]) == 2500.2
    assert machine.cpu_mhz([], []) is None


def test_a_machine_is_busy_above_three_quarters_of_its_cpus():
    assert not machine.is_busy(1.5, 2) and machine.is_busy(1.51, 2)
    rec = machine.record((3.0, 2.0, 1.0), None, 2)
    assert rec == {"loadavg": [3.0, 2.0, 1.0], "cpu_mhz": None, "cpus": 2, "busy": True}


def test_waiting_for_quiet_stops_when_the_load_drops_or_the_time_is_up():
    t = [0.0]
    loads = iter([3.0, 2.0, 1.0, 0.5])
    got, waited = machine.wait_quiet(60, lambda: machine.record((next(loads), 0, 0), None, 2), lambda: t[0],
                                     lambda s: t.__setitem__(0, t[0] + s), poll_s=5)
    assert got["loadavg"][0] == 1.0 and waited == 10.0
    t[0] = 0.0
    got, waited = machine.wait_quiet(12, lambda: machine.record((9.0, 0, 0), None, 2), lambda: t[0],
                                     lambda s: t.__setitem__(0, t[0] + s), poll_s=5)
    assert got["busy"] and waited == 15.0


def test_spread_is_n_median_and_range_of_what_was_measured():
    assert spread([3, None, 1, 10]) == {"n": 3, "median": 3, "min": 1, "max": 10}
    assert spread([None]) is None
    assert text(spread([3, 1, 10])) == "3 [1-10]" and text(spread([2.26]), 1) == "2.3" and text(None) == "-"


def test_each_segment_is_judged_against_its_own_repetitions_baseline_else_the_mean():
    segs = [segment("baseline", None, [100] * 10) | {"repetition": 0},
            segment("baseline", None, [50] * 10) | {"repetition": 1, "busy_start": True},
            segment("baseline", None, [80] * 10) | {"repetition": 1},
            segment("nonstop+", 1, [80] * 10) | {"repetition": 1},
            segment("nonstop+", 1, [80] * 10) | {"repetition": 2}]
    by_rep = runner.baseline_throughputs(segs)
    assert by_rep == {0: 100.0, 1: 80.0}           # the quiet baseline of repetition 1, not the busy one
    assert runner.summarize(segs, by_rep) == 90.0
    assert segs[3]["summary"]["throughput_vs_baseline"] == 1.0 and segs[3]["baseline_throughput_used"] == 80.0
    assert segs[4]["baseline_throughput_used"] == 90.0


def test_configurations_spread_over_repetitions_and_leave_busy_starts_out():
    segs = [segment("nonstop+", 1, [100] * 5 + [0] * k + [100] * (5 - k), {"n": 1, "p50": p, "p99": p, "max": p})
            | {"repetition": i, "busy_start": busy}
            for i, (k, p, busy) in enumerate([(0, 400.0, False), (2, 600.0, False), (5, 9000.0, True), (1, 500.0, False)])]
    (row,) = report.by_configuration(segs)
    assert row["configuration"] == "nonstop+ M=1" and row["n"] == 3 and row["busy_start_left_out"] == 1
    assert row["degradation_100_s"] == {"n": 3, "median": 1, "min": 0, "max": 2}
    assert row["plan_to_effect_p50_ms"] == {"n": 3, "median": 500.0, "min": 400.0, "max": 600.0}


def test_a_run_that_starts_busy_is_run_once_more_and_both_are_kept(monkeypatch, tmp_path):
    opts = make_options(True, "nonstop+", "1", 10, 5, None, 100, 1, None, repeat=2)
    calls = []

    def fake_run(run, rep, opts, home, port_base, echo, repeat_of_busy=False):
        busy = run.name == "nonstop+" and rep == 0 and not repeat_of_busy
        calls.append((rep, run.name, repeat_of_busy))
        return [dict(segment(s.scheme.name, s.m, [100] * 10), repetition=rep, busy_start=busy,
                     repeat_of_busy=repeat_of_busy) for s in run.segments]

    monkeypatch.setattr(runner, "measured_run", fake_run)
    monkeypatch.setattr(report, "plots", lambda *a: [])
    doc, _ = runner.run_benchmark(opts, Path("/nonexistent"), 1, tmp_path, lambda m: None)
    assert calls == [(0, "stock", False), (0, "nonstop+", False), (0, "nonstop+", True),
                     (1, "nonstop+", False), (1, "stock", False)]
    rows = {r["configuration"]: r for r in doc["by_configuration"]}
    assert rows["nonstop+ M=1"]["n"] == 2 and rows["nonstop+ M=1"]["busy_start_left_out"] == 1
    assert doc["baseline"]["throughput_by_repetition"] == {0: 100.0, 1: 100.0}


def test_the_command_prints_each_configuration_with_its_spread(monkeypatch, tmp_path):
    from click.testing import CliRunner

    from pycontrol.cli import bench_cmd, main
    segs = [segment("baseline", None, [100] * 10) | {"repetition": i} for i in range(2)]
    segs += [segment("nonstop+", 1, [100] * (10 - k) + [0] * k, {"n": 1, "p50": p, "p99": p, "max": p})
             | {"repetition": i} for i, (k, p) in enumerate([(1, 400.0), (3, 600.0)])]

    def fake(opts, home, port_base, out, echo):
        return report.document(opts, [], segs, {"throughput_mean": 100.0}, {}), []

    monkeypatch.setattr(bench_cmd, "run_benchmark", fake)
    r = CliRunner().invoke(main, ["bench", "migration", "--quick", "--schemes", "nonstop+", "--repeat", "2",
                                  "--home", str(tmp_path), "--out", str(tmp_path / "out")])
    assert r.exit_code == 0, r.output
    line = next(x for x in r.output.splitlines() if x.startswith("nonstop+ M=1") and " 2 " in x[:26])
    assert "2 [1-3]" in line and "500 [400-600]" in line, line


def test_the_recorded_command_runs_the_same_options_again():
    import shlex

    from pycontrol.cli import bench_cmd
    opts = make_options(True, "nonstop+,worker-restart", "1,4", None, None, "10:3,1:0.3", 400, 7, None, 3, True)
    words = shlex.split(opts.command())
    assert words[:3] == ["pycontrol", "bench", "migration"]
    ctx = bench_cmd.migration.make_context("migration", words[3:])
    p = ctx.params
    again = make_options(p["quick"], p["scheme_names"], p["moves"], p["duration"], p["period"], p["sweep"], p["rate"],
                         p["seed"], p["rebalance_wait"], p["repeat"], p["move_spouts"])
    assert again == opts
