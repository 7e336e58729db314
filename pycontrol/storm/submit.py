"""Submitting the project's Java workloads (build/dist/topologies) to a Storm cluster."""

from __future__ import annotations

import logging
import subprocess
import tempfile
from pathlib import Path

import yaml

from pycontrol import paths, zkauth
from pycontrol.storm import nimbus_errors
from pycontrol.cluster.java import find_java
from pycontrol.errors import UserError
from pycontrol.zkauth import TOPOLOGY_AUTH_PAYLOAD, TOPOLOGY_AUTH_SCHEME

log = logging.getLogger(__name__)

SUBMIT_MAIN = "io.nonstopstorm.workloads.SubmitTopology"
WORKLOADS_JAR = "topologies/nonstop-workloads.jar"
# Workloads that wire the project's stream groupings serialise them into the topology at submission,
# so the submitter needs their classes (the workers get them from extlib).
GROUPING_JAR = "extlib/nonstop-grouping.jar"


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
    dist = paths.require_dist()
    jar = jar or dist / WORKLOADS_JAR
    if not jar.is_file():
        raise UserError(f"{jar} missing: build it with `mvn -q package`")
    java = find_java()
    cp = f"{jar}:{dist / 'storm' / 'lib-worker'}/*:{dist / GROUPING_JAR}:{conf_dir}"
    argv = [java, "-Xmx256m", f"-Dstorm.jar={jar}", f"-Dstorm.conf.file={conf_dir / 'storm.yaml'}",
            "-cp", cp, SUBMIT_MAIN, topology_name, workload, *settings]
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired as e:
        raise UserError(f"submitting {topology_name} timed out after {timeout_s:.0f} s (is Nimbus up?)") from e
    log.debug("submitter output:\n%s\n%s", p.stdout, p.stderr)
    if p.returncode != 0:
        msg = p.stderr.strip().splitlines()
        # The submitter prints one clear line last; Storm's logging comes before it.
        raise UserError(nimbus_errors.explain(msg[-1]) if msg else f"submitting {topology_name} failed (exit {p.returncode})")
    lines = p.stdout.strip().splitlines()
    return lines[-1] if lines else f"submitted {topology_name}"


def java_workloads(timeout_s: float = 60) -> dict[str, str]:
    """name -> description of every workload in the workloads jar (SubmitTopology --list)."""
    dist = paths.require_dist()
    jar = dist / WORKLOADS_JAR
    if not jar.is_file():
        raise UserError(f"{jar} missing: build it with `mvn -q package`")
    cp = f"{jar}:{dist / 'storm' / 'lib-worker'}/*"
    p = subprocess.run([find_java(), "-Xmx128m", "-cp", cp, SUBMIT_MAIN, "--list"], capture_output=True, text=True,
                       timeout=timeout_s)
    if p.returncode != 0:
        raise UserError(f"cannot list the Java workloads: {p.stderr.strip()[-300:]}")
    out = {}
    for line in p.stdout.splitlines():
        name, tab, description = line.partition("\t")
        if tab:
            out[name] = description
    return out
