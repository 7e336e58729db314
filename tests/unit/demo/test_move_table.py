import pytest

from pycontrol.demo import move_table
from pycontrol.workloads.settle import settled
from pycontrol.errors import UserError
from pycontrol.workloads.series import Second


def sec(ts, acked, p99=10.0, failed=0, replayed=0, mx=None):
    return Second(ts=ts, emitted=acked, replayed=replayed, acked=acked, failed=failed, latency_n=acked,
                  latency_mean_ms=p99 / 2, latency_p50_ms=p99 / 2, latency_p99_ms=p99 if acked else 0.0,
                  latency_max_ms=(mx or p99) if acked else 0.0, pending=0, behind_ms=0.0, bad_lines=0,
                  target_rate=100.0, tasks=1)


def test_the_longest_gap_is_the_longest_run_of_seconds_without_acks():
    rows = [sec(0, 100), sec(1, 0), sec(2, 0), sec(3, 50), sec(4, 0), sec(5, 0), sec(6, 0), sec(7, 100)]
    assert move_table.longest_gap_s(rows) == 3
    assert move_table.longest_gap_s([sec(0, 1)]) == 0
    assert move_table.longest_gap_s([]) == 0


def test_the_window_starts_with_the_second_of_the_move():
    rows = [sec(ts, 100) for ts in range(100, 140)]
    window = move_table.after_window(rows, 110.7, 5)
    assert [r.ts for r in window] == [110, 111, 112, 113, 114]


def test_a_row_counts_the_slow_seconds_gap_latency_and_failures_after_the_move():
    before = [sec(ts, 100, p99=5000.0, failed=3) for ts in range(0, 10)]   # before the move: left out
    after = [sec(10, 100), sec(11, 0), sec(12, 0), sec(13, 40, p99=900.0, mx=1500.0, failed=2, replayed=2),
             sec(14, 41), *[sec(ts, 100, p99=20.0) for ts in range(15, 20)]]
    row = move_table.row("stock", 1, before + after, 10.2, 10, 100, worker_restarts=2)
    # 0, 0 and 40 acked are at most 40 % of 100/s; 41 is not
    assert row["low_s"] == 3
    assert row["longest_gap_s"] == 2
    assert row["latency_max_ms"] == 1500.0
    assert row["latency_p99_ms"] == 900.0
    # failures and replays count over the whole segment (a lost tuple fails after the message timeout)
    assert (row["failed"], row["replayed"]) == (32, 2)
    assert row["worker_restarts"] == 2 and row["way"] == "stock" and row["m"] == 1
    assert row["window_s"] == 10
    assert row["acking_at_end"] is True
    assert row["acked_short"] == 100 * 10 - (100 + 40 + 41 + 500)
    stalled = move_table.row("stock", 4, before + after[:3], 10.2, 10, 100, worker_restarts=1)
    assert stalled["acking_at_end"] is False and stalled["longest_gap_s"] == 2


def test_a_steady_segment_has_nothing_to_show():
    rows = [sec(ts, 100, p99=12.0) for ts in range(0, 40)]
    row = move_table.row("nonstop", 4, rows, 5, 30, 100, worker_restarts=0)
    assert (row["low_s"], row["longest_gap_s"], row["failed"], row["latency_p99_ms"]) == (0, 0, 0, 12.0)
    assert row["acked_short"] == 0


def test_bad_inputs_name_their_mistake():
    with pytest.raises(UserError, match="rate"):
        move_table.row("stock", 1, [sec(0, 1)], 0, 10, 0, 0)
    with pytest.raises(UserError, match="no seconds"):
        move_table.row("stock", 1, [sec(0, 1)], 500, 10, 100, 0)


def test_recovered_means_the_last_complete_seconds_each_acked_most_of_the_rate():
    """The demo's wait after a change: workloads.settle's rule without its latency bound."""
    rows = [sec(ts, 95) for ts in range(90, 100)]
    assert settled(rows, 100.5, 100, max_p50_ms=None)                     # 93..97 complete, each >= 90
    assert not settled(rows[:-4] + [sec(96, 50), sec(97, 95)], 100.5, 100, max_p50_ms=None)   # one slow second
    assert not settled([r for r in rows if r.ts != 95], 100.5, 100, max_p50_ms=None)          # a missing second
    assert not settled([], 100, 100, max_p50_ms=None)
