"""The nonstop+ targets of the migration benchmark, judged over every segment of the scheme."""

from pycontrol.bench.migration import targets


def segment(scheme="nonstop+", gap=300.0, ratio=1.5, each=(400.0, 600.0), missing=0, failed=0, moves=3):
    return {"scheme": scheme, "summary": {"failed": failed},
            "moves_summary": {"moves": moves, "longest_ack_gap_ms": gap, "after_p99_vs_steady": ratio},
            "plan_to_effect": {"all_senders": {"each_ms": list(each), "missing": missing}}}


def test_a_file_without_the_scheme_has_no_targets():
    assert targets.judge([segment(scheme="nonstop")]) == {}


def test_the_worst_move_decides_and_every_moved_executor_is_pooled():
    t = targets.judge([segment(gap=300.0, ratio=1.5), segment(gap=1200.0, ratio=1.9, each=(2500.0,)),
                       segment(scheme="worker-restart", gap=9000.0, ratio=50.0)])
    assert (t["longest_ack_gap_ms"]["value"], t["longest_ack_gap_ms"]["met"]) == (1200.0, False)
    assert (t["after_p99_vs_steady"]["value"], t["after_p99_vs_steady"]["met"]) == (1.9, True)
    assert t["longest_ack_gap_ms"]["n"] == 6
    p50, p99 = t["plan_to_effect_p50_ms"], t["plan_to_effect_p99_ms"]
    assert (p50["n"], p50["value"], p50["met"]) == (3, 600.0, True)
    assert (p99["value"], p99["met"]) == (2500.0, False)
    assert not p50["enough"] and not p99["enough"]


def test_a_hundred_moves_are_enough_and_a_move_never_in_effect_or_a_failed_tuple_misses():
    t = targets.judge([segment(each=[500.0] * 100, missing=1, failed=2)])
    assert t["plan_to_effect_p50_ms"]["enough"]
    assert (t["moves_never_in_effect"]["value"], t["moves_never_in_effect"]["met"]) == (1, False)
    assert (t["failed_tuples"]["value"], t["failed_tuples"]["met"]) == (2, False)


def test_nothing_measured_is_not_judged():
    t = targets.judge([{"scheme": "nonstop+"}])
    assert t["longest_ack_gap_ms"]["met"] is None and t["plan_to_effect_p50_ms"]["met"] is None
    assert t["failed_tuples"]["met"] is True
