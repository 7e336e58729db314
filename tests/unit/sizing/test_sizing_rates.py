"""GetRate over hand-made DAGs and the micro-DAGs (seed 002 §6, docs/seed-specs.md §1.2)."""

from __future__ import annotations

import pytest

from pycontrol.errors import UserError
from pycontrol.sizing.dag import Dag, Edge, Task, load_dag
from pycontrol.sizing.rates import get_rate, get_rates, rate_factors


def dag(tasks, edges):
    return Dag.build("t", [Task(n, "m") for n in tasks], [Edge(a, b, s) for a, b, s in edges])


def test_chain_multiplies_selectivities():
    g = dag("abcd", [("a", "b", 2.0), ("b", "c", 0.5), ("c", "d", 3.0)])
    assert get_rates(g, 10) == {"a": 10, "b": 20, "c": 10, "d": 30}


def test_out_edges_duplicate_and_inputs_add_up():
    # a fans out to b and c (each gets a full copy), d joins them
    g = dag("abcd", [("a", "b", 1.0), ("a", "c", 1.0), ("b", "d", 1.0), ("c", "d", 0.5)])
    assert get_rates(g, 40) == {"a": 40, "b": 40, "c": 40, "d": 60}


def test_every_source_gets_the_whole_input_rate():
    g = dag("xyz", [("x", "z", 1.0), ("y", "z", 2.0)])
    assert get_rates(g, 7) == {"x": 7, "y": 7, "z": 21}


def test_zero_selectivity_starves_downstream():
    g = dag("ab", [("a", "b", 0.0)])
    assert get_rates(g, 100)["b"] == 0


def test_isolated_task_is_a_source():
    g = dag("ab", [])
    assert get_rates(g, 5) == {"a": 5, "b": 5}


def test_rates_are_linear_in_omega():
    g = dag("abc", [("a", "b", 1.5), ("b", "c", 0.2)])
    f = rate_factors(g)
    for omega in (0.0, 1.0, 13.0, 250.0):
        assert get_rates(g, omega) == pytest.approx({t: omega * f[t] for t in f})


def test_star_hub_and_its_spokes_see_twice_the_rate():
    star = load_dag("star")
    r = get_rates(star, 100)
    assert r["B"] == r["T"] == 100
    assert r["X"] == 200          # the hub (docs/seed-specs.md §1.2: "this is how the Star hub gets 2Ω")
    assert r["P"] == r["F"] == 200  # duplicate semantics on the hub's out-edges
    assert r["sink"] == 400


@pytest.mark.parametrize("name", ["linear", "diamond"])
def test_linear_and_diamond_tasks_all_see_omega(name):
    r = get_rates(load_dag(name), 50)
    assert all(r[t] == 50 for t in ("X", "P", "T", "B", "F"))


def test_get_rate_for_one_task_and_unknown_task():
    g = dag("ab", [("a", "b", 4.0)])
    assert get_rate(g, "b", 2.5) == 10
    with pytest.raises(UserError, match="no task 'q'"):
        get_rate(g, "q", 1)


@pytest.mark.parametrize("bad", [-1, float("nan"), float("inf"), "10", True])
def test_bad_input_rates_are_rejected(bad):
    with pytest.raises(UserError, match="input rate"):
        get_rates(dag("a", []), bad)
