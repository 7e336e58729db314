"""The demo's controller part against a real pinned cluster, with short phases: OTD live, then the
control run without moves, compared window by window."""

from __future__ import annotations

import json
import os

import pytest

from pycontrol.bench.otd import comparison
from pycontrol.bench.otd.controlled import LINK_BANDWIDTH, NODE_SLOTS, run_controller_part
from pycontrol.cluster import network
from pycontrol.cluster.spec import cpus_per_node, make_spec
from tests.conftest import TEST_PORT_BASE, assert_nothing_left

pytestmark = [pytest.mark.cluster, pytest.mark.slow,
              pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="pinning 2 nodes needs 2 CPUs")]

WARMUP_S, PHASE_S = 10, 30   # 3 windows of 10 s per run: the least the comparison takes


def test_controller_part_compares_otd_with_a_control_that_moves_nothing(tmp_path):
    home, out = tmp_path / "ctl-cluster", tmp_path / "out"
    port_base = TEST_PORT_BASE + 1400   # clear of the session cluster and the lifecycle test (+1000)
    lines: list[str] = []
    # As the demo's default (auto) chooses: netns nodes with shaped links as root, else loopback.
    net = "netns" if network.netns_unavailable() is None else "loopback"
    doc = run_controller_part(home, out, lambda line: (lines.append(line), print(line, flush=True)),
                              port_base=port_base, warmup_s=WARMUP_S, phase_s=PHASE_S, network=net)

    # The cluster is down afterwards and nothing of it is left (processes, ports, namespaces and links).
    spec = make_spec(home, nodes=2, node_slots=NODE_SLOTS, port_base=port_base, network=net)
    assert_nothing_left(spec)
    assert network.leftovers(spec) == []
    assert doc["cluster"]["network"] == net
    assert doc["cluster"]["link_bandwidth"] == (LINK_BANDWIDTH if net == "netns" else None)

    written = json.loads((out / "controller.json").read_text())
    assert written["comparison"] == doc["comparison"]
    assert set(written["runs"]) == {"otd", "control"}

    # Pinned nodes: every worker of both runs ran on its own node's CPU only, as the kernel reported it
    # (/proc/<worker pid>/status), with node1's slot on the first CPU and node2's slots on the second.
    pins = cpus_per_node(2, sorted(os.sched_getaffinity(0)))
    node_of_port = {p: pins[n.index - 1] for n in make_spec(home, nodes=2, node_slots=NODE_SLOTS,
                                                             port_base=port_base, node_cpus=pins).node_specs
                    for p in n.slot_ports}
    for run in written["runs"].values():
        assert run["worker_cpus"], "no worker seen"
        assert {int(p): tuple(c) for p, c in run["worker_cpus"].items()} == \
            {int(p): node_of_port[int(p)] for p in run["worker_cpus"]}
        assert len(run["windows"]) >= 3
    # The summary says whether each run took the offered rate.
    assert any(line.strip().startswith("offered ") for line in doc["summary_lines"])

    # The control moved nothing; OTD's moves are recorded, or it says why it made none.
    assert written["runs"]["control"]["moves_made"] == 0
    assert written["runs"]["otd"]["moves_made"] == len(doc["moves"])
    if doc["moves"]:
        assert all({"executor", "from_slot", "to_slot", "reason", "ts"} <= set(m) for m in doc["moves"])
    else:
        assert any("OTD made no move" in line for line in doc["summary_lines"])

    assert [r["metric"] for r in doc["comparison"]] == list(comparison.METRICS)
    assert doc["comparison"][0]["otd_median"] > 0 and doc["comparison"][0]["control_median"] > 0
    assert all(os.path.getsize(f) > 0 and f.startswith(str(out)) for f in doc["figures"])
    assert doc["commands"] and all(line in lines for line in doc["summary_lines"])
