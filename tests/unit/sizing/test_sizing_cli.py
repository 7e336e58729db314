"""`pycontrol allocate` through click's CliRunner.

The command is registered on a fresh group, so these tests do not depend on the other concerns'
command modules; one test checks that the real CLI lists the module.
"""

from __future__ import annotations

import ast
import importlib.util
import json
from pathlib import Path

import pytest

from pycontrol.cli.allocate_cmd import register
from pycontrol.errors import UserError
from pycontrol.sizing.allocate import allocate_mba
from pycontrol.sizing.dag import load_dag
from pycontrol.sizing.models import paper_models
from tests.unit.cli_runner import invoker


@pytest.fixture()
def cli():
    return invoker(register, "allocate")


def test_listed_in_the_command_modules():
    # read, not import: importing would load every other concern's command module too
    source = Path(importlib.util.find_spec("pycontrol.cli").origin).read_text()
    tree = ast.parse(source)
    lists = [ast.literal_eval(n.value) for n in ast.walk(tree)
             if isinstance(n, ast.Assign)
             and any(getattr(t, "id", "") == "COMMAND_MODULES" for t in n.targets)]
    assert "pycontrol.cli.allocate_cmd" in lists[0]


def test_json_output_matches_the_allocator(cli):
    result = cli("diamond", "--rate", "100", "--allocator", "mba", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    expected = allocate_mba(load_dag("diamond"), paper_models(), 100).to_json()
    assert {k: doc[k] for k in expected} == expected
    assert doc["threads"]["T"] == 160 and doc["threads"]["B"] == 170
    assert sum(v["slots"] for v in doc["vms"]) >= doc["slots"]


def test_human_table_shows_threads_and_slots(cli):
    result = cli("linear", "--rate", "50", "--allocator", "lsa")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    blob = next(line for line in lines if line.startswith("B "))
    assert blob.split()[:4] == ["B", "azure_blob", "50", "25"]
    assert "= 7" in next(line for line in lines if line.startswith("slots"))
    assert next(line for line in lines if line.startswith("VMs:")).startswith("VMs: D3 (4), D3 (4)")


def test_count_static_changes_the_slot_count(cli):
    plain = json.loads(cli("linear", "--rate", "200", "--allocator", "lsa", "--json").output)
    counted = json.loads(cli("linear", "--rate", "200", "--allocator", "lsa", "--json",
                             "--count-static").output)
    assert (plain["slots"], counted["slots"]) == (25, 26)


def test_a_dag_file_and_a_models_file(cli, tmp_path):
    dag = tmp_path / "two.yaml"
    dag.write_text("tasks:\n  - {name: a, model: fast}\n  - {name: b, model: pi}\n"
                   "edges:\n  - {from: a, to: b, selectivity: 2}\n")
    models = tmp_path / "models.yaml"
    models.write_text("models:\n  fast:\n    rows:\n      - {threads: 1, rate: 40, cpu: 0.5, memory: 0.1}\n")
    result = cli(str(dag), "--rate", "100", "--models", str(models), "--json", "--allocator", "lsa")
    doc = json.loads(result.output)
    assert doc["dag"] == "two"
    assert doc["threads"] == {"a": 3, "b": 2}  # ⌈100/40⌉, ⌈200/105⌉


@pytest.mark.parametrize("args, message", [
    (["circle", "--rate", "10"], "unknown DAG 'circle'"),
    (["linear", "--rate", "-5"], "input rate must be > 0"),
    (["linear", "--rate", "0"], "input rate must be > 0"),
])
def test_bad_input_is_a_user_error(cli, args, message):
    result = cli(*args)
    assert isinstance(result.exception, UserError)
    assert message in str(result.exception)


def test_malformed_dag_file_is_a_user_error(cli, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("tasks:\n  - {name: a, model: pi\n")
    result = cli(str(bad), "--rate", "10")
    assert isinstance(result.exception, UserError)
    assert str(bad) in str(result.exception) and "not valid YAML/JSON" in str(result.exception)


def test_dag_using_an_unknown_model_is_a_user_error(cli, tmp_path):
    dag = tmp_path / "d.yaml"
    dag.write_text("tasks:\n  - {name: a, model: warp_drive}\n")
    result = cli(str(dag), "--rate", "10")
    assert isinstance(result.exception, UserError)
    assert "uses model 'warp_drive'" in str(result.exception)


def test_unknown_allocator_is_rejected_by_click(cli):
    result = cli("linear", "--rate", "10", "--allocator", "rsm")
    assert result.exit_code == 2
    assert "rsm" in result.output
