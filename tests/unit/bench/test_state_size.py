"""The state-size benchmark's pure parts: sizes and options, the run order, where the executors go, the
handoff's breakdown from events, the counts check and the summary over runs."""

from collections import Counter
from pathlib import Path

import pytest

from pycontrol.bench.state_size import design, measures, placing
from pycontrol.errors import UserError


def test_sizes_are_read_in_binary_units_and_bad_ones_are_refused_with_the_reason():
    assert [design.parse_size(s) for s in ("1KB", "10MB", "512", "2kb")] == [1024, 10 << 20, 512, 2048]
    for bad in ("ten", "1GB", "0KB", "-1KB", "300MB"):
        with pytest.raises(UserError, match="state size"):
            design.parse_size(bad)
    assert [design.size_label(n) for n in (1024, 50 << 20, 1500)] == ["1KB", "50MB", "1500B"]



def test_every_worker_is_sized_for_the_state_it_may_receive_with_storms_default_as_the_floor():
    assert design.worker_heap_mb(1024) == design.MIN_WORKER_HEAP_MB == 768
    assert design.worker_heap_mb(50 << 20) == 768            # 256 + 6 x 50
    assert design.worker_heap_mb(100 << 20) == 856
    assert design.worker_heap_mb(design.MAX_BYTES) == 256 + 6 * 200
    from pycontrol.bench.state_size import runner
    opts = design.make_options("1KB", "nonstop", 1, 100, 2, 20)
    conf = runner.settings(opts, design.NONSTOP, 100 << 20, Path("in"), Path("rate"), Path("state"))
    assert "topology.worker.childopts=-Xmx856m" in conf

def test_options_sort_sizes_refuse_unknown_ways_and_say_their_command():
    opts = design.make_options("10MB,1KB,1KB", "storm-restart,nonstop", 3, 100, 4, 20)
    assert opts.sizes == (1024, 10 << 20) and [w.name for w in opts.ways] == ["storm-restart", "nonstop"]
    assert opts.command() == ("pycontrol bench state-size --sizes 1KB,10MB --ways storm-restart,nonstop --repeat 3 "
                              "--rate 100 --moves 4 --period 20")
    with pytest.raises(UserError, match="--ways"):
        design.make_options("1KB", "nonstop,checkpoint", 3, 100, 4, 20)
    with pytest.raises(UserError, match="--period"):
        design.make_options("1KB", "nonstop", 3, 100, 4, 5)


def test_each_repetition_starts_with_another_way_and_only_the_stock_way_has_no_agent():
    opts = design.make_options("1KB", "nonstop,storm-restart", 2, 100, 4, 20)
    assert [(rep, w.name) for rep, w in design.run_order(opts)] == [
        (0, "nonstop"), (0, "storm-restart"), (1, "storm-restart"), (1, "nonstop")]
    assert design.NONSTOP.nonstop and not design.STORM_RESTART.cluster.migration
    # like for like: the same stateful bolt and provider, moved live or by Storm's relaunch
    assert design.NONSTOP_STATEFUL.nonstop and design.NONSTOP_STATEFUL.keep_kind == design.STORM_RESTART.keep_kind
    assert dict(design.STORM_RESTART.cluster.conf)["storm.scheduler"].endswith("NonstopScheduler")


COMPONENTS = {"[1,1]": "__acker", "[2,2]": "__acker", "[3,3]": "__acker", "[4,4]": "__acker",
              "[5,5]": "keep", "[6,6]": "keep", "[7,7]": "sentences", "[8,8]": "$checkpointspout"}


def test_the_layout_isolates_the_spouts_gives_each_keep_task_a_worker_and_leaves_none_empty():
    a, b, c, d = "h1:1", "h1:2", "h2:1", "h2:2"
    # Storm put the spout with keep 5 and the checkpoint spout elsewhere
    assignment = {"[1,1]": a, "[2,2]": b, "[3,3]": c, "[4,4]": d, "[5,5]": a, "[6,6]": c, "[7,7]": a, "[8,8]": b}
    lay = placing.layout(assignment, COMPONENTS)
    after = {**assignment, **lay.plan}
    assert lay.spouts == a and after["[7,7]"] == after["[8,8]"] == a
    assert lay.moved == "[5,5]" and set(lay.keeps) == {after["[5,5]"], after["[6,6]"]} and a not in lay.keeps
    assert lay.keeps[0] != lay.keeps[1] and lay.spare not in (a, *lay.keeps)
    assert lay.spare.split(":")[0] != lay.keeps[0].split(":")[0]      # the move crosses nodes
    assert set(after.values()) == {a, b, c, d}                           # every worker keeps an executor
    assert {after[e] for e in ("[1,1]", "[2,2]", "[3,3]", "[4,4]")} == {a, b, c, d}
    assert all(assignment[e] != s for e, s in lay.plan.items())        # the plan names only real moves
    assert placing.next_target(lay.keeps[0], lay) == lay.spare and placing.next_target(lay.spare, lay) == lay.keeps[0]


def test_a_layout_needs_enough_workers_and_known_components():
    assignment = {e: "h1:1" if i % 2 else "h2:1" for i, e in enumerate(COMPONENTS)}
    with pytest.raises(UserError, match="needs 4 workers"):
        placing.layout(assignment, COMPONENTS)
    with pytest.raises(UserError, match="not known yet"):
        placing.layout({**assignment, "[9,9]": "h1:1"}, COMPONENTS)


def ev(event, t, **kw):
    return {"event": event, "t_ms": t, **kw}


def test_the_handoff_breakdown_splits_plan_to_installed_at_the_barrier_and_the_send():
    src = [ev("handoff_sent", 900, task=5, bytes=1), ev("handoff_sent", 1500, task=5, bytes=2048, chunks=1, took_ms=12)]
    dst = [ev("handoff_released", 1540, task=6, held=0), ev("handoff_released", 1560, task=5, held=3)]
    b = measures.handoff_breakdown(src, dst, 5, 1000)
    assert b == {"bytes": 2048, "chunks": 1, "plan_to_barrier_ms": 488.0, "snapshot_and_send_ms": 12.0,
                 "installed": True, "sent_to_installed_ms": 60.0, "move_ms": 560.0, "held_tuples": 3}


def test_a_gate_opened_without_the_state_or_a_refused_snapshot_is_not_installed():
    src = [ev("handoff_sent", 1100, task=5, bytes=10, chunks=1, took_ms=1)]
    gave_up = measures.handoff_breakdown(src, [ev("handoff_gave_up", 31100, task=5, held=9, reason="deadline")], 5, 1000)
    assert gave_up["installed"] is False and gave_up["reason"] == "deadline"
    refused = measures.handoff_breakdown([ev("handoff_aborted", 1100, task=5, reason="over the limit")], [], 5, 1000)
    assert refused == {"installed": False, "reason": "over the limit"}
    assert measures.handoff_breakdown([], [], 5, 1000) is None


def test_a_snapshot_the_targets_heap_declined_is_not_installed_and_says_why():
    why = "this worker's heap cannot take a snapshot of 54525952 bytes"
    src = [ev("handoff_sent", 1100, task=5, bytes=54525952, chunks=52, took_ms=300),
           ev("handoff_declined", 1500, task=5, plan_version=3, attempt=1, reason=why)]
    b = measures.handoff_breakdown(src, [ev("handoff_gave_up", 1450, task=5, held=2, reason=why)], 5, 1000)
    assert b["installed"] is False and b["declined"] == why and b["reason"] == why
    assert "declined" not in measures.handoff_breakdown(src[:1], [], 5, 1000)


def test_expected_counts_cycle_the_lines_and_the_check_says_how_far_off():
    exp = measures.expected_counts(["a", "b", "c"], 7)
    assert exp == Counter({"a": 3, "b": 2, "c": 2})
    assert measures.counts_check(exp, exp)["exact"]
    off = measures.counts_check(Counter({"a": 4, "b": 1, "c": 2}), exp)
    assert (off["exact"], off["missing"], off["extra"], off["keys_off"], off["counted"]) == (False, 1, 1, 2, 7)


def move(gap, moved_ms=None):
    m = {"measures": {"after": {"longest_ack_gap_ms": gap, "latency_p99_ms": 2 * gap, "latency_max_ms": 3 * gap},
                      "steady": {"latency_p99_ms": 10.0}, "above_2x_steady_p99_s": 1}}
    if moved_ms is not None:
        m["handoff"] = {"move_ms": moved_ms, "snapshot_and_send_ms": 5.0, "held_tuples": 0}
    return m


def test_the_summary_groups_runs_by_way_and_size_and_counts_exact_runs():
    runs = [{"way": "nonstop", "state_bytes": 1024, "moves": [move(100, 400), move(120, 500)], "failed": 0,
             "replayed": 0, "counts": {"exact": True, "extra": 0, "missing": 0}},
            {"way": "nonstop", "state_bytes": 1024, "moves": [move(80, 450)], "failed": 0, "replayed": 0,
             "counts": {"exact": True, "extra": 0, "missing": 0}},
            {"way": "storm-restart", "state_bytes": 1024, "moves": [move(9000)], "failed": 40, "replayed": 40,
             "counts": {"exact": False, "extra": 12, "missing": 0}}]
    [ns, storm] = measures.summarize(runs)
    assert (ns["runs"], ns["moves"], ns["exact_runs"], ns["checked_runs"]) == (2, 3, 2, 2)
    assert ns["longest_ack_gap_ms"] == {"n": 3, "median": 100, "min": 80, "max": 120}
    assert ns["move_ms"]["median"] == 450
    assert ns["after_max_latency_ms"] == {"n": 3, "median": 300, "min": 240, "max": 360}
    assert storm["move_ms"] is None and storm["exact_runs"] == 0 and storm["extra_counts"]["median"] == 12


def test_the_command_refuses_a_bad_size_before_starting_any_cluster(tmp_path):
    from click.testing import CliRunner

    from pycontrol.cli import main
    got = CliRunner().invoke(main, ["bench", "state-size", "--sizes", "1KB,2GB", "--home", str(tmp_path)],
                             standalone_mode=False, catch_exceptions=True)
    assert isinstance(got.exception, UserError) and "'2GB'" in str(got.exception)
    assert not any(tmp_path.iterdir())
