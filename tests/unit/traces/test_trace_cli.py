"""`pycontrol trace prepare` through click's CliRunner (in-process: a Spark run reuses the shared
test session, which the command leaves running because it did not start it)."""

from __future__ import annotations

import ast
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pycontrol.cli.trace_cmd import register
from pycontrol.errors import UserError
from pycontrol.traces.replay import read_replay
from tests.unit.cli_runner import invoker

from .conftest import DATA


@pytest.fixture()
def cli():
    return invoker(register, "trace", "prepare")


def test_listed_in_the_command_modules():
    source = Path(importlib.util.find_spec("pycontrol.cli").origin).read_text()
    lists = [ast.literal_eval(n.value) for n in ast.walk(ast.parse(source))
             if isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "COMMAND_MODULES" for t in n.targets)]
    assert "pycontrol.cli.trace_cmd" in lists[0]


def test_the_cli_and_the_traces_package_load_without_spark():
    code = ("import sys, pycontrol.cli, pycontrol.traces, pycontrol.traces.stats, pycontrol.traces.replay;"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pyspark', 'py4j', 'matplotlib')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("args, message", [
    (["missing.log", "--format", "clf"], "input missing.log does not exist"),
    ([DATA / "access.log", "--format", "clf", "--conf", "novalue"], "--conf wants KEY=VALUE"),
    ([DATA / "access.log", "--format", "clf", "--sample", "0"], "--sample must be a fraction"),
    ([DATA / "access.log", "--format", "clf", "--speedup", "-2"], "--speedup must be a number > 0"),
    ([DATA / "access.log", "--format", "clf", "--key-col", "cookie"], "unknown field.*cookie"),
    ([DATA / "access.log", "--format", "clf", "--time-col", "x"], "apply to csv only"),
    ([DATA / "trips.csv", "--format", "csv", "--key-col", "vehicle"], "--time-col"),
])
def test_bad_options_are_user_errors_before_spark_starts(cli, tmp_path, args, message):
    result = cli(*args, "--out", tmp_path / "o")
    assert isinstance(result.exception, UserError), result.output
    assert re.search(message, str(result.exception)), result.exception


@pytest.mark.spark
def test_prepare_end_to_end_prints_a_readable_report(cli, spark, tmp_path):
    out = tmp_path / "o"
    result = cli(DATA / "access.log", "--format", "clf", "--out", out, "--speedup", "3", "--no-plots")
    assert result.exit_code == 0, result.output
    assert "lines: 10 read, 3 bad (30.0%) skipped" in result.stdout
    assert "  1 × not a Common/Combined Log Format line" in result.stdout
    assert "rate over 2 s: mean 3.50/s, peak 5/s" in result.stdout
    assert "keys: 4 distinct; top: /images/logo.gif 42.9%" in result.stdout
    assert "trace [" in result.stderr  # progress of the phases goes to stderr
    # offsets divided by the speed-up and floored: 1000/3 -> 333, 4000/3 -> 1333
    assert [e.offset_ms for e in read_replay(out / "replay.ndjson.gz")] == [0, 0, 0, 333, 333, 1333, 1333]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["settings"]["speedup"] == 3 and summary["events"]["replayed"] == 7
    assert summary["trace"]["duration_s"] == 4.0  # the original span is kept in the summary
    assert not (out / "rate.png").exists()
    assert spark.range(1).count() == 1  # the shared session is still alive
