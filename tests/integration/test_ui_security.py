"""The real cluster's UI REST server is secure by default: state-changing requests need the cluster's
token and a same origin, JSONP is off, bodies are capped, and a public ui.host without a token
does not start."""

from __future__ import annotations

import os
import subprocess

import pytest
import requests
import yaml
from click.testing import CliRunner

from pycontrol.cli import main
from pycontrol.cluster import daemons
from pycontrol.cluster.java import find_java
from pycontrol.storm import submit
from tests.conftest import wait_for

pytestmark = pytest.mark.cluster

NAME = "it-ui-security"
MAX_BODY_BYTES = 65536  # the server's default nonstop.ui.max.body.bytes


@pytest.fixture(scope="module")
def topology(cluster):
    submit.submit_java("relay", NAME, ["workload.total=100000", "workload.rate=20", "topology.workers=1"],
                       cluster.conf_dir)
    rest = cluster.rest
    topo_id = wait_for(f"{NAME} listed", lambda: rest.topology_id(NAME), 60)
    try:
        yield topo_id
    finally:
        if rest.topology_id(NAME) is not None:
            rest.kill(topo_id, 0)
        wait_for(f"{NAME} gone", lambda: rest.topology_id(NAME) is None, 90)


def _status(cluster, topo_id: str) -> str:
    return cluster.rest.topology(topo_id)["status"]


def _post(cluster, path: str, headers: dict | None = None, data: bytes | None = None) -> requests.Response:
    return requests.post(f"{cluster.spec.ui_url}/api/v1{path}", headers=headers or {}, data=data, timeout=30)


def _refusal(resp: requests.Response, status: int) -> str:
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert body["error"].startswith(str(status)) and body["errorMessage"]
    return body["errorMessage"]


def test_a_kill_without_the_right_token_or_from_a_foreign_origin_changes_nothing(cluster, topology):
    kill = f"/topology/{topology}/kill/0"
    assert "Authorization: Bearer" in _refusal(_post(cluster, kill), 401)
    assert "token" in _refusal(_post(cluster, kill, {"Authorization": "Bearer not-the-cluster-token-0123"}), 403)
    token = cluster.rest.token
    assert token
    foreign = {"Authorization": f"Bearer {token}", "Origin": "http://evil.example"}
    assert "origin http://evil.example" in _refusal(_post(cluster, kill, foreign), 403)
    # Nimbus marks a killed topology KILLED at once: still ACTIVE means no refused kill reached it.
    assert _status(cluster, topology) == "ACTIVE"
    assert cluster.rest.topology_id(NAME) == topology


def test_foreign_origins_get_no_cors_grant_nor_the_token_and_jsonp_returns_no_data(cluster):
    reply = requests.get(f"{cluster.spec.ui_url}/api/v1/cluster/configuration", timeout=30,
                         headers={"Origin": "http://evil.example"})
    assert reply.status_code == 200 and "nimbus.thrift.port" in reply.json()
    assert "Access-Control-Allow-Origin" not in reply.headers
    # Reads are open on loopback: the configuration they show never carries the token itself.
    assert reply.json()["nonstop.ui.token"] == "*****" and cluster.rest.token not in reply.text
    jsonp = requests.get(f"{cluster.spec.ui_url}/api/v1/cluster/configuration", params={"callback": "steal"},
                         timeout=30)
    assert "JSONP is disabled" in _refusal(jsonp, 400)
    assert "steal(" not in jsonp.text and "nimbus.thrift.port" not in jsonp.text
    assert jsonp.headers["Content-Type"].startswith("application/json")


def test_an_oversize_body_is_refused_with_413(cluster, topology):
    body = b'{"rebalanceOptions":{"numWorkers":1}}'.ljust(MAX_BODY_BYTES + 1, b" ")
    resp = _post(cluster, f"/topology/{topology}/rebalance/0",
                 {"Authorization": f"Bearer {cluster.rest.token}", "Content-Type": "application/json"}, body)
    assert "nonstop.ui.max.body.bytes" in _refusal(resp, 413)
    assert _status(cluster, topology) == "ACTIVE"


def test_the_client_with_the_token_still_rebalances_and_the_cli_kills(cluster, topology):
    rest = cluster.rest
    assert rest.rebalance(topology, 1)["status"] == "success"
    wait_for(f"{NAME} active again after the rebalance", lambda: _status(cluster, topology) == "ACTIVE", 120)
    # The CLI finds the token in the cluster's control conf by itself.
    r = CliRunner().invoke(main, ["topology", "kill", NAME, "--home", str(cluster.spec.home)], standalone_mode=False)
    assert r.exception is None and f"killed {NAME}" in r.output, r.output
    assert rest.topology_id(NAME) is None


def test_a_public_ui_host_without_a_token_refuses_to_start(cluster, tmp_path):
    conf = yaml.safe_load((cluster.conf_dir / "storm.yaml").read_text())
    conf.pop("nonstop.ui.token")
    conf["ui.host"] = "::"  # every address: not loopback
    (tmp_path / "storm.yaml").write_text(yaml.safe_dump(conf))
    cmd = daemons.ui(cluster.spec, cluster.layout, find_java())
    control, logs = str(cluster.conf_dir), str(cluster.layout.logs)
    argv = [a.replace(control, str(tmp_path)).replace(logs, str(tmp_path)) for a in cmd.argv]
    done = subprocess.run(argv, env={**os.environ, "STORM_CONF_DIR": str(tmp_path)},
                          capture_output=True, text=True, timeout=180)
    assert done.returncode != 0
    errors = [line for line in (tmp_path / "ui.log").read_text().splitlines() if "[ERROR]" in line]
    assert len(errors) == 1, errors
    assert "set nonstop.ui.token" in errors[0]
