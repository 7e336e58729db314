"""Pure statistics of prepared traces (no Spark)."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from pycontrol.traces.stats import (KeyStatsBuilder, RateSeriesBuilder, fit_zipf, key_stats, log_spaced_ranks,
                                    rate_stats)


def series_histogram(series):
    return Counter(c for c in series if c > 0)


# -- rates ----------------------------------------------------------------------------------------

def test_rate_stats_match_the_expanded_series():
    series = [3, 2, 0, 0, 2, 7, 0, 1]
    r = rate_stats(series_histogram(series), len(series))
    mean = sum(series) / len(series)
    var = sum((c - mean) ** 2 for c in series) / len(series)
    assert r.events == 15 and r.seconds == 8 and r.empty_seconds == 3
    assert r.mean == pytest.approx(mean)
    assert r.peak == 7 and r.peak_to_mean == pytest.approx(7 / mean)
    assert r.std == pytest.approx(math.sqrt(var))
    assert r.cv == pytest.approx(math.sqrt(var) / mean)
    assert r.index_of_dispersion == pytest.approx(var / mean)
    # nearest-rank percentiles of the sorted series 0 0 0 1 2 2 3 7
    assert (r.p50, r.p95, r.p99) == (1, 7, 7)


def test_a_steady_series_has_no_burstiness():
    r = rate_stats({5: 10}, 10)
    assert (r.mean, r.peak, r.std, r.cv, r.peak_to_mean, r.empty_seconds) == (5, 5, 0, 0, 1, 0)


def test_trailing_and_leading_empty_seconds_count_in_the_mean():
    r = rate_stats({4: 1}, 4)
    assert r.mean == 1 and r.empty_seconds == 3 and r.p50 == 0 and r.p99 == 4


@pytest.mark.parametrize("hist, seconds", [({1: 3}, 2), ({1: 1}, 0), ({-1: 1}, 2)])
def test_inconsistent_histograms_are_rejected(hist, seconds):
    with pytest.raises(ValueError):
        rate_stats(hist, seconds)


def test_series_builder_gives_the_stats_and_plot_buckets_of_a_sparse_series():
    b = RateSeriesBuilder(seconds=10, max_buckets=4)  # 3-second buckets: 0-2, 3-5, 6-8, 9
    for sec, n in [(0, 3), (1, 1), (5, 6), (9, 2)]:
        b.add(sec, n)
    assert b.width == 3 and b.events == 12
    assert b.buckets() == [(0, 4 / 3, 3), (3, 2.0, 6), (6, 0.0, 0), (9, 2.0, 2)]
    expected = rate_stats(series_histogram([3, 1, 0, 0, 0, 6, 0, 0, 0, 2]), 10)
    assert b.stats() == expected


@pytest.mark.parametrize("sec, n", [(1, 1), (10, 1), (3, 0)])
def test_series_builder_rejects_out_of_order_outside_or_empty_seconds(sec, n):
    b = RateSeriesBuilder(seconds=10)
    b.add(1, 2)
    with pytest.raises(ValueError):
        b.add(sec, n)


# -- ranks and the Zipf fit -----------------------------------------------------------------------

def test_log_spaced_ranks_are_dense_then_about_twenty_per_decade():
    ranks = log_spaced_ranks(10_000)
    assert ranks[:10] == list(range(1, 11))
    assert ranks == sorted(set(ranks)) and ranks[-1] <= 10_000
    per_decade = [sum(1 for r in ranks if 10 ** d < r <= 10 ** (d + 1)) for d in (2, 3)]
    assert all(19 <= n <= 21 for n in per_decade)
    assert log_spaced_ranks(0) == []


def test_exact_power_law_gives_its_exponent_and_perfect_r2():
    points = [(r, round(1e6 * r ** -1.3)) for r in range(1, 200)]
    fit = fit_zipf(points, min_count=1)
    assert fit.exponent == pytest.approx(1.3, abs=1e-3)
    assert fit.r2 == pytest.approx(1.0, abs=1e-5)
    assert math.exp(fit.intercept) == pytest.approx(1e6, rel=1e-3)


def test_too_few_frequent_keys_give_no_fit():
    assert fit_zipf([(1, 50), (2, 20), (3, 9)], min_count=10) is None
    assert fit_zipf([(1, 5), (1, 5), (1, 5)], min_count=1) is None  # one rank: no slope


def zipf_stream(s: float, keys: int, events: int, seed: int) -> Counter:
    rng = random.Random(seed)
    weights = [r ** -s for r in range(1, keys + 1)]
    return Counter(rng.choices(range(keys), weights=weights, k=events))


@pytest.mark.parametrize("s", [0.8, 1.0, 1.5])
def test_zipf_fit_recovers_the_exponent_of_a_generated_stream(s):
    counts = zipf_stream(s, keys=2000, events=100_000, seed=42)
    stats = key_stats(((f"k{k}", c) for k, c in counts.items()), zipf_min_count=10)
    assert stats.zipf is not None
    assert abs(stats.zipf.exponent - s) <= 0.05, stats.zipf


# -- key statistics -------------------------------------------------------------------------------

def test_key_stats_top_k_shares_and_entropy():
    counts = {"a": 6, "b": 3, "c": 1}
    stats = key_stats(counts.items(), top_k=2)
    assert [(k.key, k.count) for k in stats.top] == [("a", 6), ("b", 3)]
    assert [k.share for k in stats.top] == pytest.approx([0.6, 0.3])
    assert stats.top_share == {1: pytest.approx(0.6)}  # cut 10 is above the 3 distinct keys
    expected_h = -sum(p * math.log2(p) for p in (0.6, 0.3, 0.1))
    assert stats.entropy_bits == pytest.approx(expected_h)
    assert stats.normalized_entropy == pytest.approx(expected_h / math.log2(3))
    assert (stats.events, stats.distinct) == (10, 3)


def test_ties_are_ordered_by_key():
    stats = key_stats([("z", 2), ("b", 2), ("m", 5)], top_k=3)
    assert [k.key for k in stats.top] == ["m", "b", "z"]


def test_top_share_cuts_up_to_the_number_of_keys():
    stats = key_stats(((f"k{i:03}", 1000 - i) for i in range(100)), top_k=0)
    assert set(stats.top_share) == {1, 10, 100}
    assert stats.top_share[100] == pytest.approx(1.0)
    assert stats.top_share[10] == pytest.approx(sum(1000 - i for i in range(10)) / stats.events)
    assert stats.top == []


def test_builder_rejects_unsorted_or_empty_counts():
    b = KeyStatsBuilder()
    b.add("a", 5)
    with pytest.raises(ValueError):
        b.add("b", 6)
    with pytest.raises(ValueError):
        KeyStatsBuilder().add("a", 0)


def test_empty_table():
    stats = KeyStatsBuilder().result()
    assert (stats.events, stats.distinct, stats.zipf) == (0, 0, None)
