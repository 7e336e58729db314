"""The local cluster installs the metrics hook on every worker."""

from __future__ import annotations

from pathlib import Path

from pycontrol.cluster import storm_conf
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.spec import make_spec

REPO = Path(__file__).resolve().parents[3]


def test_every_node_runs_the_traffic_hook_of_the_metrics_module():
    spec = make_spec(Path("/tmp/home"), nodes=2, slots=2)
    layout = Layout(spec.home)
    for node in spec.node_specs:
        conf = storm_conf.node_conf(spec, layout, node)
        (hook,) = conf["topology.auto.task.hooks"]
        # the class the conf names is the one the metrics module builds
        source = REPO / "storm-plugins" / "metrics" / "src" / "main" / "java" / (hook.replace(".", "/") + ".java")
        assert source.is_file(), source
        assert conf["nonstop.metrics.zk.session.timeout.ms"] >= 4000  # ZooKeeper's minimum (2 ticks)
