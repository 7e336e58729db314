"""Assembles a cluster's STORM_HOME from the Maven build output and writes every config file."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import yaml

from pycontrol.cluster import storm_conf, storm_versions
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.secrets import ClusterSecrets, write_private
from pycontrol.cluster.spec import ClusterSpec
from pycontrol.errors import UserError

# Linked, not copied: they are large and read-only.
LINKED_LIBS = storm_versions.STORM_HOME_LIBS


def _write_yaml(path: Path, data: dict) -> None:
    """Owner-only (0600): a cluster's storm.yaml holds its ZooKeeper password and UI token."""
    write_private(path, yaml.safe_dump(data, default_flow_style=False, sort_keys=True))


def assemble(spec: ClusterSpec, layout: Layout, dist: Path, secrets: ClusterSecrets | None = None) -> None:
    h = layout.storm_home
    h.mkdir(parents=True, exist_ok=True)
    release = storm_versions.parts(dist, spec.storm_version).storm
    for name in LINKED_LIBS:
        link = h / name
        if link.is_symlink() or link.exists():
            link.unlink() if link.is_symlink() else shutil.rmtree(link)
        os.symlink(release / name, link)
    # Plugin jars are copied, so a rebuild while the cluster runs cannot swap classes under a JVM.
    for sub in ("extlib", "extlib-daemon"):
        target = h / sub
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir()
        for jar in sorted((dist / sub).glob("*.jar")) if (dist / sub).is_dir() else []:
            shutil.copy2(jar, target / jar.name)
    missing = [j for j in (storm_conf.MIGRATION_AGENT_JAR, "nonstop-scheduling.jar") if not (h / "extlib" / j).is_file()]
    if spec.migration and missing:
        raise UserError(f"nonstop migration needs {', '.join(missing)} in {dist / 'extlib'}: build them with "
                        f"`mvn -q package`, or start the cluster with --no-migration")
    # Storm's UI requires $STORM_HOME/public; our REST server does not, but keep the layout familiar.
    (h / "public").mkdir(exist_ok=True)
    layout.log4j_dir.mkdir(parents=True, exist_ok=True)
    (layout.log4j_dir / "cluster.xml").write_text(storm_conf.CLUSTER_LOG4J)
    (layout.log4j_dir / "worker.xml").write_text(storm_conf.WORKER_LOG4J)

    _write_yaml(layout.control_conf_dir / "storm.yaml", storm_conf.control_conf(spec, layout, secrets))
    layout.logs.mkdir(parents=True, exist_ok=True)
    layout.nimbus_local_dir.mkdir(parents=True, exist_ok=True)
    for node in spec.node_specs:
        _write_yaml(layout.node_conf_dir(node.name) / "storm.yaml", storm_conf.node_conf(spec, layout, node, secrets))
        layout.node_local_dir(node.name).mkdir(parents=True, exist_ok=True)
        layout.node_log_dir(node.name).mkdir(parents=True, exist_ok=True)

    zk = layout.zk_dir
    (zk / "data").mkdir(parents=True, exist_ok=True)
    (zk / "zoo.cfg").write_text(storm_conf.zoo_cfg(spec, layout))
    (zk / "logback.xml").write_text(storm_conf.ZK_LOGBACK)
