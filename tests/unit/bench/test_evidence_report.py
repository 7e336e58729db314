"""The evidence report (`pycontrol bench report`): run metadata, the extractors on small fixture
documents, Markdown and HTML, the CLI, and every result file the report claims to read in results/."""

import json

import pytest
from click.testing import CliRunner

from pycontrol.bench.report import build, render
from pycontrol.bench.report.files import read_results
from pycontrol.bench.report.meta import run_meta
from pycontrol.bench.report.model import NOT_RECORDED
from pycontrol.cli import main
from pycontrol.paths import REPO_ROOT

RESULTS = REPO_ROOT / "results"


def hook_doc(rounds=3, command=None):
    phases = []
    for r in range(rounds):
        phases += [{"round": r, "hook": True, "tuples_per_s": 99.0 + r, "cpu_ns_per_tuple": 101.0},
                   {"round": r, "hook": False, "tuples_per_s": 100.0 + r, "cpu_ns_per_tuple": 100.0}]
    doc = {"date": "2026-11-27T10:00:00Z", "machine": {"load_avg_at_start": [1.0, 2.0, 3.0], "load_avg_at_end": [4.0, 5.0, 6.0]},
           "model_round": {"executors": 1000, "repeats": 7, "median": {"total_cpu_s": 0.15}, "max_total_cpu_s": 0.2,
                           "target_total_s": 1.0},
           "hook": [{"work_us": 0, "mode": "concurrent", "phases": phases}]}
    if command:
        doc["command"] = command
    return doc


WORKLOADS = {"when": "2026-11-21T07:34:17+00:00", "results": [{"workload": "wc", "sustainable_rate": 900,
                                                                "sustainable_words_per_s": 9000}]}


def test_the_run_metadata_is_the_files_own_or_says_not_recorded():
    m = run_meta(hook_doc(command="benchmarks/metrics_overhead.py --rounds 3"), "documented")
    assert m.date == "2026-11-27T10:00:00Z" and m.command == "benchmarks/metrics_overhead.py --rounds 3"
    assert m.load_start == "1.0 / 2.0 / 3.0 (1/5/15 min)" and m.load_end == "4.0 / 5.0 / 6.0 (1/5/15 min)"
    bare = run_meta({}, "tool --x")
    assert (bare.date, bare.load_start, bare.load_end) == (NOT_RECORDED,) * 3
    assert bare.command.startswith("tool --x (documented usage")
    assert run_meta({"machine": {"loadavg_before": [7, 8, 9]}, "load_average_end": 2.5}, "c").load_end == "2.5"
    # the scheduler bench keeps the Java side's machine record under "raw"
    assert run_meta({"raw": {"machine": {"load_average_at_start": 27.1}}}, "c").load_start == "27.1"



def test_the_machine_time_is_the_files_recorded_duration_or_its_finish_minus_start():
    assert run_meta({"elapsed_s": 4560}, "c").elapsed_s == 4560
    assert run_meta({"wall_secs": 452}, "c").elapsed_s == 452
    assert run_meta({"started": 1795300000.0, "finished": 1795301800.5}, "c").elapsed_s == 1800.5
    assert run_meta({"started": 10, "finished": 5}, "c").elapsed_s is None
    assert run_meta({}, "c").elapsed_s is None


def test_the_report_sums_the_machine_time_the_files_record_and_counts_those_that_do_not():
    docs = {"workloads.json": WORKLOADS, "metrics_overhead.json": {**hook_doc(), "elapsed_s": 3600},
            "controller/fence_cost.json": {"elapsed_s": 1800, "results": []}}
    md = render.markdown(build.build(docs))
    assert ("Machine time recorded by the result files: 1.5 h over 2 of the 3 files; the other 1 do not record "
            "how long they ran.") in md
    assert "machine time 60 min" in md and "machine time not recorded" in md


def test_the_hook_overhead_table_has_n_rounds_the_interval_and_the_verdict():
    [section] = build.build({"metrics_overhead.json": hook_doc(rounds=3)})
    [table] = section.tables
    thr = table.rows[0]
    assert thr.n == 3 and thr.unit_of_n == "paired rounds"
    assert thr.median == pytest.approx(100 * (1 - 100 / 101), abs=1e-2)  # percent
    assert "95 % t-interval" in thr.spread and thr.note.endswith(": met (mean)")
    assert table.rows[-1].measure.startswith("model round") and table.rows[-1].n == 7


def test_a_file_with_one_run_says_n_equals_one():
    md = render.markdown(build.build({"workloads.json": WORKLOADS}))
    assert "| wc: highest sustainable rate (sentences/s) | n = 1 run | 900 | n = 1: no spread |" in md
    assert ("date 2026-11-21T07:34:17+00:00; machine load at start not recorded, at end not recorded; machine time "
            "not recorded") in md


def test_a_file_that_changed_shape_is_reported_and_the_rest_is_still_built():
    sections = build.build({"workloads.json": {"results": [{"no": "workload"}]}, "metrics_overhead.json": hook_doc()})
    notes = {t.source: t.note for s in sections for t in s.tables}
    assert notes["workloads.json"].startswith("unreadable: KeyError")
    assert notes["metrics_overhead.json"] == ""
    assert "**unreadable: KeyError" in render.markdown(sections)


def test_files_no_section_reads_are_listed():
    paths = ["workloads.json", "otd/quick/compute.json", "otd/quick/summary.json"]
    assert build.unread(paths) == ["otd/quick/compute.json"]
    assert "`otd/quick/compute.json`" in render.markdown([], build.unread(paths))


def test_the_html_is_self_contained_and_escaped():
    doc = dict(WORKLOADS, command="run <this> & that")
    html = render.page(build.build({"workloads.json": doc}, ["migration/degradation.png", "elsewhere/x.png"]))
    assert "<script" not in html and "http://" not in html and "https://" not in html
    assert "run &lt;this&gt; &amp; that" in html
    # figures belong to their headline's directories only
    assert '<img src="migration/degradation.png"' in html and "elsewhere/x.png" not in html


def test_the_command_writes_both_files_and_fails_on_an_unreadable_one(tmp_path):
    (tmp_path / "workloads.json").write_text(json.dumps(WORKLOADS))
    (tmp_path / "metrics_overhead.json").write_text(json.dumps(hook_doc()))
    got = CliRunner().invoke(main, ["bench", "report", "--results", str(tmp_path)])
    assert got.exit_code == 0, got.output
    assert "## Workloads" in (tmp_path / "REPORT.md").read_text()
    assert "<h2>Metrics hook overhead</h2>" in (tmp_path / "report.html").read_text()
    (tmp_path / "trace_demo.json").write_text("{not json")
    got = CliRunner().invoke(main, ["bench", "report", "--results", str(tmp_path)])
    assert got.exit_code == 1 and "trace_demo.json" in got.output


_DOCS, _FIGURES, _BROKEN = read_results(RESULTS)
CLAIMED = sorted(build.claimed(_DOCS))


def test_every_result_file_parses_and_the_report_reads_every_headline():
    assert _BROKEN == []
    titles = {h.title for h, _ in build.claimed(_DOCS).values()}
    assert {"Migration", "OTD", "Consistent Grouping", "Metrics hook overhead", "Schedulers"} <= titles


@pytest.mark.parametrize("path", CLAIMED)
def test_the_report_reads_each_result_file_it_claims(path):
    sections = build.build({path: _DOCS[path]})
    [table] = [t for s in sections for t in s.tables]
    assert table.note == "" and table.rows, table.note
    assert render.markdown(sections) and render.page(sections)


def test_the_migration_table_gives_plan_to_effect_per_scheme_and_each_segment_as_one_run():
    doc = {"when": "2026-11-21T20:18:05+00:00", "machine": {"loadavg_before": [1, 2, 3], "loadavg_now": [4, 5, 6]},
           "plan_to_effect_by_scheme": {"nonstop": {"n": 62, "p50": 2561, "p99": 4029, "max": 4100}},
           "table": [{"segment": "nonstop M=1", "degradation_s": {"20": 1, "40": 0}, "throughput_mean": 400.0,
                      "latency_p50_ms": 6.1, "latency_p99_ms": 605.0, "failed": 0, "restarted_workers": 0}]}
    [section] = build.build({"migration/migration.json": doc})
    p2e, seg = section.tables[0].rows
    assert (p2e.n, p2e.median, p2e.spread, p2e.unit_of_n) == (62, 2561, "p99 4029, max 4100", "moves")
    assert seg.n == 1 and seg.median == 400.0 and "seconds at >= 20/40 % degradation: 1/0" in seg.note


def test_repeated_migration_runs_give_each_configuration_its_spread_and_the_targets_verdicts():
    sp = {"n": 3, "median": 250.0, "min": 200.0, "max": 900.0}
    doc = {"by_configuration": [{"configuration": "nonstop+ M=4", "n": 3, "busy_start_left_out": 1,
                                 "only_busy_runs": False, "longest_ack_gap_ms": sp, "failed": None}],
           "plan_to_effect_by_scheme": {"nonstop+": {"n": 45, "p50": 700, "p99": 1500, "max": 1600}},
           "segments": [{"scheme": "nonstop+", "summary": {"failed": 0},
                         "moves_summary": {"moves": 3, "longest_ack_gap_ms": 900.0, "after_p99_vs_steady": 2.5},
                         "plan_to_effect": {"all_senders": {"each_ms": [1200.0, 1300.0], "missing": 0}}}]}
    rows = build.build({"migration/quick/migration.json": doc})[0].tables[0].rows
    gap = rows[0]
    assert (gap.n, gap.median, gap.spread, gap.unit_of_n) == (3, 250.0, "200–900", "runs")
    assert gap.measure.startswith("nonstop+ M=4: longest gap") and "1 busy-start run(s) left out" in gap.note
    assert not any(r.measure.startswith("nonstop+ M=4: failed") for r in rows)   # nothing measured, no row
    pooled = next(r for r in rows if r.measure.startswith("plan-to-effect at source and target"))
    assert (pooled.n, pooled.median, pooled.unit_of_n) == (45, 700, "moved executors")
    verdicts = {r.measure: r for r in rows if r.measure.startswith("target")}
    assert verdicts["target nonstop+ longest ack gap ms"].note == "met"
    assert verdicts["target nonstop+ after p99 vs steady"].note == "not met"
    p50 = verdicts["target nonstop+ plan to effect p50 ms"]
    assert p50.median == 1200.0 and p50.note.startswith("not met (over 2 moved executors; the target asks for 100")


def test_an_otd_ab_file_gives_each_kind_the_gain_and_the_realised_share_for_both_measures():
    from pycontrol.bench.otd import ab
    reps = [{"otd": 900, "control": 600, "ceiling": 1000}, {"otd": 800, "control": 700, "ceiling": 650}]
    doc = {"started": 1795300000, "command": "pycontrol bench otd-ab --repeat 2", **ab.summarize_runs(reps),
           "worker_cpu_mean": ab.summarize_runs([{"otd": 1.5, "control": 1.0, "ceiling": 1.6}] * 2)}
    rows = build.build({"otd/ab-20261128.json": doc})[0].tables[0].rows
    by = {r.measure: r for r in rows}
    assert (by["acked sentences/s, OTD"].n, by["acked sentences/s, OTD"].spread) == (2, "800–900")
    share = by["acked sentences/s: share of the achievable gain realised, (OTD - control) / (ceiling - control)"]
    assert share.n == 1 and share.unit_of_n == "repetitions" and "undefined in 1 repetition(s)" in share.note
    assert by["mean worker CPU (cores): OTD over control (%)"].median == 50.0


def test_repeated_runs_get_a_range_and_from_five_on_the_medians_interval():
    doc = {"at": "2026-11-27T11:55:24+00:00", "cycles_per_run": 40,
           "results": [{"variant": "acl-fenced", "topologies_per_action": 1, "runs_ms_per_cycle": [3, 4, 5, 6, 7]},
                       {"variant": "open", "topologies_per_action": 1, "runs_ms_per_cycle": [3, 4]}]}
    five, two = build.build({"controller/fence_cost.json": doc})[0].tables[0].rows
    assert (five.n, five.median) == (5, 5) and five.spread.startswith("3–7; 95 % CI of median")
    assert (two.n, two.spread) == (2, "3–4")


def test_a_grouping_run_counts_its_tuples():
    doc = {"runs": [{"scenario": "heterogeneous", "grouping": "cg", "measured": {
        "acked": 13500, "latency_p50_ms": 7.6, "latency_p99_ms": 27.8, "latency_max_ms": 246.0,
        "throughput_per_s": 300.0, "failed": 0}}]}
    [row] = build.build({"grouping/storm-quick.json": doc})[0].tables[0].rows
    assert (row.n, row.unit_of_n, row.median) == (13500, "tuples", 7.6) and "one run" in row.note


def test_repeated_grouping_runs_give_medians_over_runs_and_the_targets_verdicts():
    spread = {"n": 3, "median": 2.0, "min": 1.0, "max": 4.0}
    entry = {"runs": 3, "all_sustained": False, "throughput_per_s": spread, "latency_p99_ms": spread, "memory": spread}
    doc = {"summary": {"homogeneous": {"cg": entry}},
           "targets": {"p99_cg_over_sg": {"value": 1.5, "limit": 1.2, "below_saturation": False, "met": None}}}
    tp, p99, target = build.build({"grouping/storm-equal-load.json": doc})[0].tables[0].rows
    assert (tp.n, tp.median, tp.spread) == (3, 2.0, "1–4") and "saturated" in tp.note
    assert p99.measure.endswith("pooled over the window (ms)") and p99.unit_of_n == "runs"
    assert (target.n, target.median, target.spread) == (3, 1.5, "limit 1.2")
    assert target.note.startswith("not judged") and "not at equal load" in target.note


def test_a_repeated_scheduler_latency_file_gives_spreads_the_paired_reduction_and_the_verdict():
    from pycontrol.bench import placement_latency
    runs = [{"scheduler": s, "repetition": r, "acked_per_s": 600.0, "inter_node_share": share,
             "latency_ms": {"p50_of_seconds": p50, "mean": p50, "p99_of_seconds_max": 2 * p50}}
            for r in range(3) for s, p50, share in (("default", 10.0 + r, 0.37), ("aniello-online", 4.0, 0.0))]
    doc = {"when": "2026-11-28T07:00:00+00:00", "command": "benchmarks/scheduler_latency.py --repeat 3",
           "results": runs, "summary": placement_latency.summarize(runs)}
    rows = build.build({"schedulers/real_cluster_latency_2500kbit.json": doc})[0].tables[0].rows
    by = {r.measure: r for r in rows}
    p50 = by["default: latency p50 of the seconds (ms)"]
    assert (p50.n, p50.median, p50.spread) == (3, 11.0, "10–12")
    red = by["aniello-online: p50 lower than default (fraction, paired per repetition)"]
    assert red.n == 3 and red.unit_of_n == "repetitions" and red.median == round(1 - 4.0 / 11.0, 4)
    [target] = [r for r in rows if r.measure.startswith("target:")]
    assert target.note == "met (in every repetition)"


def test_an_older_single_run_scheduler_latency_file_still_gives_one_row_per_scheduler():
    doc = {"results": [{"scheduler": "default", "seconds": 89, "acked_per_s": 600,
                        "latency_ms": {"p50_of_seconds": 4.3, "mean": 4.8, "p99_of_seconds_max": 60.3}}]}
    [row] = build.build({"schedulers/real_cluster_latency_3mbit.json": doc})[0].tables[0].rows
    assert (row.n, row.unit_of_n, row.median) == (89, "seconds", 4.3) and "one run" in row.note


def test_a_state_size_file_gives_per_way_and_size_the_spreads_and_the_exact_runs():
    from pycontrol.bench.state_size import measures
    move = {"measures": {"after": {"longest_ack_gap_ms": 120.0, "latency_p99_ms": 80.0, "latency_max_ms": 140.0},
                         "steady": {"latency_p99_ms": 20.0}, "above_2x_steady_p99_s": 1},
            "handoff": {"move_ms": 450.0, "snapshot_and_send_ms": 12.0, "sent_to_installed_ms": 30.0, "held_tuples": 2}}
    runs = [{"way": "nonstop", "state_bytes": 1 << 20, "moves": [move, move], "failed": 0, "replayed": 0,
             "counts": {"exact": True, "extra": 0, "missing": 0}}]
    doc = {"command": "pycontrol bench state-size --sizes 1MB", "summary": measures.summarize(runs)}
    rows = {r.measure: r for r in build.build({"state_size/20261128-070000.json": doc})[0].tables[0].rows}
    moved = rows["nonstop, 1 MB: plan written -> state installed at the target (ms)"]
    assert (moved.n, moved.unit_of_n, moved.median) == (2, "moves", 450.0)
    assert rows["nonstop, 1 MB: longest latency of an acked tuple after a move (ms)"].median == 140.0
    exact = rows["nonstop, 1 MB: runs with every count exact"]
    assert (exact.n, exact.median, exact.spread) == (1, 1, "1 of 1")


def test_a_comm_otd_ab_file_names_its_part_and_each_measure():
    from pycontrol.bench.otd import ab
    reps = [{"otd": 0.0, "control": 0.36}, {"otd": 0.02, "control": 0.37}]
    doc = {"part": "comm", "measures": ["inter_node_share", "throughput"],
           "labels": {"inter_node_share": "inter-node tuple share", "throughput": "acked sentences/s"},
           **ab.summarize_runs(reps), "throughput": ab.summarize_runs([{"otd": 700, "control": 650}] * 2)}
    rows = {r.measure: r for r in build.build({"otd/ab-comm-20261128.json": doc})[0].tables[0].rows}
    assert rows["comm: inter-node tuple share, OTD"].n == 2
    assert rows["comm: acked sentences/s: OTD over control (%)"].median == pytest.approx(100 * 50 / 650)
    assert not any("ceiling" in m for m in rows)
