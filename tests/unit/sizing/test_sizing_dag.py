"""The DAG model and its file format, including the built-in micro-DAGs of seed 002 Fig. 5."""

from __future__ import annotations

import json

import networkx as nx
import pytest

from pycontrol.errors import UserError
from pycontrol.sizing.dag import (Dag, Edge, Task, builtin_dag_names, dag_to_dict, dump_dag, load_dag,
                                  parse_dag)
from pycontrol.sizing.models import paper_models


def critical_path_vertices(dag: Dag) -> int:
    return len(nx.dag_longest_path(dag.graph))


def test_builtin_micro_dags_are_shipped():
    assert set(builtin_dag_names()) >= {"linear", "diamond", "star"}


@pytest.mark.parametrize("name, path_length", [("linear", 7), ("diamond", 4), ("star", 5)])
def test_micro_dags_have_the_papers_critical_paths(name, path_length):
    # §8.6: critical path incl. source and sink is 7 (Linear), 4 (Diamond), 5 (Star)
    dag = load_dag(name)
    assert critical_path_vertices(dag) == path_length


@pytest.mark.parametrize("name", ["linear", "diamond", "star"])
def test_micro_dags_hold_the_five_modelled_tasks_plus_source_and_sink(name):
    dag = load_dag(name)
    models = sorted(t.model for t in dag.tasks)
    assert models == sorted(["source", "sink", "parse_xml", "pi", "file_write", "azure_blob", "azure_table"])
    assert dag.sources == ("source",)
    assert all(m in paper_models() for m in models)
    assert all(e.selectivity == 1.0 for e in dag.edges)


def test_topological_order_is_deterministic_and_respects_edges():
    dag = load_dag("star")
    order = dag.topological_order
    pos = {n: i for i, n in enumerate(order)}
    assert all(pos[e.source] < pos[e.target] for e in dag.edges)
    # ties broken by declaration order
    assert order.index("B") < order.index("T")


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_round_trip_through_a_file(tmp_path, suffix):
    dag = Dag.build("mine", [Task("a", "pi", selectivity=2.0), Task("b", "sink")],
                    [Edge("a", "b", 0.5)], description="two tasks")
    path = tmp_path / f"mine{suffix}"
    dump_dag(dag, path)
    back = load_dag(path)
    assert back == dag
    assert dag_to_dict(back) == dag_to_dict(dag)


def test_task_selectivity_is_the_default_of_its_out_edges_and_an_edge_value_wins():
    dag = parse_dag({
        "tasks": [{"name": "a", "model": "m", "selectivity": 3}, {"name": "b", "model": "m"},
                  {"name": "c", "model": "m"}],
        "edges": [{"from": "a", "to": "b"}, {"from": "a", "to": "c", "selectivity": 0.25}],
    })
    sigma = {(e.source, e.target): e.selectivity for e in dag.edges}
    assert sigma == {("a", "b"): 3.0, ("a", "c"): 0.25}


def test_name_defaults_to_the_file_stem(tmp_path):
    path = tmp_path / "pipeline.yaml"
    path.write_text("tasks:\n  - {name: a, model: pi}\n")
    assert load_dag(path).name == "pipeline"


def test_unknown_builtin_name_is_a_clear_user_error():
    with pytest.raises(UserError, match=r"unknown DAG 'circle'.*built-in: .*linear"):
        load_dag("circle")


@pytest.mark.parametrize("text, message", [
    ("tasks: [", r"not valid YAML/JSON \(line"),
    ("- just a list", r"expected a mapping, got list"),
    ("name: x", r"missing key\(s\) tasks"),
    ("tasks: []", r"has no tasks"),
    ("tasks:\n  - {name: a}", r"tasks\[0\]: missing key\(s\) model"),
    ("tasks:\n  - {name: a, model: pi, colour: red}", r"unknown key\(s\) colour"),
    ("tasks:\n  - {name: a, model: pi}\n  - {name: a, model: pi}", r"task 'a' is declared twice"),
    ("tasks:\n  - {name: a, model: pi}\nedges:\n  - {from: a, to: z}", r"unknown task 'z'"),
    ("tasks:\n  - {name: a, model: pi}\nedges:\n  - {from: q, to: a}", r"unknown task 'q'"),
    ("tasks:\n  - {name: a, model: pi}\nedges:\n  - {from: a, to: a}", r"cannot feed itself"),
    ("tasks:\n  - {name: a, model: pi}\n  - {name: b, model: pi}\n"
     "edges:\n  - {from: a, to: b}\n  - {from: b, to: a}", r"has a cycle"),
    ("tasks:\n  - {name: a, model: pi}\n  - {name: b, model: pi}\n"
     "edges:\n  - {from: a, to: b}\n  - {from: a, to: b}", r"appears twice"),
    ("tasks:\n  - {name: a, model: pi}\n  - {name: b, model: pi}\n"
     "edges:\n  - {from: a, to: b, selectivity: -1}", r"selectivity: must be >= 0"),
    ("tasks:\n  - {name: a, model: pi, selectivity: yes}", r"selectivity: expected a finite number"),
    ("tasks:\n  - {name: '', model: pi}", r"expected a non-empty name"),
])
def test_malformed_dag_files_give_a_clear_user_error_naming_the_file(tmp_path, text, message):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(UserError, match=message) as err:
        load_dag(path)
    assert str(path) in str(err.value)


def test_json_dag_files_are_read(tmp_path):
    path = tmp_path / "d.json"
    path.write_text(json.dumps({"tasks": [{"name": "a", "model": "pi"}, {"name": "b", "model": "pi"}],
                                "edges": [{"from": "a", "to": "b"}]}))
    assert load_dag(path).topological_order == ("a", "b")
