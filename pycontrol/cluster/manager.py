"""Bring a local cluster up, report on it, take it down. The state file records what was started,
so `down` (or the next `up`) can stop exactly that, even after a crash of pycontrol itself."""

from __future__ import annotations

import json
import logging
import os
import shutil
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pycontrol import paths
from pycontrol.cluster import daemons, network, ports, processes, secrets, storm_home, storm_versions, ui_token
from pycontrol.jvm.java import find_java
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.processes import ProcessRecord
from pycontrol.cluster.spec import ClusterSpec, NodeSpec, spec_from_dict
from pycontrol.cluster.storm_conf import marker
from pycontrol.errors import UserError
from pycontrol.storm.rest import RestError, StormRest

log = logging.getLogger(__name__)


@dataclass
class State:
    spec: ClusterSpec
    processes: list[ProcessRecord]
    started_at: float
    ready_after_s: float | None = None

    def save(self, layout: Layout) -> None:
        tmp = layout.state_file.with_suffix(".tmp")
        tmp.write_text(json.dumps({
            "spec": self.spec.to_dict(),
            "processes": [p.to_dict() for p in self.processes],
            "started_at": self.started_at,
            "ready_after_s": self.ready_after_s,
        }, indent=2))
        tmp.replace(layout.state_file)  # atomic: a crash never leaves half a state file

    @staticmethod
    def load(layout: Layout) -> State | None:
        try:
            d = json.loads(layout.state_file.read_text())
            return State(spec_from_dict(d["spec"]), [ProcessRecord(**p) for p in d["processes"]],
                         d["started_at"], d.get("ready_after_s"))
        except FileNotFoundError:
            return None
        except (ValueError, KeyError, TypeError, UserError) as e:
            log.warning("ignoring unreadable state file %s: %s", layout.state_file, e)
            return None


def _running(state: State) -> bool:
    return bool(state.processes) and all(processes.is_alive(p) for p in state.processes)


def zk_ok(port: int, timeout_s: float = 1.0, host: str = "127.0.0.1") -> bool:
    """ZooKeeper is serving. (`ruok` answers imok even when the server failed to start; `srvr`
    reports a Mode only once it serves requests.)"""
    try:
        with socket.create_connection((host, port), timeout=timeout_s) as s:
            s.sendall(b"srvr")
            data = b""
            while chunk := s.recv(4096):
                data += chunk
            return b"Mode:" in data
    except OSError:
        return False


class DaemonDied(UserError):
    pass


def _check_alive(recs: list[ProcessRecord]) -> None:
    for r in recs:
        if not processes.is_alive(r):
            detail = processes.tail(r.log_file) or processes.tail(r.out_file)
            raise DaemonDied(f"{r.name} exited during start-up; last lines of its log "
                             f"({r.log_file or r.out_file}):\n{detail}")


def _wait(what: str, ready: Callable[[], bool], recs: list[ProcessRecord], deadline: float,
          why: Callable[[], str] | None = None) -> None:
    while True:
        _check_alive(recs)
        if ready():
            return
        if time.monotonic() > deadline:
            lacking = f" (still: {why()})" if why else ""
            raise UserError(f"timed out waiting for {what}{lacking}; logs are under {Path(recs[0].out_file).parent}")
        time.sleep(0.5)


def _cluster_ready(rest: StormRest, spec: ClusterSpec, nodes: list[NodeSpec] | None = None) -> bool:
    return not _not_ready(rest, spec, nodes)


def _not_ready(rest: StormRest, spec: ClusterSpec, nodes: list[NodeSpec] | None = None) -> str:
    """What the cluster still lacks ("" when ready): a leading Nimbus (only the leader takes uploads:
    Storm's `beginFileUpload` refuses otherwise, and after a ZooKeeper outage Nimbus wins its leadership
    back only after it has re-checked its blobs), and the supervisor of every node in `nodes` (default:
    all) listed with all its slots. A node whose supervisor is down is left out by `start_daemon`: its
    entry (an ephemeral znode of its own ZooKeeper session) stays listed only until that session
    expires, so waiting for it would race."""
    try:
        nimbuses = rest.nimbuses()
        sups = rest.supervisors()
    except RestError as e:
        return f"the REST API failed: {e}"
    missing = []
    if not any(n.get("status") == "Leader" for n in nimbuses):
        missing.append(f"no Nimbus leads (Nimbus status: {[n.get('status') for n in nimbuses]})")
    listed = {(s.get("host"), int(s.get("slotsTotal", 0))) for s in sups}
    absent = [n.name for n in (spec.node_specs if nodes is None else nodes) if (n.host, len(n.slot_ports)) not in listed]
    if absent:
        missing.append(f"not listed with all their slots: {absent} (listed: {sorted(listed, key=str)})")
    return "; ".join(missing)


def _clean_dirs(layout: Layout, spec: ClusterSpec) -> None:
    """A new cluster starts empty: no topologies or assignments left from an earlier run."""
    for d in [layout.zk_dir, layout.nimbus_local_dir.parent, layout.logs,
              *(layout.node_dir(n.name) for n in spec.node_specs)]:
        shutil.rmtree(d, ignore_errors=True)


def up(spec: ClusterSpec, timeout_s: float = 240.0, echo: Callable[[str], None] = log.info) -> State:
    layout = Layout(spec.home)
    old = State.load(layout)
    if old is not None:
        if _running(old):
            if old.spec != spec:
                raise UserError(f"a different cluster is already running from {spec.home} "
                                f"({old.spec.nodes} nodes, {old.spec.network}); run `pycontrol cluster down` first")
            echo(f"cluster already running from {spec.home}; nothing started")
            return old
        echo("found state of a cluster that is no longer running (crash?): cleaning it up")
        _teardown(old.spec, old.processes)
    else:
        _sweep(spec)  # strays of a crash that never wrote a state file

    java = find_java()
    dist = paths.require_dist()
    storm_versions.require_parts(dist, spec.storm_version)
    busy = ports.first_busy(spec.all_ports())
    if busy:
        port, who = busy
        raise UserError(f"port {port} is already in use by {who or 'another process'}; "
                        f"stop it or choose another --port-base")

    missing = sorted({c for cpus in spec.node_cpus for c in cpus} - os.sched_getaffinity(0))
    if missing:
        raise UserError(f"--node-cpus names CPUs {missing} that this process may not use "
                        f"(available: {sorted(os.sched_getaffinity(0))})")

    spec.home.mkdir(parents=True, exist_ok=True)
    # Owner-only: besides secrets.json and the storm.yaml files, Nimbus's and the workers' logs print their
    # configuration, ZooKeeper payload and UI token included.
    spec.home.chmod(0o700)
    _clean_dirs(layout, spec)
    started = time.monotonic()
    state = State(spec, [], time.time())
    try:
        network.up(spec)
        storm_home.assemble(spec, layout, dist, secrets.load_or_create(layout.secrets_file))
        deadline = started + timeout_s
        cmds = daemons.all_commands(spec, layout, java, dist)
        zk_cmd, rest_cmds = cmds[0], cmds[1:]
        state.processes.append(processes.start(zk_cmd, layout.process_log(zk_cmd.name)))
        state.save(layout)
        _wait("ZooKeeper", lambda: zk_ok(spec.zk_port, host=spec.control_host), state.processes, deadline)
        for c in rest_cmds:
            state.processes.append(processes.start(c, layout.process_log(c.name)))
            state.save(layout)
        rest = ui_token.rest_client(spec, timeout_s=5)
        _wait(f"{spec.nodes} supervisors with {spec.total_slots} slots in the REST API",
              lambda: _cluster_ready(rest, spec), state.processes, deadline, lambda: _not_ready(rest, spec))
    except BaseException:
        # Whatever failed (or Ctrl-C), leave nothing behind.
        _teardown(spec, state.processes)
        layout.state_file.unlink(missing_ok=True)
        raise
    for rec in state.processes:
        processes.mark_ready(rec)
    state.ready_after_s = round(time.monotonic() - started, 1)
    state.save(layout)
    return state


def _sweep(spec: ClusterSpec) -> list[int]:
    strays = processes.find_strays(marker(Layout(spec.home)), spec.home)
    if strays:
        log.warning("stopping %d stray process(es) of %s: %s", len(strays), spec.home, [p.pid for p in strays])
        processes.kill_processes(strays)
    return [p.pid for p in strays]


def _teardown(spec: ClusterSpec, recs: list[ProcessRecord]) -> None:
    processes.stop(recs)
    _sweep(spec)
    network.down(spec)


def down(home: Path) -> str:
    layout = Layout(home)
    state = State.load(layout)
    if state is None:
        from pycontrol.cluster.spec import make_spec
        swept = _sweep(make_spec(home))
        return (f"no cluster state in {home}; stopped {len(swept)} stray process(es)" if swept
                else f"no cluster running from {home}")
    _teardown(state.spec, state.processes)
    layout.state_file.unlink(missing_ok=True)
    return f"cluster at {home} stopped ({len(state.processes)} daemons); logs kept in {layout.logs}"


def status(home: Path) -> dict:
    layout = Layout(home)
    state = State.load(layout)
    if state is None:
        return {"running": False, "home": str(home)}
    spec = state.spec
    procs = [{"name": p.name, "role": p.role, "pid": p.pid, "daemon_pid": processes.daemon_pid(p),
              "alive": processes.is_alive(p),
              "rss_mb": round(processes.rss_bytes(p) / 2**20, 1)} for p in state.processes]
    out: dict = {
        "running": all(p["alive"] for p in procs),
        "home": str(home),
        "network": spec.network,
        "storm_version": spec.storm_version,
        "ui": spec.ui_url,
        "zookeeper": f"{spec.control_host}:{spec.zk_port}",
        "nimbus": f"{spec.control_host}:{spec.nimbus_port}",
        "config": str(layout.control_conf_dir / "storm.yaml"),
        "logs": str(layout.logs),
        "ready_after_s": state.ready_after_s,
        "processes": procs,
        "rss_mb_total": round(sum(p["rss_mb"] for p in procs), 1),
        "nodes": [{"name": n.name, "host": n.host, "slots": list(n.slot_ports), "netns": n.netns,
                   "cpus": list(n.cpus) or None}
                  for n in spec.node_specs],
    }
    try:
        rest = ui_token.rest_client(spec, timeout_s=5)
        out["nimbus_status"] = [f"{n.get('host')}:{n.get('port')} {n.get('status')}" for n in rest.nimbuses()]
        out["supervisors"] = [{"host": s.get("host"), "slotsTotal": s.get("slotsTotal"),
                               "slotsUsed": s.get("slotsUsed"), "id": s.get("id"), "version": s.get("version")}
                              for s in rest.supervisors()]
        out["topologies"] = [{"name": t.get("name"), "id": t.get("id"), "status": t.get("status"),
                              "workers": t.get("workersTotal"), "executors": t.get("executorsTotal")}
                             for t in rest.topologies()]
    except RestError as e:
        out["rest_error"] = str(e)
    return out


def _daemon(home: Path, name: str) -> tuple[Layout, State, int]:
    layout = Layout(home)
    state = State.load(layout)
    if state is None:
        raise UserError(f"no cluster state in {home}")
    idx = next((i for i, p in enumerate(state.processes) if p.name == name), None)
    if idx is None:
        raise UserError(f"no daemon named '{name}' (daemons: {[p.name for p in state.processes]})")
    return layout, state, idx


def stop_daemon(home: Path, name: str, crash: bool = False) -> State:
    """Fault injection: stop one daemon of the running cluster, e.g. "zookeeper". By default its whole
    process group (a supervisor's workers too) is stopped; crash=True SIGKILLs the daemon's own process
    and its keeper only, as a crash would (and stays down, unlike a daemon that fails on its own): the
    workers a supervisor started keep running. The state keeps the record
    (now dead) so `start_daemon` can start the same command again."""
    _, state, idx = _daemon(home, name)
    rec = state.processes[idx]
    if not processes.is_alive(rec):
        raise UserError(f"{name} is not running")
    if crash:
        processes.kill_leader(rec)
    else:
        processes.stop([rec])
    return state


def start_daemon(home: Path, name: str, timeout_s: float = 120.0) -> State:
    """Starts a stopped daemon again with the same command and data and waits until the cluster has it
    back: a Nimbus leading and every supervisor and slot in the REST API (after ZooKeeper, after it
    serves again; a supervisor's entry there must be the new one)."""
    layout, state, idx = _daemon(home, name)
    if processes.is_alive(state.processes[idx]):
        raise UserError(f"{name} is already running (pid {state.processes[idx].pid})")
    cmd = next(c for c in daemons.all_commands(state.spec, layout, find_java(), paths.require_dist()) if c.name == name)
    state.processes[idx] = processes.start(cmd, layout.process_log(name))
    state.save(layout)
    deadline = time.monotonic() + timeout_s
    if state.processes[idx].role == "zookeeper":
        _wait("ZooKeeper", lambda: zk_ok(state.spec.zk_port, host=state.spec.control_host), [state.processes[idx]],
              deadline)
    rest = ui_token.rest_client(state.spec, timeout_s=5)
    started = time.monotonic()
    node = next((n for n in state.spec.node_specs if f"{n.name}-supervisor" == name), None)
    running = [n for n in state.spec.node_specs if _alive(state, f"{n.name}-supervisor")]
    _wait(f"the cluster after starting {name} (a leading Nimbus, every running supervisor and its slots)",
          lambda: _cluster_ready(rest, state.spec, running) and (node is None or _fresh(rest, node.host, started)),
          [state.processes[idx]], deadline, lambda: _not_ready(rest, state.spec, running) or "the started supervisor's "
          "entry is still the old one")
    processes.mark_ready(state.processes[idx])
    return state


def _alive(state: State, name: str) -> bool:
    return any(p.name == name and processes.is_alive(p) for p in state.processes)


def _fresh(rest: StormRest, host: str, started: float) -> bool:
    """The supervisor of `host` that Nimbus lists is the one started at `started` (time.monotonic()),
    not the old one Nimbus still remembers: its uptime began after the start."""
    try:
        sups = [s for s in rest.supervisors() if s.get("host") == host]
    except RestError:
        return False
    return bool(sups) and all(int(s.get("uptimeSeconds", 1 << 30)) <= time.monotonic() - started + 1 for s in sups)


def restart_daemon(home: Path, name: str, timeout_s: float = 120.0) -> State:
    """Fault injection: stop one daemon of the running cluster (with its process group) and start it
    again with the same command and data, e.g. "zookeeper"; returns the updated state."""
    layout = Layout(home)
    state = State.load(layout)
    if state is None or not _running(state):
        raise UserError(f"no running cluster in {home}")
    stop_daemon(home, name)
    return start_daemon(home, name, timeout_s)
