import pytest

from pycontrol.controller.actions import Move
from pycontrol.controller.safety import SafetyLimits, SafetyState, gate
from pycontrol.errors import UserError


def mv(ex, src="a:1", dst="b:1", topo="wc"):
    return Move(topo, ex, src, dst)


LIMITS = SafetyLimits(max_moves_per_cycle=2, cooldown_s=10, hysteresis_s=100)


def test_cap_per_cycle_keeps_the_plans_order():
    v = gate([mv("[1,1]"), mv("[2,2]"), mv("[3,3]")], SafetyState(), LIMITS, now=0)
    assert [m.executor for m in v.allowed] == ["[1,1]", "[2,2]"]
    assert v.suppressed == [(mv("[3,3]"), "cap of 2 move(s) per cycle")]


def test_cooldown_after_an_action_then_free_again():
    state = SafetyState().after_applying([mv("[1,1]")], now=100, hysteresis_s=100)
    assert gate([mv("[2,2]")], state, LIMITS, now=105).applied_nothing_because == "cooldown (5 s left)"
    assert gate([mv("[2,2]")], state, LIMITS, now=110).allowed == [mv("[2,2]")]


def test_hysteresis_never_moves_an_executor_straight_back():
    state = SafetyState().after_applying([mv("[1,1]", "a:1", "b:1")], now=0, hysteresis_s=100)
    v = gate([mv("[1,1]", "b:1", "a:1")], state, LIMITS, now=50)
    assert v.allowed == []
    assert v.suppressed[0][1] == "hysteresis: moved 50 s ago back to where it came from"
    # Once the window has passed, the executor may move again, and its memory is dropped.
    assert gate([mv("[1,1]", "b:1", "a:1")], state, LIMITS, now=100).allowed
    assert "wc/[1,1]" not in state.after_applying([], now=150, hysteresis_s=100).recent


def test_dry_run_and_pause_apply_nothing_and_say_so():
    dry = gate([mv("[1,1]")], SafetyState(), SafetyLimits(dry_run=True), now=0)
    assert dry.allowed == [] and dry.suppressed[0][1] == "dry-run"
    paused = gate([mv("[1,1]")], SafetyState(paused=True), LIMITS, now=0)
    assert paused.applied_nothing_because == "paused"


def test_one_executor_moves_at_most_once_per_cycle():
    v = gate([mv("[1,1]", dst="b:1"), mv("[1,1]", dst="c:1")], SafetyState(), LIMITS, now=0)
    assert len(v.allowed) == 1
    assert v.suppressed[0][1] == "executor already moves this cycle"


def test_limits_are_validated():
    with pytest.raises(UserError, match="max_moves_per_cycle"):
        SafetyLimits(max_moves_per_cycle=0)
