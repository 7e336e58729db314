from pathlib import Path

import pytest

from pycontrol.cluster.spec import make_spec, spec_from_dict
from pycontrol.errors import UserError


def test_loopback_nodes_get_distinct_addresses_and_disjoint_ports():
    spec = make_spec(Path("/tmp/x"), nodes=3, slots=4)
    hosts = [n.host for n in spec.node_specs]
    assert hosts == ["127.0.0.11", "127.0.0.12", "127.0.0.13"]
    ports = spec.all_ports()
    assert len(ports) == len(set(ports)) == 3 + 3 * (1 + 4)
    assert all(n.netns is None for n in spec.node_specs)


def test_netns_nodes_live_in_the_subnet_with_names_within_linux_limits():
    spec = make_spec(Path("/tmp/x"), nodes=2, network="netns", link_bandwidth="100mbit")
    assert spec.control_host == "10.231.170.1"
    assert [n.host for n in spec.node_specs] == ["10.231.170.11", "10.231.170.12"]
    other = make_spec(Path("/tmp/y"), nodes=2, network="netns", port_base=28000)
    assert other.subnet != spec.subnet and other.bridge != spec.bridge
    for name in [spec.bridge, *(n.veth_host for n in spec.node_specs)]:
        assert len(name) <= 15  # IFNAMSIZ - 1
    assert len({n.netns for n in spec.node_specs}) == 2


def test_state_round_trip():
    spec = make_spec(Path("/tmp/x"), nodes=2, slots=3, port_base=20000)
    assert spec_from_dict(spec.to_dict()) == spec


@pytest.mark.parametrize("kwargs, fragment", [
    ({"network": "wifi"}, "--network must be one of"),
    ({"nodes": 0}, "--nodes must be between"),
    ({"slots": 20}, "--slots must be between"),
    ({"link_bandwidth": "10mbit"}, "need --network netns"),
    ({"network": "netns", "link_bandwidth": "fast"}, "--link-bandwidth must look like"),
    ({"network": "netns", "link_delay_ms": -1}, "--link-delay must be between"),
    ({"port_base": 80}, "leaves no room"),
])
def test_bad_choices_are_refused_with_the_option_named(kwargs, fragment):
    with pytest.raises(UserError, match=fragment):
        make_spec(Path("/tmp/x"), **kwargs)


def test_node_cpus_pin_each_node_and_survive_the_state_file():
    spec = make_spec(Path("/tmp/x"), nodes=2, node_cpus="0; 1-3,5")
    assert spec.node_cpus == ((0,), (1, 2, 3, 5))
    assert [n.cpus for n in spec.node_specs] == [(0,), (1, 2, 3, 5)]
    assert spec_from_dict(spec.to_dict()) == spec
    assert all(n.cpus == () for n in make_spec(Path("/tmp/x"), nodes=2).node_specs)


@pytest.mark.parametrize("text, fragment", [
    ("0", "CPUs for 1 nodes, the cluster has 2"),
    ("0;1;2", "CPUs for 3 nodes"),
    ("0;x", "'x' in '0;x' is not a CPU number"),
    ("0;3-1", "'3-1'"),
    ("0;", "'' in '0;'"),
])
def test_bad_node_cpus_are_refused_with_the_option_named(text, fragment):
    with pytest.raises(UserError, match=fragment):
        make_spec(Path("/tmp/x"), nodes=2, node_cpus=text)


def test_node_slots_give_each_node_its_own_slot_ports_and_survive_the_state_file():
    spec = make_spec(Path("/tmp/x"), nodes=2, slots=4, node_slots=" 1; 5")
    assert [len(n.slot_ports) for n in spec.node_specs] == [1, 5]
    assert spec.total_slots == 6
    ports = spec.all_ports()
    assert len(ports) == len(set(ports)) == 3 + 2 + 6
    assert spec_from_dict(spec.to_dict()) == spec
    assert make_spec(Path("/tmp/x"), nodes=2, slots=3).total_slots == 6


@pytest.mark.parametrize("text, fragment", [
    ("5", "slot counts for 1 nodes, the cluster has 2"),
    ("1;x", "'x' in '1;x' is not a slot count"),
    ("1;", "'' in '1;'"),
    ("0;4", "between 1 and 19 slots, got 0"),
    ("4;20", "got 20"),
])
def test_bad_node_slots_are_refused_with_the_option_named(text, fragment):
    with pytest.raises(UserError, match=fragment):
        make_spec(Path("/tmp/x"), nodes=2, node_slots=text)


def test_a_node_s_storm_yaml_lists_its_own_slot_ports():
    from pycontrol.cluster import storm_conf
    from pycontrol.cluster.layout import Layout
    spec = make_spec(Path("/tmp/x"), nodes=2, node_slots="2;1", port_base=20000)
    n1, n2 = spec.node_specs
    layout = Layout(spec.home)
    assert storm_conf.node_conf(spec, layout, n1)["supervisor.slots.ports"] == [20101, 20102]
    assert storm_conf.node_conf(spec, layout, n2)["supervisor.slots.ports"] == [20121]


def test_only_a_pinned_node_s_supervisor_carries_cpus():
    from pycontrol.cluster import daemons
    from pycontrol.cluster.layout import Layout
    spec = make_spec(Path("/tmp/x"), nodes=2, node_cpus="1;0")
    cmds = daemons.all_commands(spec, Layout(spec.home), "java", Path("/tmp/dist"))
    assert {c.name: c.cpus for c in cmds} == {"zookeeper": (), "nimbus": (), "ui": (),
                                               "node1-supervisor": (1,), "node2-supervisor": (0,)}


def test_pin_cpus_gives_each_node_its_own_block_of_cpus():
    from pycontrol.cluster.spec import cpus_per_node
    assert cpus_per_node(2, [0, 1]) == ((0,), (1,))
    assert cpus_per_node(2, [3, 1, 0, 2, 4]) == ((0, 1), (2, 3))     # sorted; the remainder (4) unused
    assert cpus_per_node(1, [0, 1]) == ((0, 1),)
    spec = make_spec(Path("/tmp/x"), nodes=2, node_cpus=cpus_per_node(2, [0, 1]))
    assert [n.cpus for n in spec.node_specs] == [(0,), (1,)]


def test_pin_cpus_refuses_more_nodes_than_cpus():
    from pycontrol.cluster.spec import cpus_per_node
    with pytest.raises(UserError, match=r"3 nodes need 3 CPUs, this machine lets us use 2 \(0,1\)"):
        cpus_per_node(3, [0, 1])


def test_pin_cpus_and_node_cpus_together_are_refused_before_anything_starts(tmp_path):
    from click.testing import CliRunner
    from pycontrol.cli import main
    got = CliRunner().invoke(main, ["cluster", "up", "--home", str(tmp_path / "h"), "--pin-cpus", "--node-cpus", "0;1"],
                             standalone_mode=False)
    assert isinstance(got.exception, UserError) and "--pin-cpus and --node-cpus" in str(got.exception)
    assert not (tmp_path / "h").exists()


def test_pin_cpus_with_more_nodes_than_cpus_is_one_line_and_starts_nothing(tmp_path):
    import os
    from click.testing import CliRunner
    from pycontrol.cli import main
    nodes = len(os.sched_getaffinity(0)) + 1
    got = CliRunner().invoke(main, ["cluster", "up", "--home", str(tmp_path / "h"), "--pin-cpus", "--nodes", str(nodes)],
                             standalone_mode=False)
    assert isinstance(got.exception, UserError) and f"{nodes} nodes need {nodes} CPUs" in str(got.exception)
    assert not (tmp_path / "h").exists()
