"""Model-based prediction of a placement's rate and usage (seed 002 §8.5, docs/seed-specs.md §1.11)."""

from __future__ import annotations

import pytest

from pycontrol.errors import UserError
from pycontrol.sizing.allocate import Allocation, allocate_lsa, allocate_mba
from pycontrol.sizing.dag import load_dag
from pycontrol.sizing.models import paper_models
from pycontrol.sizing.predict import Placement, Routing, SlotPlacement, predict

MODELS = paper_models()
DIAMOND = load_dag("diamond")
STAR = load_dag("star")


def bundle_placement(a: Allocation, slots_per_node: int = 4) -> Placement:
    """Every full bundle on a slot of its own, each task's rest on one more slot of its own."""
    slots: dict[str, dict[str, int]] = {}
    for name, t in a.tasks.items():
        left = t.threads
        if t.bundle_threads is not None:
            while left >= t.bundle_threads and t.input_rate > 0:
                slots[f"s{len(slots)}"] = {name: t.bundle_threads}
                left -= t.bundle_threads
        if left:
            slots[f"s{len(slots)}"] = {name: left}
    return Placement.from_mapping(slots, {s: f"vm{i // slots_per_node}" for i, s in enumerate(slots)})


def with_groups(base: dict[str, dict[str, int]], task: str, sizes: list[int]) -> Placement:
    slots = dict(base)
    for i, q in enumerate(sizes):
        slots[f"{task}{i}"] = {task: q}
    return Placement.from_mapping(slots, {s: "vm" for s in slots})


def groups_of(pred, task):
    return [g for g in pred.groups if g.task == task]


@pytest.mark.parametrize("dag_name", ["linear", "diamond", "star"])
@pytest.mark.parametrize("omega", [50, 100, 200, 280])
def test_mba_bundles_on_exclusive_slots_support_the_planned_rate(dag_name, omega):
    dag = load_dag(dag_name)
    a = allocate_mba(dag, MODELS, omega)
    pred = predict(dag, MODELS, bundle_placement(a))
    assert pred.supported_rate >= omega * (1 - 1e-9)


def test_diamond_table_fill_vs_shuffle_routing():
    # §8.4.1, Diamond at 100 t/s: 160 Table threads as 60 + 60 + 40; the model expects
    # 40 + 40 + 20 t/s, Storm's shuffle grouping delivered about 37, 37 and 26.
    others = {"src": {"source": 1}, "x": {"X": 1}, "p": {"P": 1}, "b": {"B": 170}, "f": {"F": 1},
              "snk": {"sink": 1}}
    placement = with_groups(others, "T", [60, 60, 40])
    fill = predict(DIAMOND, MODELS, placement, at_rate=100)
    assert [g.received for g in groups_of(fill, "T")] == pytest.approx([40, 40, 20])
    assert fill.rate_limits["T"] == pytest.approx(100)
    below = predict(DIAMOND, MODELS, placement, at_rate=90)  # full bundles first, rest to the partial
    assert [g.received for g in groups_of(below, "T")] == pytest.approx([40, 40, 10])
    shuffle = predict(DIAMOND, MODELS, placement, routing=Routing.SHUFFLE, at_rate=100)
    assert [g.received for g in groups_of(shuffle, "T")] == pytest.approx([37.5, 37.5, 20])  # capped
    assert shuffle.rate_limits["T"] == pytest.approx(80)  # the 40-thread slot fills first


def test_lsa_rsm_diamond_table_threads_support_30_tuples_per_second():
    # §8.4.1: LSA's 17 Table threads placed 2, 2, 2, 2 and 9 per slot: "4 x 5 + 1 x 10 = 30"
    a = allocate_lsa(DIAMOND, MODELS, 50)
    assert a.tasks["T"].threads == 17
    others = {"src": {"source": 1}, "x": {"X": 1}, "p": {"P": 1}, "f": {"F": 1}, "snk": {"sink": 1}}
    others.update({f"b{i}": {"B": 1} for i in range(a.tasks["B"].threads)})  # 25 x 2 t/s = 50
    pred = predict(DIAMOND, MODELS, with_groups(others, "T", [2, 2, 2, 2, 9]))
    assert pred.supported_rate == pytest.approx(30)
    assert pred.bottlenecks == ("T",)


def test_star_parse_threads_below_peak_are_scaled_down():
    # §8.5.2: 2 Parse threads on separate slots for 480 t/s; the one not at peak is predicted
    # at "47%" CPU (0.85 x 170/310)
    base = {"src": {"source": 1}, "b": {"B": 400}, "t": {"T": 400}, "p": {"P": 20}, "f": {"F": 4},
            "snk": {"sink": 1}}
    placement = with_groups(base, "X", [1, 1])
    fill = predict(STAR, MODELS, placement, at_rate=240)
    xml = groups_of(fill, "X")
    assert [g.received for g in xml] == pytest.approx([310, 170])
    assert [g.cpu for g in xml] == pytest.approx([0.85, 0.85 * 170 / 310])
    assert round(xml[1].cpu, 2) == 0.47
    shuffle = predict(STAR, MODELS, placement, routing="shuffle", at_rate=240)
    assert [g.cpu for g in groups_of(shuffle, "X")] == pytest.approx([0.85 * 240 / 310] * 2)


def test_node_usage_is_the_sum_of_its_slots_and_static_tasks_split_by_threads():
    a = allocate_mba(DIAMOND, MODELS, 100)
    placement = bundle_placement(a, slots_per_node=2)
    pred = predict(DIAMOND, MODELS, placement)
    for node in pred.node_cpu:
        slots = [s.slot for s in placement.slots if s.node == node]
        assert pred.node_cpu[node] == pytest.approx(sum(pred.slot_cpu[s] for s in slots))
        assert pred.node_memory[node] == pytest.approx(sum(pred.slot_memory[s] for s in slots))
    split = Placement.from_mapping({"a": {"source": 1, "X": 1}, "b": {"source": 1}}, {"a": "n", "b": "n"})
    two = predict(load_dag("linear"), MODELS, split, at_rate=10)
    assert [g.cpu for g in groups_of(two, "source")] == pytest.approx([0.05, 0.05])


def test_groups_saturate_above_the_supported_rate():
    a = allocate_mba(DIAMOND, MODELS, 100)
    pred = predict(DIAMOND, MODELS, bundle_placement(a), at_rate=10_000)
    for g in pred.groups:
        if g.task in ("T", "B"):
            model = MODELS[a.tasks[g.task].model]
            assert g.received == pytest.approx(g.capacity)
            assert g.cpu == pytest.approx(model.cpu(g.threads))
            assert g.memory == pytest.approx(model.memory(g.threads))


def test_overloaded_slots_are_reported():
    a = allocate_mba(DIAMOND, MODELS, 100)
    exclusive = predict(DIAMOND, MODELS, bundle_placement(a))
    assert exclusive.overloaded_slots == ()
    slots = {"a": {"X": 1, "P": 2}, "b": {"source": 1, "F": 1, "sink": 1}, "c": {"T": 60}, "d": {"B": 50}}
    crowded = Placement.from_mapping(slots, {s: "n" for s in slots})
    pred = predict(DIAMOND, MODELS, crowded, at_rate=100)
    assert pred.slot_cpu["a"] > 1 and pred.overloaded_slots == ("a",)


def test_usage_grows_with_the_evaluated_rate():
    a = allocate_mba(DIAMOND, MODELS, 100)
    placement = bundle_placement(a)
    low, high = (predict(DIAMOND, MODELS, placement, at_rate=r) for r in (30, 90))
    assert sum(high.slot_cpu.values()) > sum(low.slot_cpu.values())


def test_a_task_without_threads_supports_nothing():
    placement = Placement.from_mapping({"a": {"X": 1}}, {"a": "n"})
    pred = predict(load_dag("linear"), MODELS, placement)
    assert pred.supported_rate == 0
    assert set(pred.bottlenecks) == {"P", "T", "B", "F"}
    assert pred.to_json()["supported_rate"] == 0


def test_bad_placements():
    with pytest.raises(UserError, match="not in DAG 'linear'.*Q"):
        predict(load_dag("linear"), MODELS, Placement.from_mapping({"a": {"Q": 1}}, {"a": "n"}))
    with pytest.raises(UserError, match="no node given for slot"):
        Placement.from_mapping({"a": {"X": 1}}, {})
    with pytest.raises(UserError, match="expected a whole number"):
        Placement.from_mapping({"a": {"X": -1}}, {"a": "n"})
    with pytest.raises(UserError, match="slot 'a' appears twice"):
        Placement((SlotPlacement("a", "n", {}), SlotPlacement("a", "m", {})))
    with pytest.raises(UserError, match="unknown routing 'random'"):
        predict(load_dag("linear"), MODELS, Placement.from_mapping({"a": {"X": 1}}, {"a": "n"}),
                routing="random")
