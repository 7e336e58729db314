"""Command lines of the cluster's processes (what Storm's bin/storm would build). Pure."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pycontrol.cluster.layout import Layout
from pycontrol.cluster.spec import ClusterSpec, NodeSpec
from pycontrol.cluster.storm_conf import marker, migration_agent
from pycontrol.cluster.storm_versions import parts

NIMBUS_MAIN = "org.apache.storm.daemon.nimbus.Nimbus"
SUPERVISOR_MAIN = "org.apache.storm.daemon.supervisor.Supervisor"
UI_MAIN = "io.nonstopstorm.ui.UiRestServer"
ZK_MAIN = "org.apache.zookeeper.server.ZooKeeperServerMain"


@dataclass(frozen=True)
class DaemonCommand:
    name: str                    # "zookeeper", "nimbus", "ui", "node1-supervisor"
    role: str                    # zookeeper | nimbus | ui | supervisor
    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)
    netns: str | None = None     # run inside this network namespace
    log_file: Path | None = None  # the daemon's own log, shown when it dies at start-up
    cpus: tuple[int, ...] = ()   # pinned to these CPUs (with everything it starts); () = any


def _cp(*parts: Path | str) -> str:
    return ":".join(str(p) for p in parts)


def _storm_daemon(java: str, layout: Layout, name: str, conf_dir: Path, log_dir: Path, heap_mb: int,
                  main: str, extra_cp: tuple[str, ...] = (), jvm_opts: tuple[str, ...] = ()) -> list[str]:
    h = layout.storm_home
    return [
        java, "-server", f"-Xmx{heap_mb}m", "-XX:+UseSerialGC", *jvm_opts,
        f"-Ddaemon.name={name}", f"-Dstorm.home={h}", f"-Dstorm.log.dir={log_dir}",
        f"-Dlogfile.name={name}.log", f"-Dlog4j.configurationFile={layout.log4j_dir / 'cluster.xml'}",
        f"-Dstorm.conf.file={conf_dir / 'storm.yaml'}", "-Djava.deserialization.disabled=true",
        marker(layout),
        "-cp", _cp(f"{h}/lib/*", *extra_cp, f"{h}/extlib/*", f"{h}/extlib-daemon/*", conf_dir),
        main,
    ]


def zookeeper(spec: ClusterSpec, layout: Layout, java: str, dist: Path) -> DaemonCommand:
    zk = layout.zk_dir
    argv = [java, "-Xmx256m", "-XX:+UseSerialGC", "-Dzookeeper.admin.enableServer=false",
            f"-Dlogback.configurationFile={zk / 'logback.xml'}", marker(layout),
            "-cp", f"{parts(dist, spec.storm_version).zookeeper}/*", ZK_MAIN, str(zk / "zoo.cfg")]
    return DaemonCommand("zookeeper", "zookeeper", argv, log_file=layout.process_log("zookeeper"))


def nimbus(spec: ClusterSpec, layout: Layout, java: str) -> DaemonCommand:
    # With migration, the agent lets a written plan start a scheduling round at once (NimbusRounds).
    agent = (migration_agent(layout, "nimbus"),) if spec.migration else ()
    argv = _storm_daemon(java, layout, "nimbus", layout.control_conf_dir, layout.logs, 384, NIMBUS_MAIN, jvm_opts=agent)
    return DaemonCommand("nimbus", "nimbus", argv, env={"STORM_CONF_DIR": str(layout.control_conf_dir)},
                         log_file=layout.logs / "nimbus.log")


def ui(spec: ClusterSpec, layout: Layout, java: str) -> DaemonCommand:
    argv = _storm_daemon(java, layout, "ui", layout.control_conf_dir, layout.logs, 192, UI_MAIN,
                         extra_cp=(f"{layout.storm_home}/lib-webapp/*",))
    return DaemonCommand("ui", "ui", argv, env={"STORM_CONF_DIR": str(layout.control_conf_dir)},
                         log_file=layout.logs / "ui.log")


def supervisor(spec: ClusterSpec, layout: Layout, java: str, node: NodeSpec) -> DaemonCommand:
    conf = layout.node_conf_dir(node.name)
    log_dir = layout.node_log_dir(node.name)
    agent = (migration_agent(layout, "supervisor"),) if spec.migration else ()
    argv = _storm_daemon(java, layout, "supervisor", conf, log_dir, 256, SUPERVISOR_MAIN, jvm_opts=agent)
    # The supervisor hands STORM_CONF_DIR to its workers' classpath: each node's workers read its storm.yaml.
    return DaemonCommand(f"{node.name}-supervisor", "supervisor", argv, env={"STORM_CONF_DIR": str(conf)},
                         netns=node.netns, log_file=log_dir / "supervisor.log", cpus=node.cpus)


def all_commands(spec: ClusterSpec, layout: Layout, java: str, dist: Path) -> list[DaemonCommand]:
    """In start order."""
    return ([zookeeper(spec, layout, java, dist), nimbus(spec, layout, java), ui(spec, layout, java)]
            + [supervisor(spec, layout, java, n) for n in spec.node_specs])
