"""`pycontrol plan`: the real command line, running the scheduling plugin's PlanCli from build/dist."""

from __future__ import annotations

import ast
import os
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from pycontrol import paths

EXAMPLE = paths.REPO_ROOT / "storm-plugins" / "scheduling" / "examples" / "wordcount.json"
JAR = paths.dist_dir() / "extlib" / "nonstop-scheduling.jar"

needs_jar = pytest.mark.skipif(not JAR.is_file(), reason="build the plugin first: mvn -q -pl storm-plugins/scheduling -am package")


def pycontrol(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pycontrol", *args], capture_output=True, text=True,
                          timeout=300, env=env)


def test_listed_in_the_command_modules():
    source = Path(importlib.util.find_spec("pycontrol.cli").origin).read_text()
    lists = [ast.literal_eval(n.value) for n in ast.walk(ast.parse(source))
             if isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "COMMAND_MODULES" for t in n.targets)]
    assert "pycontrol.cli.plan_cmd" in lists[0]


@needs_jar
def test_json_plan_places_every_executor_and_counts_its_traffic():
    done = pycontrol("plan", "--scheduler", "aniello-online", "--input", str(EXAMPLE), "--json")
    assert done.returncode == 0, done.stderr
    plan = json.loads(done.stdout)
    topology = plan["topologies"][0]
    placed = [e for executors in topology["placement"].values() for e in executors]
    assert sorted(placed) == sorted(json.loads(EXAMPLE.read_text())["topology"]["executor_cpu"])
    # The reported inter-node traffic is what the placement implies for the input's traffic.
    node_of = {e: slot.split(":")[0] for slot, executors in topology["placement"].items() for e in executors}
    flows = json.loads(EXAMPLE.read_text())["topology"]["traffic"]
    crossing = sum(f["rate"] for f in flows if node_of[f["from"]] != node_of[f["to"]])
    assert topology["inter_node_traffic"] == pytest.approx(crossing)
    assert plan["totals"]["slots_used"] == len(topology["placement"])


@needs_jar
def test_table_output_for_people():
    done = pycontrol("plan", "-s", "dsm", "-i", str(EXAMPLE))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("dsm: 1 topology planned in ")
    assert "inter-node traffic" in done.stdout


@needs_jar
def test_bad_input_is_one_clear_line(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text(EXAMPLE.read_text().replace('"to": "[8,8]"', '"to": "[80,80]"'))
    done = pycontrol("plan", "-s", "dsm", "-i", str(broken))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("error: ")
    assert "executor [80,80] is not an executor of topology wordcount" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1

    unknown = pycontrol("plan", "-s", "best-one", "-i", str(EXAMPLE))
    assert unknown.returncode == 2
    assert "unknown scheduler 'best-one'" in unknown.stderr and "Traceback" not in unknown.stderr


@needs_jar
def test_no_placement_exits_1_with_the_reason(tmp_path):
    doc = json.loads(EXAMPLE.read_text())
    doc["params"]["optimum"] = {"max_executors": 4}
    limited = tmp_path / "limited.json"
    limited.write_text(json.dumps(doc))
    done = pycontrol("plan", "-s", "optimum", "-i", str(limited), "--json")
    assert done.returncode == 1
    assert json.loads(done.stdout)["ok"] is False
    assert "the limit is 4 (params.optimum.max_executors)" in done.stderr


def test_missing_build_says_how_to_build(tmp_path):
    env = {**os.environ, "PYCONTROL_DIST": str(tmp_path)}
    done = pycontrol("plan", "-s", "dsm", "-i", str(EXAMPLE), env=env)
    assert done.returncode == 2
    assert "mvn -q -pl storm-plugins/scheduling -am package" in done.stderr
    assert "Traceback" not in done.stderr
