"""The report's statistics: known values for the t-interval, the bootstrap's determinism and bounds,
and the target verdict on an interval's upper end."""

import random

import pytest

from pycontrol.bench import stats
from pycontrol.errors import UserError


def test_the_t_interval_of_one_to_five_is_three_plus_minus_1_963():
    ci = stats.mean_interval([1, 2, 3, 4, 5])
    # mean 3, s = sqrt(2.5), t(0.975, 4) = 2.776: half-width 2.776 * 1.5811 / sqrt(5) = 1.9629
    assert ci.method == "t"
    assert ci.low == pytest.approx(1.0371, abs=1e-4)
    assert ci.high == pytest.approx(4.9629, abs=1e-4)


def test_the_t_quantile_between_table_rows_takes_the_wider_one():
    assert stats.t_quantile(9) == 2.262
    assert stats.t_quantile(35) == stats.t_quantile(30) == 2.042
    assert stats.t_quantile(500) == 1.960
    with pytest.raises(UserError):
        stats.t_quantile(0)


def test_one_value_has_no_interval_and_is_undecided():
    s = stats.summarize([0.01])
    assert s.n == 1 and s.median == 0.01 and s.mean_ci is None and s.median_ci is None
    assert stats.judge_upper(s.mean_ci, 0.03) == "undecided"


def test_the_bootstrap_of_a_constant_is_that_constant_and_repeats_with_the_same_seed():
    assert stats.median_interval([4.0] * 6) == stats.Interval(4.0, 4.0, "bootstrap")
    xs = [3.1, 2.0, 9.5, 4.4, 5.0, 3.3, 7.7, 1.2]
    a = stats.median_interval(xs, random.Random(1))
    b = stats.median_interval(xs, random.Random(1))
    c = stats.median_interval(xs, random.Random(2))
    assert a == b
    assert a != c
    assert min(xs) <= a.low <= stats.summarize(xs).median <= a.high <= max(xs)


def test_the_bootstrap_of_two_values_spans_both():
    # resample medians are 0, 5 or 10; each extreme has probability 1/4, beyond the 2.5 % tails
    assert stats.median_interval([0, 10]) == stats.Interval(0.0, 10.0, "bootstrap")


def test_a_summary_holds_n_median_mean_and_range():
    s = stats.summarize([5, 1, 3, 100])
    assert (s.n, s.median, s.mean, s.low, s.high) == (4, 4.0, 27.25, 1, 100)
    d = s.as_dict()
    assert d["min"] == 1 and d["max"] == 100 and d["mean_ci"]["method"] == "t" and d["mean_ci"]["level"] == 0.95


@pytest.mark.parametrize("values", [[], [1.0, float("nan")], [float("inf")]])
def test_no_values_or_non_finite_values_are_refused(values):
    with pytest.raises(UserError):
        stats.summarize(values)


@pytest.mark.parametrize("low,high,verdict", [(-0.05, 0.02, "met"), (-0.01, 0.03, "met"),
                                              (0.01, 0.05, "undecided"), (0.031, 0.2, "not met")])
def test_the_target_is_judged_on_the_upper_end(low, high, verdict):
    assert stats.judge_upper(stats.Interval(low, high, "t"), 0.03) == verdict
