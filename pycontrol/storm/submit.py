"""Submitting the project's Java workloads (build/dist/topologies) to a Storm cluster."""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path

import yaml

from pycontrol import paths, zkauth
from pycontrol.storm import nimbus_errors
from pycontrol.errors import UserError
from pycontrol.jvm import classpath, storm_client
from pycontrol.jvm.classpath import WORKLOADS_JAR  # noqa: F401 (importers read it here)
from pycontrol.jvm.command import JavaCommand, run
from pycontrol.zkauth import TOPOLOGY_AUTH_PAYLOAD, TOPOLOGY_AUTH_SCHEME

log = logging.getLogger(__name__)

SUBMIT_MAIN = "io.nonstopstorm.workloads.SubmitTopology"


def parse_settings(settings: tuple[str, ...] | list[str]) -> list[str]:
    """Validate "key=value" strings early, with the offending one named."""
    out = []
    for s in settings:
        key, eq, _ = s.partition("=")
        if not eq or not key.strip() or " " in key.strip():
            raise UserError(f"bad --set '{s}': expected key=value, e.g. --set topology.workers=4")
        out.append(s)
    return out


def client_conf_dir(nimbus: str | None, conf_dir: Path | None) -> tuple[Path, tempfile.TemporaryDirectory | None]:
    """The storm.yaml a client uses: the local cluster's, or one naming a remote Nimbus host:port."""
    if nimbus is None:
        if conf_dir is None or not (conf_dir / "storm.yaml").is_file():
            raise UserError("no local cluster config found: start one with `pycontrol cluster up`, "
                            "or name a cluster with --nimbus HOST:PORT")
        return conf_dir, None
    host, _, port = nimbus.rpartition(":")
    if not host or not port.isdigit():
        raise UserError(f"--nimbus must be HOST:PORT, got '{nimbus}'")
    conf: dict = {"nimbus.seeds": [host], "nimbus.thrift.port": int(port)}
    auth = zkauth.from_env()
    if auth is not None:
        # A cluster with ZooKeeper ACLs runs its workers on the cluster's payload (pycontrol.cluster.secrets):
        # without it here, Storm's submitter would give the topology a payload of its own, and its workers
        # would die with NoAuth on /storm.
        conf.update({TOPOLOGY_AUTH_SCHEME: "digest", TOPOLOGY_AUTH_PAYLOAD: auth.payload})
    tmp = tempfile.TemporaryDirectory(prefix="pycontrol-client-")   # 0700: the payload stays private
    Path(tmp.name, "storm.yaml").write_text(yaml.safe_dump(conf))
    return Path(tmp.name), tmp


def submit_java(workload: str, topology_name: str, settings: list[str], conf_dir: Path,
                timeout_s: float = 120, jar: Path | None = None) -> str:
    """`jar`: a copy of the workloads jar with other multilang resources (a streamparse project's)."""
    jar = classpath.workloads_jar(jar)
    cmd = storm_client.command(jar, SUBMIT_MAIN, (topology_name, workload, *settings), conf_dir,
                               paths.require_dist(), what=f"submitting {topology_name}")
    p = run(cmd, timeout_s, timeout_hint="is Nimbus up?")
    log.debug("submitter output:\n%s\n%s", p.stdout, p.stderr)
    if p.returncode != 0:
        msg = p.stderr.strip().splitlines()
        # The submitter prints one clear line last; Storm's logging comes before it.
        raise UserError(nimbus_errors.explain(msg[-1]) if msg else f"submitting {topology_name} failed (exit {p.returncode})")
    lines = p.stdout.strip().splitlines()
    return lines[-1] if lines else f"submitted {topology_name}"


def java_workloads(timeout_s: float = 60) -> dict[str, str]:
    """name -> description of every workload in the workloads jar (SubmitTopology --list)."""
    jar = classpath.workloads_jar()
    p = run(JavaCommand(SUBMIT_MAIN, ("--list",), classpath.workloads(jar), ("-Xmx128m",),
                        what="listing the Java workloads"), timeout_s)
    if p.returncode != 0:
        raise UserError(f"cannot list the Java workloads: {p.stderr.strip()[-300:]}")
    out = {}
    for line in p.stdout.splitlines():
        name, tab, description = line.partition("\t")
        if tab:
            out[name] = description
    return out
