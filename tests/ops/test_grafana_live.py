"""Every Grafana panel against a real Prometheus: Debian's Prometheus scrapes the shared local cluster
the way the Ansible deployment does (a node exporter per node with the label node=<its address>,
pycontrol's exporter, the controller daemon), while a word count runs and the controller, live,
migrates one of its executors. Then every panel's query must return series carrying the labels its
legend shows, the controller's gains included.

Ports are fixed offsets from the cluster's port base (its own ports leave base+3..base+99 free).
"""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests
import yaml

from pycontrol.storm import placement
from pycontrol.workloads.submit import submit_workload
from tests.conftest import wait_for
from tests.ops import dashboard_queries
from tests.ops.conftest import system_tool

pytestmark = [pytest.mark.cluster, pytest.mark.ops, pytest.mark.slow]

NAME = "ops-live-wc"
PORT_OFFSET = 60          # prometheus, exporter, controller, node exporter: base + 60..63
SCRAPE_S = 2
# As in tests/integration/test_controller_loop.py: the local "nodes" share one machine, so OTD's
# communication optimisation decides and any move saving more than 1 tuple/s qualifies.
OTD = {"threshold_asc": 1, "node_cpu_background": False, "low_cpu": 0.9, "high_cpu": 0.95,
       "low_queue": 50000, "high_queue": 100000}


@dataclass
class Monitoring:
    prometheus_url: str
    node_targets: dict[str, str]     # node address -> node exporter host:port
    exporter: str                    # host:port
    controller: str                  # host:port
    log_dir: Path

    def query(self, expr: str) -> list:
        r = requests.get(f"{self.prometheus_url}/api/v1/query", params={"query": expr}, timeout=10)
        r.raise_for_status()
        return r.json()["data"]["result"]

    def value(self, expr: str) -> float | None:
        result = self.query(expr)
        return float(result[0]["value"][1]) if result else None

    def logs(self) -> str:
        return "\n".join(f"--- {p.name}:\n" + "\n".join(p.read_text(errors="replace").splitlines()[-15:])
                         for p in sorted(self.log_dir.glob("*.log")))


class Processes:
    """The test's own daemons: started with logs in one directory, all stopped (and checked) at the end."""

    def __init__(self, log_dir: Path):
        self.log_dir = log_dir
        self.started: list[subprocess.Popen] = []

    def start(self, name: str, argv: list[str]) -> subprocess.Popen:
        log = open(self.log_dir / f"{name}.log", "w")
        p = subprocess.Popen([str(a) for a in argv], stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        self.started.append(p)
        return p

    def stop_all(self) -> None:
        for p in self.started:
            if p.poll() is None:
                p.terminate()
        for p in self.started:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(timeout=10)
        assert all(p.poll() is not None for p in self.started)


def prometheus_config(m: Monitoring) -> dict:
    return {
        "global": {"scrape_interval": f"{SCRAPE_S}s", "evaluation_interval": f"{SCRAPE_S}s"},
        "scrape_configs": [
            {"job_name": "prometheus", "static_configs": [{"targets": [m.prometheus_url.removeprefix("http://")]}]},
            {"job_name": "node", "static_configs": [{"targets": [t], "labels": {"node": node}}
                                                    for node, t in sorted(m.node_targets.items())]},
            {"job_name": "pycontrol", "honor_labels": True, "static_configs": [{"targets": [m.exporter]}]},
            {"job_name": "controller", "static_configs": [{"targets": [m.controller]}]},
        ],
    }


def controller_config() -> dict:
    return {"cycle_s": 5, "verify_timeout_s": 120, "defaults": {"policy": "off"},
            "topologies": {NAME: {"policy": "otd", "params": OTD,
                                  "safety": {"max_moves_per_cycle": 1, "cooldown_s": 30, "hysteresis_s": 600}}}}


@pytest.fixture(scope="module")
def wordcount(cluster):
    submit_workload("wordcount-java", NAME, ["topology.workers=2", "workload.par.split=2", "workload.par.count=2",
                                             "workload.rate=100", "topology.message.timeout.secs=300"],
                    cluster.conf_dir)
    rest = cluster.rest
    topo_id = wait_for(f"{NAME} listed", lambda: rest.topology_id(NAME), 60)
    try:
        wait_for("executors on both nodes", lambda: len(placement.by_host(placement.placement(rest, topo_id))) == 2,
                 240, poll_s=2)
        yield topo_id
    finally:
        rest.kill(topo_id, 0)
        wait_for(f"{NAME} gone", lambda: rest.topology_id(NAME) is None, 90)


@pytest.fixture(scope="module")
def monitoring(cluster, wordcount, tmp_path_factory):
    prometheus = system_tool("prometheus")
    node_exporter = system_tool("prometheus-node-exporter")
    work = tmp_path_factory.mktemp("grafana-live")
    base = cluster.spec.port_base + PORT_OFFSET
    loopback = "127.0.0.1"
    m = Monitoring(f"http://{loopback}:{base}", {n.host: f"{n.host}:{base + 3}" for n in cluster.spec.node_specs},
                   f"{loopback}:{base + 1}", f"{loopback}:{base + 2}", work)
    (work / "prometheus.yml").write_text(yaml.safe_dump(prometheus_config(m)))
    (work / "controller.yml").write_text(yaml.safe_dump(controller_config()))
    ui, zk = cluster.spec.ui_url, f"{cluster.spec.control_host}:{cluster.spec.zk_port}"
    procs = Processes(work)
    try:
        for node, target in m.node_targets.items():
            procs.start(f"node-exporter-{node}", [node_exporter, f"--web.listen-address={target}",
                                                  "--collector.disable-defaults", "--collector.cpu",
                                                  "--collector.meminfo", "--collector.netdev"])
        procs.start("exporter", [sys.executable, "-m", "pycontrol", "metrics", "serve", "--host", loopback,
                                 "--port", base + 1, "--interval", SCRAPE_S, "--ui", ui, "--zk", zk,
                                 "--home", cluster.spec.home])  # its ZooKeeper credentials
        procs.start("controller", [sys.executable, "-m", "pycontrol", "run", "--config", work / "controller.yml",
                                   "--ui", ui, "--zk", zk, "--metrics-host", loopback, "--metrics-port", base + 2,
                                   "--home", cluster.spec.home])
        procs.start("prometheus", [prometheus, f"--config.file={work / 'prometheus.yml'}",
                                   f"--storage.tsdb.path={work / 'tsdb'}", f"--web.listen-address={loopback}:{base}"])
        wait_for("Prometheus ready", lambda: _ok(f"{m.prometheus_url}/-/ready"), 60)
        yield m
    finally:
        procs.stop_all()


def _ok(url: str) -> bool:
    try:
        return requests.get(url, timeout=3).status_code == 200
    except requests.RequestException:
        return False


def test_prometheus_scrapes_the_node_exporters_pycontrol_and_the_controller(monitoring):
    expected = {("node", t) for t in monitoring.node_targets.values()} | {
        ("pycontrol", monitoring.exporter), ("controller", monitoring.controller),
        ("prometheus", monitoring.prometheus_url.removeprefix("http://"))}

    def all_up():
        r = requests.get(f"{monitoring.prometheus_url}/api/v1/targets", timeout=10).json()["data"]["activeTargets"]
        seen = {(t["labels"]["job"], t["labels"]["instance"]): t["health"] for t in r}
        return set(seen) == expected and all(h == "up" for h in seen.values())

    try:
        wait_for("every target up", all_up, 60, poll_s=2)
    except AssertionError:
        raise AssertionError(f"targets not all up; logs:\n{monitoring.logs()}") from None


@pytest.fixture(scope="module")
def migrated(monitoring):
    """Waits until the controller has applied a move and measured what it saved."""
    applied = f'sum(nonstop_controller_applied_moves_total{{topology="{NAME}"}})'
    t0 = time.monotonic()
    try:
        wait_for("an applied move", lambda: (monitoring.value(applied) or 0) >= 1, 300, poll_s=3)
        wait_for("its measured gain", lambda: monitoring.query(
            f'nonstop_controller_measured_gain_tuples_per_second{{topology="{NAME}"}}'), 180, poll_s=3)
    except AssertionError as e:
        raise AssertionError(f"{e}; logs:\n{monitoring.logs()}") from None
    print(f"moved and measured after {time.monotonic() - t0:.0f} s")
    return monitoring


def test_the_controller_migrates_an_executor_and_measures_the_gain(migrated):
    assert migrated.value(f'nonstop_controller_predicted_gain_tuples_per_second{{topology="{NAME}"}}') > 0
    assert migrated.value(f'sum(nonstop_controller_actions_total{{topology="{NAME}", outcome="applied"}})') >= 1
    assert migrated.value("max(nonstop_controller_is_leader)") == 1
    assert migrated.value(f'max(nonstop_controller_dry_run{{topology="{NAME}"}})') == 0


def test_every_panel_query_returns_series_with_its_legend_labels(migrated):
    queries = dashboard_queries.panel_queries({"topology": NAME})
    metrics = dashboard_queries.dashgen_metrics()
    assert len(queries) > 40
    t0 = time.monotonic()
    results = dashboard_queries.wait_until_answered(migrated.query, queries, 120, poll_s=3)
    print(f"{len(queries)} panel queries answered after {time.monotonic() - t0:.0f} s")
    gains = [q for q in queries if q.metrics & set(metrics.AFTER_AN_APPLIED_ACTION)]
    assert gains and all({s["metric"]["topology"] for s in results[q]} == {NAME} for q in gains)
