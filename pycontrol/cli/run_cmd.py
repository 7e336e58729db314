"""The controller's commands: `pycontrol run` (the daemon), `pycontrol controller pause|resume|status`
and `pycontrol drain NODE`."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import socket
import threading
from dataclasses import replace
from pathlib import Path

import click
from tenacity import Retrying, retry_if_exception_type, wait_exponential

from pycontrol import zk
from pycontrol.cli.common import home_option, resolve_home, zk_auth
from pycontrol.cli.metrics_cmd import targets
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.manager import State
from pycontrol.controller import policy
from pycontrol.controller.clock import SystemClock
from pycontrol.controller.decisions import ControllerDecisionRecord, ZkDecisionSink, read_latest, record_line
from pycontrol.controller.prom import DEFAULT_PORT, ControllerMetrics, serve
from pycontrol.controller.realize import Realizer, StormClusterIO
from pycontrol.controller.safety import SafetyLimits
from pycontrol.controller.state_store import StateStore
from pycontrol.errors import UserError
from pycontrol.metrics.zk import DEFAULT_ROOT
from pycontrol.storm.rest import StormRest

log = logging.getLogger("pycontrol.controller")

LOG_LEVELS = ("debug", "info", "warning", "error")


def register(main: click.Group) -> None:
    main.add_command(run_cmd)
    main.add_command(controller)
    main.add_command(drain_cmd)


def _zk_hosts(home: Path | None, zk_hosts: str | None) -> str:
    if zk_hosts:
        return zk_hosts
    state = State.load(Layout(resolve_home(home)))
    if state is None:
        raise UserError("no local cluster running: start one with `pycontrol cluster up`, or pass --zk HOST:PORT")
    return f"{state.spec.control_host}:{state.spec.zk_port}"


def _connect_until_stopped(hosts: str, stop: threading.Event, auth):
    """A daemon outlives ZooKeeper being down at start: retry with backoff until connected; None if
    stopped first."""
    retrying = Retrying(wait=wait_exponential(multiplier=1, max=30), retry=retry_if_exception_type(UserError),
                        stop=lambda rs: stop.is_set(), sleep=stop.wait, reraise=True,
                        before_sleep=lambda rs: log.warning("%s; retrying", rs.outcome.exception()))
    try:
        return retrying(zk.connect, hosts, auth=auth)
    except UserError:
        if stop.is_set():
            return None
        raise


class _PrintSink:
    def publish(self, records: list[ControllerDecisionRecord]) -> None:
        for r in records:
            click.echo(json.dumps(r.to_dict(), sort_keys=True))


class _Both:
    def __init__(self, *sinks):
        self.sinks = sinks

    def publish(self, records):
        for s in self.sinks:
            s.publish(records)


@click.command("run")
@click.option("--config", "config_path", required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Controller configuration (YAML; format in pycontrol/controller/policy.py).")
@home_option
@click.option("--ui", default=None, help="Base URL of the cluster's UI REST API (default: the local cluster).")
@click.option("--zk", "zk_hosts", default=None, help="ZooKeeper HOST:PORT[,...] (default: the local cluster's).")
@click.option("--zk-root", default=DEFAULT_ROOT, show_default=True, help="Parent znode of the metrics documents.")
@click.option("--cpu-mhz", type=float, default=None, help="Core frequency for Hz figures (default: as reported).")
@click.option("--dry-run", is_flag=True, help="Plan and explain, never apply (whatever the config says).")
@click.option("--once", is_flag=True, help="Run one cycle, print its decisions as JSON lines, exit.")
@click.option("--cycles", type=click.IntRange(min=1), default=None, help="Run this many cycles, then exit.")
@click.option("--metrics-host", default="127.0.0.1", show_default=True, help="Address of the /metrics endpoint.")
@click.option("--metrics-port", type=click.IntRange(0, 65535), default=DEFAULT_PORT, show_default=True,
              help="Port of the controller's /metrics endpoint (0: none).")
@click.option("--id", "identity", default=None, help="This controller's name in the leader election "
                                                    "(default: HOST:PID).")
@click.option("--log-level", type=click.Choice(LOG_LEVELS), default="info", show_default=True,
              help="Level of the controller's decision log (stderr).")
def run_cmd(config_path, home, ui, zk_hosts, zk_root, cpu_mhz, dry_run, once, cycles, metrics_host, metrics_port,
            identity, log_level) -> None:
    """The controller daemon: every cycle, collect the metrics plane, evaluate each topology, plan with
    its policy (OTD, Aniello online, ...), pass the plan through the safety gate and apply it through the
    plan-following scheduler. Only the elected leader acts; `pycontrol controller pause` stops it acting."""
    from pycontrol.controller.daemon import Daemon
    from pycontrol.controller.leader import Leadership
    from pycontrol.controller.loop import ControlLoop
    from pycontrol.controller.planner import SCHEDULERS, JavaPlanner
    from pycontrol.controller.source import ModelSource
    from pycontrol.metrics.collect import Collector
    from pycontrol.metrics.zk import MetricsZk

    cfg = policy.load(config_path)
    logging.getLogger("pycontrol").setLevel(log_level.upper())
    ui_url, zk_hosts = targets(home, ui, zk_hosts)
    max_cycles = 1 if once else cycles
    stop = threading.Event()
    if max_cycles is None:
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stop.set())
    clock = SystemClock()
    metrics = ControllerMetrics()
    with contextlib.ExitStack() as cleanup:
        if metrics_port:
            server, _ = serve(metrics, metrics_host, metrics_port)   # up even while ZooKeeper is not
            cleanup.callback(server.shutdown)
        auth = zk_auth(home)
        client = zk.connect(zk_hosts, auth=auth) if max_cycles else _connect_until_stopped(zk_hosts, stop, auth)
        if client is None:
            log.info("stopped before ZooKeeper %s could be reached", zk_hosts)
            return
        cleanup.callback(client.close)
        cleanup.callback(client.stop)
        mz = MetricsZk.sharing(client, root=zk_root, auth=auth)   # one ZooKeeper session for the daemon
        cleanup.callback(mz.stop)
        mz.start(10.0)   # the session reconnects in the background; until then rounds report the error
        rest = StormRest(ui_url)
        collector = Collector(rest, mz, cpu_mhz=cpu_mhz, clock_ms=lambda: int(clock.now() * 1000))
        store = StateStore(client)
        lead = Leadership(client, identity or f"{socket.gethostname()}:{os.getpid()}", clock=clock)
        # Plan writes are fenced by the leader epoch, and the lead is re-checked before each topology.
        realizer = Realizer(StormClusterIO(client, rest, fence=lead.fence), store, clock, cfg.verify_timeout_s,
                            timer=metrics.time, leading=lead.is_leader)
        java = JavaPlanner(timeout_s=cfg.planner_timeout_s)   # one planner JVM for the daemon's life
        cleanup.callback(java.close)
        sink = ZkDecisionSink(client)
        loop = ControlLoop(cfg, ModelSource(collector.collect_all, clock), {p: java for p in SCHEDULERS}, realizer,
                           store, clock, metrics, _Both(sink, _PrintSink()) if max_cycles else sink,
                           force_dry_run=dry_run)
        if max_cycles and not lead.acquire(timeout_s=15):
            raise UserError(f"another controller leads ({', '.join(lead.contenders())}): stop it, or use "
                            f"`pycontrol controller pause` and read its decisions with `pycontrol controller status`")
        log.info("controller %s: config %s, cycle %g s, UI %s, ZooKeeper %s%s", lead.identifier, config_path,
                 cfg.cycle_s, ui_url, zk_hosts, ", dry-run" if dry_run else "")
        daemon = Daemon(loop, lead, clock, cfg.cycle_s, stop)
        daemon.run(max_cycles)
        if max_cycles and daemon.failed:
            raise UserError(f"{daemon.failed} cycle(s) failed: see the log above")
        if once and loop.last_collect_error:
            raise UserError(f"no complete data this cycle: {loop.last_collect_error}")


# --- pause / resume / status ------------------------------------------------------------------------

zk_option = click.option("--zk", "zk_hosts", default=None,
                         help="ZooKeeper HOST:PORT[,...] (default: the local cluster's).")


@click.group()
def controller() -> None:
    """Pause, resume or inspect the controller daemon (its state lives in ZooKeeper)."""


def _with_store(home, zk_hosts, fn):
    client = zk.connect(_zk_hosts(home, zk_hosts), auth=zk_auth(home))
    try:
        return fn(client, StateStore(client))
    finally:
        client.stop()
        client.close()


@controller.command("pause")
@home_option
@zk_option
def pause_cmd(home, zk_hosts) -> None:
    """Stop applying moves (the controller keeps observing and explaining what it would do)."""
    _with_store(home, zk_hosts, lambda c, s: s.update(lambda st: replace(st, paused=True)))
    click.echo("controller paused")


@controller.command("resume")
@home_option
@zk_option
def resume_cmd(home, zk_hosts) -> None:
    """Let the controller apply moves again."""
    _with_store(home, zk_hosts, lambda c, s: s.update(lambda st: replace(st, paused=False)))
    click.echo("controller resumed")


@controller.command("status")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--last", default=5, show_default=True, help="How many logged actions to show.")
@home_option
@zk_option
def status_cmd(as_json, last, home, zk_hosts) -> None:
    """Leader, pause switch, the action in flight, the last actions and each topology's last decision."""
    from pycontrol.controller.leader import Leadership

    def read(client, store):
        state, _ = store.load()
        return state, Leadership(client, "status-reader").contenders(), read_latest(client)

    state, contenders, decisions = _with_store(home, zk_hosts, read)
    doc = state.to_doc()
    if as_json:
        click.echo(json.dumps({"leader": contenders[0] if contenders else None, "contenders": contenders,
                               "paused": state.paused, "cycle": state.cycle, "pending": doc["pending"],
                               "log": doc["log"][-last:], "decisions": decisions}, indent=2, sort_keys=True))
        return
    click.echo(f"leader: {contenders[0] if contenders else 'none'}"
               + (f" (standing by: {', '.join(contenders[1:])})" if len(contenders) > 1 else ""))
    click.echo(f"paused: {'yes' if state.paused else 'no'}; last cycle {state.cycle}")
    if state.pending:
        click.echo(f"pending: cycle {state.pending.cycle}, {len(state.pending.moves)} move(s)")
    for e in doc["log"][-last:]:
        click.echo(f"action of cycle {e['cycle']}: {len(e['moves'])} move(s): {e['outcome']}")
    for topo, d in decisions.items():
        click.echo(record_line(topo, d))


# --- drain ------------------------------------------------------------------------------------------

@click.command("drain")
@click.argument("node")
@click.option("--topology", "topologies", multiple=True, help="Only this topology (repeatable; default: all).")
@click.option("--timeout", "timeout_s", type=click.FloatRange(min=1), default=300, show_default=True,
              help="Seconds to wait for the node to be empty.")
@click.option("--dry-run", is_flag=True, help="Print the moves, apply nothing.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@home_option
@click.option("--ui", default=None, help="Base URL of the cluster's UI REST API (default: the local cluster).")
@zk_option
def drain_cmd(node, topologies, timeout_s, dry_run, as_json, home, ui, zk_hosts) -> None:
    """Move every executor off NODE (a supervisor host or id, or a local node name such as node2),
    through the controller's write-ahead realize path, and report when the node is empty."""
    from pycontrol.controller.drainer import Drainer

    local = None if (ui or zk_hosts) else State.load(Layout(resolve_home(home)))
    ui_url, zk_hosts = targets(home, ui, zk_hosts)
    aliases = {n.name: n.host for n in local.spec.node_specs} if local else {}
    # The REST API does not list free ports; a local cluster's layout does.
    slot_ports = {n.host: list(n.slot_ports) for n in local.spec.node_specs} if local else {}
    clock = SystemClock()
    client = zk.connect(zk_hosts, auth=zk_auth(home))
    try:
        io = StormClusterIO(client, StormRest(ui_url))
        store = StateStore(client)
        drainer = Drainer(io, store, Realizer(io, store, clock, verify_timeout_s=timeout_s), clock,
                          hysteresis_s=SafetyLimits().hysteresis_s)
        report, chosen = drainer.plan(node, list(topologies) or None, slot_ports, aliases)
        if not dry_run and report.moves:
            report = drainer.run(report, chosen, timeout_s)
        elif not dry_run:
            report.remaining = drainer.remaining(report.node, chosen)
            report.empty = not report.remaining and not report.unplaceable
            report.empty_after_s = 0.0 if report.empty else None
    finally:
        client.stop()
        client.close()
    _print_drain(report, dry_run, as_json)
    if report.unplaceable:
        raise UserError(f"{len(report.unplaceable)} executor(s) cannot leave {report.node}: no worker of their "
                        f"topology elsewhere and no known free slot")
    if not dry_run and not report.empty:
        left = sum(len(v) for v in report.remaining.values())
        raise UserError(f"{report.node} still runs {left} executor(s) after {timeout_s:g} s: {report.remaining}")


def _print_drain(report, dry_run: bool, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps({
            "node": report.node, "dry_run": dry_run, "moves": [m.to_dict() for m in report.moves],
            "unplaceable": [{"topology": p.topology, "executor": p.executor, "slot": p.slot, "reason": why}
                            for p, why in report.unplaceable],
            "outcomes": [o.line() for o in report.outcomes], "empty": report.empty,
            "empty_after_s": report.empty_after_s, "remaining": report.remaining}, indent=2))
        return
    for m in report.moves:
        click.echo(f"{'would move' if dry_run else 'move'} {m.topology} {m.executor}: {m.from_slot} -> {m.to_slot}")
    for p, why in report.unplaceable:
        click.echo(f"cannot move {p.topology} {p.executor} off {p.slot}: {why}")
    for o in report.outcomes:
        click.echo(o.line())
    if report.empty:
        click.echo(f"node {report.node} is empty after {report.empty_after_s:g} s")
    elif not dry_run:
        click.echo(f"node {report.node} still runs: {report.remaining}")
    elif not report.moves:
        click.echo(f"nothing to move off {report.node}")
