"""Documents that break the executor span rule (pycontrol/wire/executor.py, tests/vectors/documents) on
the real cluster: a forged metrics document with a span to 2^31-1 in a topology's metrics directory does
not stop Nimbus (it logs one rejection per document and keeps deciding plans), `pycontrol inspect` skips
it with the reason instead of hanging, and plans naming a huge range or an unknown executor are rejected
with their reason code."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pycontrol import zk
from pycontrol.cluster.layout import Layout
from pycontrol.migration.migrate import wait_decision, write_plan
from pycontrol.storm import placement, submit
from pycontrol.wire.executor import ExecutorId
from tests.conftest import submitted_topology, wait_for

pytestmark = pytest.mark.cluster

NAME = "val-relay"
# sequence (1) -> relay (2) -> sink (1); aniello-online reads the metrics plane every round.
SETTINGS = ["workload.rate=20", "workload.relays=2", "workload.sinks=1", "topology.workers=2",
            "nonstop.scheduler=aniello-online"]
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "metrics-document-v1.json"
METRICS_ROOT = "/nonstop/metrics"


def _forged(topo_id: str, port: int, first_id: list[int]) -> tuple[str, bytes]:
    """A fresh, well-placed document of the topology whose first executor is `first_id`."""
    doc = copy.deepcopy(json.loads(FIXTURE.read_text()))
    doc["topology_id"] = topo_id
    doc["worker"]["host"], doc["worker"]["port"] = "127.0.0.99", port
    doc["window"]["end_ms"] = int(time.time() * 1000)
    doc["window"]["period_s"] = 3600  # stays fresh for the whole test: only the span can refuse it
    doc["executors"][0]["id"] = first_id
    return f"{METRICS_ROOT}/{topo_id}/127.0.0.99-{port}", json.dumps(doc).encode()


@pytest.fixture(scope="module")
def topology(cluster):
    submit.submit_java("relay", NAME, SETTINGS, cluster.conf_dir)
    with submitted_topology(cluster, NAME) as (topo_id, client):
        wait_for("all four executors placed", lambda: len(placement.placement(cluster.rest, topo_id)) == 4, 300)
        yield topo_id, client


def test_a_forged_span_does_not_stop_nimbus_or_inspect_and_bad_plans_are_rejected(cluster, topology):
    topo_id, client = topology
    nimbus_log = Layout(cluster.spec.home).logs / "nimbus.log"
    offset = nimbus_log.stat().st_size

    def log_since() -> str:
        with nimbus_log.open(errors="replace") as f:
            f.seek(offset)
            return f.read()

    huge_path, huge = _forged(topo_id, 1, [1, 2**31 - 1])
    stray_path, stray = _forged(topo_id, 2, [500, 500])
    # Ephemeral: gone with this session, as a worker's own document would be.
    client.create(huge_path, huge, ephemeral=True, makepath=True)
    client.create(stray_path, stray, ephemeral=True, makepath=True)

    huge_line = f"skipping metrics document {huge_path}: $.executors[0].id: span_too_large"
    stray_line = f"skipping metrics document {stray_path}: unknown_executor: executor [500,500]"
    wait_for("Nimbus's rejection of both forged documents",
             lambda: huge_line in log_since() and stray_line in log_since(), 90)

    # Nimbus keeps scheduling: plans written afterwards are decided in later rounds, each with its reason.
    # The huge range is written raw: pycontrol's own writer refuses it before ZooKeeper.
    first = placement.placement(cluster.rest, topo_id)[0]
    host, port = first.host, first.port
    version = zk.write_json(client, f"{zk.PLANS}/{NAME}",
                            {"request_id": "forged", "placement": {f"[1,{2**31 - 1}]": f"{host}:{port}"}})
    d = wait_decision(client, NAME, topo_id, version, 60)
    assert d.status == "rejected" and "span_too_large" in d.reason and "[1,2147483647]" in d.reason, d
    _, version = write_plan(client, NAME, {ExecutorId(999, 999): (host, port)})
    d = wait_decision(client, NAME, topo_id, version, 60)
    assert d.status == "rejected" and "unknown_executor: executor [999,999]" in d.reason, d
    # One WARN per written document, not one per round: several rounds have passed by now.
    log = log_since()
    assert log.count(huge_line) == 1 and log.count(stray_line) == 1, log[-3000:]

    # The Python reader skips them with the reason, well within a bound.
    p = subprocess.run([sys.executable, "-m", "pycontrol", "inspect", NAME, "--json", "--home", str(cluster.spec.home)],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    findings = {f["subject"]: f["detail"] for f in json.loads(p.stdout)["findings"]
                if f["kind"] == "skipped-document"}
    assert any("span_too_large" in r for r in findings.values()), findings
    assert any("unknown_executor" in r for r in findings.values()), findings
