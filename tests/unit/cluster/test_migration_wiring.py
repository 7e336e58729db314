from pathlib import Path

from pycontrol.cluster import daemons, storm_conf
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.spec import make_spec, spec_from_dict

REPO = Path(__file__).resolve().parents[3]


def _confs(migration: bool):
    spec = make_spec(Path("/tmp/home"), nodes=2, slots=2, migration=migration)
    layout = Layout(spec.home)
    node = storm_conf.node_conf(spec, layout, spec.node_specs[0])
    control = storm_conf.control_conf(spec, layout)
    commands = daemons.all_commands(spec, layout, "java", Path("/dist"))
    sups = [c for c in commands if c.role == "supervisor"]
    return spec, layout, node, control, sups, next(c for c in commands if c.role == "nimbus")


def test_migration_loads_the_agent_in_workers_supervisors_and_nimbus_and_the_plan_scheduler_in_nimbus():
    spec, layout, node, control, sups, nimbus = _confs(True)
    agent = str(layout.storm_home / "extlib" / storm_conf.MIGRATION_AGENT_JAR)
    assert f"-javaagent:{agent}=worker" in node["worker.childopts"]
    assert node["nonstop.migration.enabled"] is True
    assert control["storm.scheduler"] == storm_conf.NONSTOP_SCHEDULER
    for c in sups:
        assert f"-javaagent:{agent}=supervisor" in c.argv
        # JVM options must come before the main class to be options at all.
        assert c.argv.index(f"-javaagent:{agent}=supervisor") < c.argv.index(daemons.SUPERVISOR_MAIN)
    assert nimbus.argv.index(f"-javaagent:{agent}=nimbus") < nimbus.argv.index(daemons.NIMBUS_MAIN)


def test_nimbus_bounds_no_local_node_by_cpu_unless_told():
    _, _, node, control, _, _ = _confs(True)
    assert control["nonstop.node.capacity"] == "unbounded"
    spec = make_spec(Path("/tmp/home"), extra_conf={"nonstop.node.capacity": 5.2e9})
    assert storm_conf.control_conf(spec, Layout(spec.home))["nonstop.node.capacity"] == 5.2e9
    _, _, _, stock, _, _ = _confs(False)
    assert "nonstop.node.capacity" not in stock


def test_the_scheduler_class_exists_in_the_scheduling_plugin():
    package, _, cls = storm_conf.NONSTOP_SCHEDULER.rpartition(".")
    source = (REPO / "storm-plugins" / "scheduling" / "src" / "main" / "java" / package.replace(".", "/") / f"{cls}.java")
    assert source.is_file(), source
    assert f"public class {cls} implements IScheduler" in source.read_text()


def test_no_migration_is_stock_storm():
    _, _, node, control, sups, nimbus = _confs(False)
    assert "javaagent" not in node["worker.childopts"]
    assert "storm.scheduler" not in control
    assert not any(k.startswith("nonstop.migration") for k in node)
    assert not any("javaagent" in a for c in [*sups, nimbus] for a in c.argv)


def test_the_choice_survives_the_state_file():
    spec = make_spec(Path("/tmp/home"), migration=False)
    assert spec_from_dict(spec.to_dict()).migration is False
    old = spec.to_dict()
    del old["migration"]
    assert spec_from_dict(old).migration is True, "state files from before the flag mean the default"
