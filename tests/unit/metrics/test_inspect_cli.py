"""`pycontrol inspect` and `pycontrol metrics` on recorded inputs."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from pycontrol.cli import main
from pycontrol.errors import UserError
from pycontrol.wire.executor import ExecutorId
from pycontrol.metrics.collect import Collector
from tests.unit.metrics.fakes import RecordedRest, zk_from_recording
from tests.unit.metrics.helpers import recorded


@pytest.fixture
def rec(monkeypatch):
    rec = recorded()

    def fake_open(home, ui, zk, zk_root, cpu_mhz, wait_s=10.0):
        mz, _ = zk_from_recording(rec)
        return Collector(RecordedRest(rec), mz, cpu_mhz=cpu_mhz, clock_ms=lambda: rec["recorded_at_ms"])

    monkeypatch.setattr("pycontrol.cli.inspect_cmd.open_collector", fake_open)
    return rec


def test_inspect_prints_placement_traffic_and_findings(rec):
    r = CliRunner().invoke(main, ["inspect", "keyed"], catch_exceptions=False)
    assert r.exit_code == 0
    out = r.output
    assert f"topology keyed ({rec['topology_id']}, ACTIVE)" in out
    for host in {e["host"] for c in rec["rest"]["components"].values() for e in c["executorStats"]}:
        assert f"node {host}" in out
    assert "across nodes" in out and "hottest edges:" in out and "findings:" in out
    assert "keys -> " in out


def test_inspect_json_is_the_report_and_model_the_whole_model(rec):
    r = CliRunner().invoke(main, ["inspect", "keyed", "--json", "--top", "2", "--cpu-mhz", "1000"],
                           catch_exceptions=False)
    report = json.loads(r.output)
    assert report["topology"]["id"] == rec["topology_id"]
    assert len(report["hottest_edges"]) == 2
    assert report["cpu_mhz"] == 1000.0
    w = report["most_loaded_workers"][0]
    assert w["load_hz"] == pytest.approx(w["load_cores"] * 1e9, rel=1e-6)
    full = json.loads(CliRunner().invoke(main, ["inspect", "keyed", "--json", "--model"]).output)
    # The model spells executors the wire way; the REST API the UI's way.
    assert {e["id"] for e in full["executors"]} == {
        str(ExecutorId.from_ui(e["id"])) for c in rec["rest"]["components"].values() for e in c["executorStats"]}


def test_inspect_of_an_unknown_topology_is_a_clear_error(rec):
    r = CliRunner().invoke(main, ["inspect", "nope"], standalone_mode=False)
    assert isinstance(r.exception, UserError) and "no topology named 'nope'" in str(r.exception)


def test_without_a_cluster_the_commands_say_how_to_point_them(tmp_path):
    r = CliRunner().invoke(main, ["metrics", "serve", "--home", str(tmp_path)], standalone_mode=False)
    assert isinstance(r.exception, UserError) and "--zk HOST:PORT" in str(r.exception)
