"""`pycontrol migrate TOPOLOGY --executor ID --to HOST:PORT [--wait]`: move one executor between live
workers (nonstop migration: no worker restarts)."""

from __future__ import annotations

import json

import click

from pycontrol import zk
from pycontrol.cli.common import home_option, resolve_home, zk_auth
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.manager import State
from pycontrol.errors import UserError
from pycontrol.migration.migrate import executor_arg, migrate
from pycontrol.wire.plan_document import parse_target
from pycontrol.storm.rest import StormRest


def register(main: click.Group) -> None:
    main.add_command(migrate_cmd)


def _endpoints(home, zk_hosts: str | None, ui: str | None) -> tuple[str, str, dict[str, str]]:
    """(ZooKeeper hosts, UI URL, node name -> host) of the named or the local cluster."""
    state = State.load(Layout(resolve_home(home)))
    nodes = {n.name: n.host for n in state.spec.node_specs} if state else {}
    zk_hosts = zk_hosts or (f"{state.spec.control_host}:{state.spec.zk_port}" if state else None)
    ui = ui or (state.spec.ui_url if state else None)
    if not zk_hosts or not ui:
        raise UserError("no local cluster running: start one with `pycontrol cluster up`, or pass --zk and --ui")
    return zk_hosts, ui, nodes


@click.command("migrate")
@click.argument("topology")
@click.option("--executor", "executor", required=True, help="Executor id, e.g. [3,3] or as the UI shows it, [3-3] (or 3).")
@click.option("--to", "to", required=True, help="Target worker slot HOST:PORT (a local node name works as HOST).")
@click.option("--wait", is_flag=True, help="Also wait until the UI REST API shows the executor at the target.")
@click.option("--timeout", default=60.0, show_default=True, help="Seconds to wait for the decision (and the move).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@home_option
@click.option("--zk", "zk_hosts", default=None, help="ZooKeeper HOST:PORT of another cluster.")
@click.option("--ui", default=None, help="UI REST base URL of another cluster.")
def migrate_cmd(topology, executor, to, wait, timeout, as_json, home, zk_hosts, ui) -> None:
    """Move one executor of TOPOLOGY to another worker slot without restarting any worker."""
    zk_hosts, ui_url, nodes = _endpoints(home, zk_hosts, ui)
    executor = executor_arg(executor)  # bad spelling fails before anything is contacted
    host, port = parse_target(to)
    host = nodes.get(host, host)
    try:
        client = zk.connect(zk_hosts, auth=zk_auth(home))
    except UserError as e:
        raise UserError(f"{e}: no plan written, nothing moves") from e
    try:
        r = migrate(client, StormRest(ui_url), topology, executor, (host, port), wait=wait, timeout_s=timeout)
    finally:
        client.stop()
        client.close()
    if as_json:
        click.echo(json.dumps({**r.__dict__, "decision": r.decision.__dict__}, indent=2))
    if r.decision.status == "rejected":
        raise UserError(f"plan v{r.plan_version} for {topology} rejected: {r.decision.reason}")
    if not as_json:
        where = f" in the REST API after {r.visible_after_s} s" if r.visible_after_s is not None else ""
        click.echo(f"{r.executor} of {topology}: {r.source} -> {r.target}: plan v{r.plan_version} "
                   f"{r.decision.status} after {r.decided_after_s} s{where}")
