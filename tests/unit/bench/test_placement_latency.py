"""The scheduler latency benchmark's analysis: spreads over repetitions, the pairing with default's run
of the same repetition, busy starts, and the target's verdict."""

from pycontrol.bench import placement_latency as pl


def run(scheduler, rep, p50, mean=None, busy=False, share=0.3):
    return {"scheduler": scheduler, "repetition": rep, "busy_start": busy, "acked_per_s": 600.0,
            "inter_node_share": share,
            "latency_ms": {"p50_of_seconds": p50, "mean": mean if mean is not None else p50, "p99_of_seconds_max": 3 * p50}}


def test_lower_by_is_the_fraction_below_default_and_negative_above_it():
    assert pl.lower_by(7.5, 10.0) == 0.25
    assert pl.lower_by(12.0, 10.0) == -0.2
    assert pl.lower_by(None, 10.0) is None and pl.lower_by(5.0, 0.0) is None


def test_each_scheduler_is_compared_with_defaults_run_of_the_same_repetition():
    runs = [run("default", 0, 10.0), run("aniello-online", 0, 5.0),
            run("default", 1, 20.0), run("aniello-online", 1, 16.0),
            run("aniello-online", 2, 1.0)]          # repetition 2 has no default run: not paired
    assert pl.paired(runs) == {"aniello-online": {"p50_lower_than_default": [0.5, 0.2],
                                                  "mean_lower_than_default": [0.5, 0.2]}}


def test_the_summary_gives_n_median_and_range_per_scheduler_and_judges_the_target_on_the_median():
    runs = [run("default", r, p) for r, p in enumerate((10.0, 12.0, 8.0))]
    runs += [run("aniello-online", r, p, share=0.0) for r, p in enumerate((5.0, 10.8, 4.0))]
    s = pl.summarize(runs)
    assert s["by_scheduler"]["default"]["p50_ms"] == {"n": 3, "median": 10.0, "min": 8.0, "max": 12.0}
    assert s["by_scheduler"]["aniello-online"]["inter_node_share"]["median"] == 0.0
    red = s["vs_default"]["aniello-online"]["p50_lower_than_default"]
    assert (red["n"], red["median"], red["min"], red["max"]) == (3, 0.5, 0.1, 0.5)
    assert s["target"]["verdict"] == "met" and s["target"]["in_every_repetition"] is False


def test_a_median_reduction_below_the_target_is_not_met_and_no_pairs_is_not_measured():
    runs = [run("default", 0, 10.0), run("aniello-online", 0, 9.0)]
    assert pl.summarize(runs)["target"]["verdict"] == "not met"
    assert pl.summarize([run("default", 0, 10.0)])["target"]["verdict"] == "not measured"


def test_busy_start_runs_are_left_out_where_quiet_runs_of_the_scheduler_exist():
    runs = [run("default", 0, 50.0, busy=True), run("default", 0, 10.0),
            run("aniello-online", 0, 5.0, busy=True)]   # its only run: kept
    kept, left_out = pl.usable(runs)
    assert [r["latency_ms"]["p50_of_seconds"] for r in kept] == [10.0, 5.0] and left_out == 1
    assert pl.summarize(runs)["busy_start_left_out"] == 1
