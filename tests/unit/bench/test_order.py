"""The run order of a repetition, shared by every benchmark that repeats its arms."""

from pycontrol.bench.order import rotated


def test_each_repetition_starts_one_arm_later_and_wraps_around():
    assert [rotated(("cg", "kg", "sg"), r) for r in range(4)] == [
        ["cg", "kg", "sg"], ["kg", "sg", "cg"], ["sg", "cg", "kg"], ["cg", "kg", "sg"]]


def test_no_arm_is_always_first_or_always_last():
    orders = [rotated(["a", "b", "c"], r) for r in range(3)]
    assert {o[0] for o in orders} == {"a", "b", "c"}
    assert {o[-1] for o in orders} == {"a", "b", "c"}


def test_nothing_to_order_gives_an_empty_order():
    assert rotated((), 2) == []
