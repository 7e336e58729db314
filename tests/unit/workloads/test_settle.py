"""When a workload counts as settled: whole seconds in a row at the offered rate with low median latency."""

from __future__ import annotations

from pycontrol.workloads.series import Second
from pycontrol.workloads.settle import settled


def sec(ts: int, acked: int, p50: float = 10.0) -> Second:
    return Second(ts=ts, emitted=acked, replayed=0, acked=acked, failed=0, latency_n=acked, latency_mean_ms=p50,
                  latency_p50_ms=p50, latency_p99_ms=p50 * 2, latency_max_ms=p50 * 3, pending=0, behind_ms=0.0,
                  bad_lines=0, target_rate=2000.0, tasks=1)


NOW = 1000.5   # seconds 993..997 are the last five complete ones (2 s of lag)


def test_five_steady_seconds_are_settled():
    assert settled([sec(ts, 2000) for ts in range(990, 999)], NOW, 2000)


def test_catching_up_above_the_rate_counts_while_the_median_latency_is_low():
    assert settled([sec(ts, 4000) for ts in range(993, 998)], NOW, 2000)


def test_a_backlog_is_not_settled_even_at_the_rate():
    rows = [sec(ts, 2000) for ts in range(993, 998)]
    rows[2] = sec(995, 2000, p50=1500.0)
    assert not settled(rows, NOW, 2000)


def test_a_slow_second_or_a_missing_second_is_not_settled():
    rows = [sec(ts, 2000) for ts in range(993, 998)]
    assert not settled([*rows[:3], sec(996, 1700), rows[4]], NOW, 2000)   # 85 % of the rate
    assert not settled(rows[:2] + rows[3:], NOW, 2000)                     # second 995 absent


def test_seconds_still_being_written_do_not_count():
    # Only seconds 998-1000 are steady: they are inside the lag, so nothing is settled yet.
    assert not settled([sec(ts, 2000) for ts in range(998, 1001)], NOW, 2000)



def test_latency_can_be_left_out_for_a_recovery_whose_new_spout_paces_anew():
    rows = [sec(ts, 2000, p50=5000.0) for ts in range(993, 998)]
    assert not settled(rows, NOW, 2000)
    assert settled(rows, NOW, 2000, max_p50_ms=None)
    assert not settled(rows[:-1] + [sec(997, 1000, p50=5000.0)], NOW, 2000, max_p50_ms=None)   # one slow second
