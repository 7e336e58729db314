"""The profiling sweep's controller, driven by fake measure functions (a task with a known capacity)."""

from __future__ import annotations

import pytest

from pycontrol.profiling.sweep import (BUDGET, CONVERGED, DONE, FLAT, MAX_TRIALS, NOTHING_STABLE, RateSearch,
                                       SearchSettings, Trial, bracket, find_peak_rate, next_rate, start_hint,
                                       sweep_threads, trailing_slope)


def task_with_capacity(capacity: float, log: list[float] | None = None):
    """Stable iff the rate is at most the capacity; overloaded trials ack the capacity."""
    def measure(rate: float) -> Trial:
        if log is not None:
            log.append(rate)
        ok = rate <= capacity
        return Trial(rate=rate, stable=ok, reason="stable" if ok else "latency grows",
                     acked_rate=min(rate, capacity), cpu_cores=0.5, rss_mb=100.0)
    return measure


class FakeClock:
    def __init__(self, per_call: float = 0.0):
        self.now = 0.0
        self.per_call = per_call

    def __call__(self) -> float:
        return self.now


# --- one rate search ------------------------------------------------------------------------------

@pytest.mark.parametrize("capacity, start", [(37.0, 1.0), (37.0, 500.0), (2.0, 1.6), (0.9, 10.0)])
def test_the_search_brackets_the_capacity_within_the_precision(capacity, start):
    s = SearchSettings(precision=0.1)
    result = find_peak_rate(task_with_capacity(capacity), start, s)
    lo, hi = result.bracket()
    assert result.stopped == CONVERGED
    assert lo <= capacity < hi
    assert hi - lo <= 0.1 * hi
    assert result.peak.rate == lo and result.peak.stable


def test_coarse_steps_grow_by_the_factor_until_the_first_unstable_rate_then_bisect():
    rates: list[float] = []
    find_peak_rate(task_with_capacity(10.0, rates), 1.0, SearchSettings(growth=2.0, precision=0.1))
    assert rates[:5] == [1.0, 2.0, 4.0, 8.0, 16.0]
    assert rates[5] == 12.0         # midpoint of the bracket (8, 16)
    assert rates[6] == 10.0         # (8, 12)
    assert rates[7] == 11.0         # (10, 12): 2 > 1.2, so once more; (10, 11) is within 10 %


def test_an_overloaded_first_trial_jumps_down_to_what_it_acked_but_never_more_than_two_steps():
    rates: list[float] = []
    find_peak_rate(task_with_capacity(30.0, rates), 100.0, SearchSettings(growth=2.0))
    assert rates[1] == 30.0                     # acked 30 < 100/2: try that
    rates = []
    find_peak_rate(task_with_capacity(1.0, rates), 100.0, SearchSettings(growth=2.0))
    assert rates[1] == 25.0                     # acked 1, but at most two coarse steps: 100/4


def test_a_noisy_unstable_trial_below_a_stable_one_does_not_move_the_bracket():
    trials = [Trial(8.0, True, "stable"), Trial(16.0, False, "x"), Trial(6.0, False, "noise")]
    assert bracket(trials) == (8.0, 16.0)
    assert next_rate(trials, SearchSettings()) == 12.0


def test_nothing_stable_gives_up_below_the_minimum_rate():
    result = find_peak_rate(task_with_capacity(0.0), 1.0, SearchSettings(min_rate=0.2))
    assert result.stopped == NOTHING_STABLE and result.peak is None
    assert [t.rate for t in result.trials] == [1.0, 0.5, 0.25]


def test_the_trial_cap_and_the_deadline_stop_the_search_with_the_best_so_far():
    capped = find_peak_rate(task_with_capacity(1000.0), 1.0, SearchSettings(max_trials=3))
    assert capped.stopped == MAX_TRIALS and capped.peak.rate == 4.0

    clock = FakeClock()
    def slow(rate):
        clock.now += 10.0
        return task_with_capacity(1000.0)(rate)
    timed = find_peak_rate(slow, 1.0, SearchSettings(), deadline=25.0, clock=clock)
    assert timed.stopped == BUDGET
    assert [t.rate for t in timed.trials] == [1.0, 2.0, 4.0]


def test_the_first_trial_runs_even_when_the_deadline_has_passed():
    result = find_peak_rate(task_with_capacity(5.0), 1.0, SearchSettings(), deadline=-1.0, clock=FakeClock())
    assert len(result.trials) == 1 and result.stopped == BUDGET


@pytest.mark.parametrize("bad", [dict(growth=1.0), dict(precision=0.0), dict(precision=1.0), dict(min_rate=0),
                                 dict(max_trials=0)])
def test_bad_settings_are_refused(bad):
    with pytest.raises(ValueError):
        SearchSettings(**bad)


def test_a_search_survives_its_own_json_form():
    result = find_peak_rate(task_with_capacity(7.0), 1.0, SearchSettings())
    again = RateSearch.from_dict(result.to_dict())
    assert again == result


# --- the thread sweep -------------------------------------------------------------------------------

def profile_with(capacities: dict[int, float], calls: list | None = None):
    def profile(tau, hint, deadline):
        if calls is not None:
            calls.append((tau, hint, deadline))
        start = hint if hint is not None else 1.0
        return find_peak_rate(task_with_capacity(capacities[tau]), start, SearchSettings(precision=0.05))
    return profile


def test_the_sweep_profiles_every_thread_count_while_the_peak_grows():
    sweep = sweep_threads([1, 2, 4], profile_with({1: 10.0, 2: 19.0, 4: 35.0}))
    assert sweep.stopped == DONE
    peaks = sweep.peaks()
    assert list(peaks) == [1, 2, 4]
    for tau, cap in {1: 10.0, 2: 19.0, 4: 35.0}.items():
        assert 0.95 * cap <= peaks[tau] <= cap


def test_each_search_starts_from_the_previous_peak_scaled_to_its_thread_count():
    calls: list = []
    sweep = sweep_threads([1, 2, 4], profile_with({1: 10.0, 2: 19.0, 4: 35.0}, calls))
    assert calls[0][1] is None
    assert calls[1][1] == pytest.approx(sweep.peaks()[1] * 2)
    assert calls[2][1] == pytest.approx(sweep.peaks()[2] * 2)


def test_the_sweep_stops_adding_threads_once_the_peak_rate_falls():
    calls: list = []
    sweep = sweep_threads([1, 2, 3, 4, 6], profile_with({1: 100.0, 2: 110.0, 3: 90.0, 4: 85.0, 6: 80.0}, calls),
                          window=2)
    assert sweep.stopped == FLAT
    assert [c[0] for c in calls] == [1, 2, 3]


def test_a_thread_count_with_no_stable_rate_ends_the_sweep():
    sweep = sweep_threads([1, 2], lambda tau, hint, deadline: RateSearch(1.0, (Trial(1.0, False, "x"),), NOTHING_STABLE))
    assert sweep.stopped == NOTHING_STABLE and list(sweep.searches) == [1]


def test_the_budget_is_shared_among_the_remaining_thread_counts():
    clock = FakeClock()
    calls: list = []

    def profile(tau, hint, deadline):
        calls.append((tau, clock(), deadline))
        clock.now += 50.0
        return RateSearch(1.0, (Trial(float(tau), True, "stable"),), CONVERGED)

    sweep = sweep_threads([1, 2, 4], profile, budget_s=120.0, clock=clock)
    assert calls[0] == (1, 0.0, 40.0)            # 120 s for 3 thread counts
    assert calls[1] == (2, 50.0, 50.0 + 35.0)    # 70 s left for 2
    assert calls[2] == (4, 100.0, 120.0)         # the last gets the rest
    assert sweep.stopped == DONE


def test_an_exhausted_budget_skips_the_remaining_thread_counts():
    clock = FakeClock()

    def profile(tau, hint, deadline):
        clock.now += 100.0
        return RateSearch(1.0, (Trial(1.0, True, "stable"),), CONVERGED)

    sweep = sweep_threads([1, 2, 4], profile, budget_s=60.0, clock=clock)
    assert sweep.stopped == BUDGET and list(sweep.searches) == [1]


def test_trailing_slope_and_start_hint():
    assert trailing_slope({1: 10.0}, 3) is None
    assert trailing_slope({1: 10.0, 2: 20.0, 4: 40.0}, 3) == pytest.approx(10.0)
    assert trailing_slope({1: 100.0, 2: 10.0, 3: 20.0}, 2) == pytest.approx(10.0)  # window: last two only
    searches = {1: RateSearch(1.0, (Trial(8.0, True, "s"),), CONVERGED),
                2: RateSearch(1.0, (Trial(1.0, False, "x"),), NOTHING_STABLE)}
    assert start_hint(searches, 4) == pytest.approx(32.0)   # from the last peak there is (τ=1)
    assert start_hint({}, 1) is None


@pytest.mark.parametrize("counts", [[], [0, 1], [2, 1], [1, 1], [1, True]])
def test_bad_thread_lists_are_refused(counts):
    with pytest.raises(ValueError):
        sweep_threads(counts, profile_with({}))
