from pathlib import Path

from pycontrol.cluster import daemons, storm_conf
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.spec import make_spec


def _setup(network="loopback"):
    spec = make_spec(Path("/tmp/home"), nodes=2, slots=3, network=network)
    return spec, Layout(spec.home)


def test_each_node_has_its_own_identity_dirs_and_ports():
    spec, layout = _setup()
    confs = [storm_conf.node_conf(spec, layout, n) for n in spec.node_specs]
    for key in ("storm.local.dir", "storm.local.hostname", "supervisor.thrift.port", "storm.log.dir"):
        assert confs[0][key] != confs[1][key], key
    assert confs[0]["supervisor.slots.ports"] == list(spec.node_specs[0].slot_ports)
    # Everyone agrees on where the control processes are.
    assert {c["nimbus.thrift.port"] for c in confs} == {spec.nimbus_port}
    assert {tuple(c["storm.zookeeper.servers"]) for c in confs} == {("127.0.0.1",)}


def test_netns_nodes_reach_the_control_plane_through_the_bridge():
    spec, layout = _setup("netns")
    conf = storm_conf.node_conf(spec, layout, spec.node_specs[0])
    assert conf["storm.zookeeper.servers"] == [spec.control_host]
    assert conf["nimbus.seeds"] == [spec.control_host]
    # ZooKeeper listens on the bridge's own address, not on every interface of the host.
    cfg = storm_conf.zoo_cfg(spec, layout)
    assert f"clientPortAddress={spec.control_host}" in cfg and "0.0.0.0" not in cfg


def test_every_jvm_carries_the_cluster_marker():
    spec, layout = _setup()
    mark = storm_conf.marker(layout)
    assert mark in storm_conf.common_conf(spec, layout)["worker.childopts"]
    for cmd in daemons.all_commands(spec, layout, "java", Path("/dist")):
        assert mark in cmd.argv, cmd.name


def test_zookeeper_admin_server_is_off():
    spec, layout = _setup()
    cfg = storm_conf.zoo_cfg(spec, layout)
    assert "admin.enableServer=false" in cfg
    assert f"clientPort={spec.zk_port}" in cfg


def test_supervisors_get_their_node_conf_dir_and_namespace():
    spec, layout = _setup("netns")
    sups = [c for c in daemons.all_commands(spec, layout, "java", Path("/dist")) if c.role == "supervisor"]
    assert [c.netns for c in sups] == [n.netns for n in spec.node_specs]
    for c, n in zip(sups, spec.node_specs):
        assert c.env["STORM_CONF_DIR"] == str(layout.node_conf_dir(n.name))
