"""storm.yaml, zoo.cfg and logging configs for each process of a local cluster. Pure rendering."""

from __future__ import annotations

from typing import Any

from pycontrol.cluster.layout import Layout
from pycontrol.cluster.secrets import UI_TOKEN, ClusterSecrets, zk_storm_conf
from pycontrol.cluster.spec import ClusterSpec, NodeSpec

# Marks every JVM of a cluster on its command line, so `down` can find strays (e.g. orphaned workers).
MARKER_PROP = "nonstop.cluster.home"


# Nonstop migration (storm-plugins/migration): the agent jar in $STORM_HOME/extlib, and Nimbus's scheduler
# (storm-plugins/scheduling): the dispatcher applies controller plans, places each topology with the
# scheduler its conf names (`nonstop.scheduler: aniello-offline | aniello-online | slot-aware | elastic | ras |
# otd`) and leaves the rest to Storm's DefaultScheduler.
MIGRATION_AGENT_JAR = "nonstop-migration.jar"
NONSTOP_SCHEDULER = "io.nonstopstorm.scheduling.storm.NonstopScheduler"


# Nimbus keys of the nonstop schedulers on a local cluster. Its nodes share one machine, so the metrics plane
# reports the whole machine for each node: a per-node CPU bound (the Aniello schedulers' B_i, by default
# the node's measured cores x MHz) would count the machine once per node, and OTD would count the other
# nodes' workers as CPU taken from this node's (its worker shares ignore other processes here, as the
# controller's `node_cpu_background: false`). `--conf` still overrides them.
LOCAL_SCHEDULER_CONF = {"nonstop.node.capacity": "unbounded", "nonstop.otd.node.cpu.background": False}


def marker(layout: Layout) -> str:
    return f"-D{MARKER_PROP}={layout.home}"


def migration_agent(layout: Layout, role: str) -> str:
    """The JVM flag that loads the nonstop-migration agent; role is "worker", "supervisor" or "nimbus"."""
    return f"-javaagent:{layout.storm_home / 'extlib' / MIGRATION_AGENT_JAR}={role}"


def migration_conf(spec: ClusterSpec, layout: Layout) -> dict[str, Any]:
    """Keys that turn nonstop migration on (empty when the cluster runs stock Storm)."""
    if not spec.migration:
        return {}
    return {
        "storm.scheduler": NONSTOP_SCHEDULER,
        "nonstop.migration.enabled": True,
        "nonstop.migration.worker.sync.ms": 1000,
        "nonstop.migration.lazy.kill.ms": 2000,
        "nonstop.migration.push": True,
        "supervisor.childopts": migration_agent(layout, "supervisor"),
    }


def auth_conf(spec: ClusterSpec, secrets: ClusterSecrets | None) -> dict[str, Any]:
    """ZooKeeper digest auth for Storm and the suite (none with --no-zk-acl or without secrets)."""
    return zk_storm_conf(secrets) if spec.zk_acl and secrets is not None else {}


def common_conf(spec: ClusterSpec, layout: Layout, secrets: ClusterSecrets | None = None) -> dict[str, Any]:
    """Keys every daemon and worker of the cluster shares."""
    return {
        "storm.zookeeper.servers": [spec.control_host],
        "storm.zookeeper.port": spec.zk_port,
        "storm.zookeeper.root": "/storm",
        "nimbus.seeds": [spec.control_host],
        "nimbus.thrift.port": spec.nimbus_port,
        "ui.port": spec.ui_port,
        "ui.host": "127.0.0.1",
        "storm.log4j2.conf.dir": str(layout.log4j_dir),
        # Faster control loops than Storm's production defaults: the cluster lives on one box.
        "nimbus.monitor.freq.secs": 2,
        "supervisor.monitor.frequency.secs": 2,
        "executor.metrics.frequency.secs": 5,
        # Idle executors go straight to Storm's 1 ms sleep instead of parking for 1 ns a thousand times
        # first: with more executor threads than cores (8 workers of the word count on 2 cores) that
        # parking was ~200k context switches/s, a load average near 100 and an unsustainable 400/s.
        "topology.bolt.wait.progressive.level2.count": 0,
        "topology.backpressure.wait.progressive.level2.count": 0,
        "worker.heap.memory.mb": 256,
        "worker.childopts": f"-Xmx%HEAP-MEM%m -XX:+UseSerialGC -XX:+ExitOnOutOfMemoryError {marker(layout)}"
                            + (f" {migration_agent(layout, 'worker')}" if spec.migration else ""),
        "topology.worker.logwriter.childopts": f"-Xmx64m -XX:+UseSerialGC {marker(layout)}",
        "storm.cluster.mode": "distributed",
        **migration_conf(spec, layout),
        **auth_conf(spec, secrets),
    }


def extra_conf(spec: ClusterSpec) -> dict[str, Any]:
    """The spec's extra storm.yaml keys (e.g. a benchmark's sync cycles); they win over every default here."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in spec.extra_conf}


def control_conf(spec: ClusterSpec, layout: Layout, secrets: ClusterSecrets | None = None) -> dict[str, Any]:
    """Nimbus, the UI and command-line clients."""
    return {
        **common_conf(spec, layout, secrets),
        **({UI_TOKEN: secrets.ui_token} if secrets is not None else {}),
        "storm.local.dir": str(layout.nimbus_local_dir),
        "storm.local.hostname": spec.control_host,
        "storm.log.dir": str(layout.logs),
        **(LOCAL_SCHEDULER_CONF if spec.migration else {}),
        **extra_conf(spec),
    }


def node_conf(spec: ClusterSpec, layout: Layout, node: NodeSpec,
              secrets: ClusterSecrets | None = None) -> dict[str, Any]:
    """One supervisor and the workers it launches (they read the same conf dir)."""
    return {
        **common_conf(spec, layout, secrets),
        "storm.local.dir": str(layout.node_local_dir(node.name)),
        "storm.local.hostname": node.host,
        "storm.log.dir": str(layout.node_log_dir(node.name)),
        "supervisor.thrift.port": node.thrift_port,
        "supervisor.slots.ports": list(node.slot_ports),
        "supervisor.scheduler.meta": {"node": node.name},
        # Metrics plane (storm-plugins/metrics, jar in extlib): every worker counts its traffic and CPU and
        # publishes them to ZooKeeper; a dead worker's document vanishes after this session timeout.
        "topology.auto.task.hooks": ["io.nonstopstorm.metrics.hook.TrafficHook"],
        "nonstop.metrics.zk.session.timeout.ms": 6000,
        **extra_conf(spec),
    }


def zoo_cfg(spec: ClusterSpec, layout: Layout) -> str:
    # Loopback mode binds loopback; netns mode the bridge's own address, which only this host and its
    # namespaces reach (never every interface: ZooKeeper's 4lw words and its data would be on the network).
    bind = spec.control_host
    return "\n".join([
        "tickTime=2000",
        f"dataDir={layout.zk_dir / 'data'}",
        f"clientPort={spec.zk_port}",
        f"clientPortAddress={bind}",
        "maxClientCnxns=0",
        # The admin server would take 8080 (the usual UI port); the 4lw words serve health checks.
        "admin.enableServer=false",
        "4lw.commands.whitelist=ruok,srvr,stat,mntr,envi,conf",
        "",
    ])


ZK_LOGBACK = """<configuration>
  <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
    <encoder><pattern>%d{ISO8601} %-5level [%thread] %logger{36} - %msg%n</pattern></encoder>
  </appender>
  <root level="INFO"><appender-ref ref="OUT"/></root>
</configuration>
"""

def _log4j(log_dir: str, immediate_flush: bool) -> str:
    """A rolling-file log4j2 config writing ${logfile.name} under log_dir (a log4j expression)."""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<Configuration monitorInterval="60" shutdownHook="disable">
  <Properties>
    <Property name="pattern">%d{{yyyy-MM-dd HH:mm:ss.SSS}} %c{{1.}} %t [%p] %msg%n</Property>
  </Properties>
  <Appenders>
    <RollingFile name="A1" immediateFlush="{str(immediate_flush).lower()}"
                 fileName="{log_dir}/${{sys:logfile.name}}" filePattern="{log_dir}/${{sys:logfile.name}}.%i.gz">
      <PatternLayout><pattern>${{pattern}}</pattern></PatternLayout>
      <Policies><SizeBasedTriggeringPolicy size="50 MB"/></Policies>
      <DefaultRolloverStrategy max="3"/>
    </RollingFile>
  </Appenders>
  <Loggers>
    <Logger name="org.apache.storm.shade.org.apache.zookeeper" level="WARN"/>
    <Logger name="org.apache.storm.shade.org.apache.curator" level="WARN"/>
    <Root level="info"><AppenderRef ref="A1"/></Root>
  </Loggers>
</Configuration>
"""


# Daemons log to <storm.log.dir>/<logfile.name>; workers to workers-artifacts/<topology>/<port>/worker.log,
# the places Storm's tooling and operators look. Worker logs are buffered: tuples pass there.
CLUSTER_LOG4J = _log4j("${sys:storm.log.dir}", immediate_flush=True)
WORKER_LOG4J = _log4j("${sys:workers.artifacts}/${sys:storm.id}/${sys:worker.port}", immediate_flush=False)
