"""Finer per-move measures: the longest ack gap, time above twice the steady p99, latency after vs steady."""

import json

from pycontrol.bench.migration.measures import (longest_ack_gap_ms, move_measures, segment_move_measures,
                                                worst_of_moves)
from pycontrol.workloads.series import Second, merge


def sec(ts, acked=100, p99=20.0, gap=12.0, mx=None):
    return Second(ts=ts, emitted=acked, replayed=0, acked=acked, failed=0, latency_n=acked, latency_mean_ms=5.0,
                  latency_p50_ms=5.0, latency_p99_ms=p99, latency_max_ms=mx or p99 * 1.5, pending=0, behind_ms=0.0,
                  bad_lines=0, target_rate=100.0, tasks=1, ack_gap_ms=gap)


def test_the_longest_gap_comes_from_the_spout_or_from_seconds_without_acks():
    assert longest_ack_gap_ms([sec(1), sec(2, gap=640.0), sec(3)]) == 640.0
    assert longest_ack_gap_ms([sec(1), sec(2, acked=0, gap=None), sec(3, acked=0, gap=None), sec(4, gap=None)]) == 2000.0
    assert longest_ack_gap_ms([sec(1, gap=None)]) is None


def test_a_move_is_measured_against_the_seconds_before_it():
    rows = [sec(t) for t in range(100, 130)] + [sec(130, p99=90.0, gap=450.0), sec(131, acked=0, gap=1450.0),
                                               sec(132, p99=41.0, mx=300.0)] + [sec(t) for t in range(133, 170)]
    m = move_measures(rows, 130_400, 115, 170)
    assert m["steady"]["seconds"] == 15 and m["steady"]["latency_p99_ms"] == 20.0
    assert m["steady"]["longest_ack_gap_ms"] == 12.0
    assert m["after"]["seconds"] == 30 and m["after"]["longest_ack_gap_ms"] == 1450.0
    assert m["above_2x_steady_p99_s"] == 3            # 90 ms, nothing acked, 41 ms > 40 ms
    assert m["after"]["latency_max_ms"] == 300.0 and m["after_p99_vs_steady"] == 4.5


def test_the_window_after_stops_at_the_next_move_and_unapplied_moves_are_skipped():
    rows = [sec(t) for t in range(0, 60)]
    moves = [{"t0_ms": 20_000, "decision": "applied"}, {"t0_ms": 30_000, "decision": "rejected"},
             {"t0_ms": 40_000, "decision": "success"}]
    per = segment_move_measures(rows, moves, 0, 60, 20)
    assert [p["move_ts"] for p in per] == [20.0, 40.0]
    assert per[0]["steady"]["seconds"] == 10 and per[0]["after"]["seconds"] == 20
    assert per[1]["after"]["seconds"] == 20
    summary = worst_of_moves(per)
    assert summary["moves"] == 2 and summary["above_2x_steady_p99_s"] == 0 and summary["longest_ack_gap_ms"] == 12.0


def test_series_lines_with_and_without_the_ack_gap_both_read():
    old = {"ts": 5, "component": "sentences", "task": 1, "emitted": 3, "acked": 3, "lat_ms": {"n": 3, "p99": 9}}
    new = dict(old, task=2, ack_gap_ms=830)
    (row,) = merge([json.loads(json.dumps(old)), new])
    assert row.ack_gap_ms == 830.0 and row.acked == 6
    (row,) = merge([old])
    assert row.ack_gap_ms is None
