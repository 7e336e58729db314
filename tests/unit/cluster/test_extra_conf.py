"""Extra storm.yaml keys of a cluster spec: they reach every daemon's storm.yaml, win over the manager's
defaults, survive the state file, and cannot break the cluster's identity."""

from pathlib import Path

import pytest

from pycontrol.cluster import storm_conf
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.spec import make_spec, parse_conf_settings, spec_from_dict
from pycontrol.errors import UserError

EXTRA = {"nonstop.migration.enabled": False, "nonstop.migration.worker.sync.ms": 300,
         "nimbus.monitor.freq.secs": 1, "topology.auto.task.hooks": ["a.B"]}


def test_extra_keys_win_in_the_control_and_every_node_conf():
    spec = make_spec(Path("/tmp/home"), nodes=2, slots=2, extra_conf=EXTRA)
    layout = Layout(spec.home)
    confs = [storm_conf.control_conf(spec, layout), *(storm_conf.node_conf(spec, layout, n) for n in spec.node_specs)]
    for conf in confs:
        for key, value in EXTRA.items():
            assert conf[key] == value, key
    default = storm_conf.node_conf(make_spec(Path("/tmp/home"), nodes=2, slots=2), layout, spec.node_specs[0])
    assert default["nonstop.migration.enabled"] is True and default["nimbus.monitor.freq.secs"] == 2


def test_extra_keys_survive_the_state_file_and_take_part_in_equality():
    spec = make_spec(Path("/tmp/home"), extra_conf=EXTRA)
    assert spec_from_dict(spec.to_dict()) == spec
    assert spec != make_spec(Path("/tmp/home"))
    assert spec_from_dict({**make_spec(Path("/tmp/home")).to_dict(), "extra_conf": None}).extra_conf == ()


@pytest.mark.parametrize("conf, fragment", [
    ({"storm.local.dir": "/x"}, "set by the cluster manager"),
    ({"worker.childopts": "-Xmx1g"}, "set by the cluster manager"),
    ({"bad key": 1}, "dotted name"),
    ({"nimbus.monitor.freq.secs": None}, "needs a value"),
])
def test_keys_that_would_break_the_cluster_are_refused(conf, fragment):
    with pytest.raises(UserError, match=fragment):
        make_spec(Path("/tmp/home"), extra_conf=conf)


def test_command_line_settings_keep_their_yaml_types():
    assert parse_conf_settings(["a.b=1", "c.d=false", "e.f=x y", "g.h=[1, 2]", "i.j=0.5"]) == \
        {"a.b": 1, "c.d": False, "e.f": "x y", "g.h": [1, 2], "i.j": 0.5}
    for bad in ["novalue", "=3", "k.v=[1,"]:
        with pytest.raises(UserError, match="--conf"):
            parse_conf_settings([bad])
