"""Degradation seconds, dense segments and the segment summary of the migration benchmark."""

import pytest

from pycontrol.bench.migration.measures import (dense_seconds, degradation_seconds, percentiles, segment_summary,
                                                weighted_percentile)
from pycontrol.errors import UserError
from pycontrol.workloads.series import Second


def sec(ts, acked, p50=10.0, p99=50.0, failed=0, n=None):
    return Second(ts=ts, emitted=acked, replayed=0, acked=acked, failed=failed, latency_n=acked if n is None else n,
                  latency_mean_ms=p50, latency_p50_ms=p50, latency_p99_ms=p99, latency_max_ms=p99 * 2, pending=0,
                  behind_ms=0.0, bad_lines=0, target_rate=100.0, tasks=1)


def test_each_second_counts_at_every_level_it_reaches():
    # baseline 100/s: 100 -> none, 79 -> 20 %, 40 -> 20/40/60 %, 19 -> up to 80 %, 0 -> all levels
    got = degradation_seconds([100, 79, 40, 19, 0, 0, 120], 100.0)
    assert got == {"20": 5, "40": 4, "60": 4, "80": 3, "100": 2}


def test_a_second_exactly_on_a_level_counts_at_that_level():
    assert degradation_seconds([80, 60, 40, 20], 100.0) == {"20": 4, "40": 3, "60": 2, "80": 1, "100": 0}


@pytest.mark.parametrize("baseline, levels, fragment", [
    (0.0, (20,), "baseline throughput must be positive"),
    (100.0, (0,), "percentages in"),
    (100.0, (120,), "percentages in"),
])
def test_degradation_refuses_meaningless_input(baseline, levels, fragment):
    with pytest.raises(UserError, match=fragment):
        degradation_seconds([1, 2], baseline, levels)


def test_missing_seconds_of_a_segment_count_as_seconds_without_throughput():
    rows = dense_seconds([sec(101, 90), sec(104, 95), sec(99, 1)], 100, 5)
    assert [r.ts for r in rows] == [100, 101, 102, 103, 104]
    assert [r.acked for r in rows] == [0, 90, 0, 0, 95]


def test_summary_of_a_segment_with_a_stall():
    rows = dense_seconds([sec(0, 100), sec(1, 100), sec(3, 200, p50=900.0, p99=2000.0, failed=3)], 0, 4)
    s = segment_summary(rows, baseline_throughput=100.0)
    assert s["seconds"] == 4 and s["acked"] == 400 and s["failed"] == 3 and s["zero_seconds"] == 1
    assert s["throughput_mean"] == 100.0 and s["throughput_vs_baseline"] == 1.0
    assert s["degradation_seconds"]["100"] == 1 and s["degradation_seconds"]["20"] == 1
    # Half of all tuples were acked in the slow second: the weighted median falls on the fast ones' edge.
    assert s["latency_ms"]["p50"] == 10.0
    assert s["latency_ms"]["p99"] == 2000.0
    assert segment_summary(rows, None).get("degradation_seconds") is None


def test_weighted_percentiles_follow_the_weights():
    assert weighted_percentile([5, 1, 9], [1, 1, 1], 50) == 5
    assert weighted_percentile([5, 1, 9], [0, 1, 10], 50) == 9
    assert weighted_percentile([5, 1], [0, 0], 50) is None
    with pytest.raises(UserError):
        weighted_percentile([1], [1], 101)
    assert percentiles([]) is None
    assert percentiles([float(i) for i in range(1, 101)]) == {"n": 100, "p50": 50.0, "p99": 99.0, "max": 100.0}
