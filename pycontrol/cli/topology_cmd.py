"""`pycontrol topology submit|list|kill`: topologies on the local cluster or any Storm cluster."""

from __future__ import annotations

import json
import os
import time

import click

from pycontrol.cli.common import home_option, resolve_home
from pycontrol.cluster import ui_token
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.manager import State
from pycontrol.errors import UserError
from pycontrol.storm import submit
from pycontrol.storm.rest import StormRest
from pycontrol.workloads.submit import submit_workload


def register(main: click.Group) -> None:
    main.add_command(topology)


# The token of another cluster's UI REST server (--ui): an environment variable keeps it off the command line.
UI_TOKEN_ENV = "NONSTOP_UI_TOKEN"


def _targets(home, nimbus, ui):
    """(conf_dir or None, UI URL) of the named cluster, else of the local one."""
    layout = Layout(resolve_home(home))
    state = State.load(layout)
    ui_url = ui or (state.spec.ui_url if state else None)
    conf_dir = layout.control_conf_dir if state else None
    return conf_dir, ui_url


def _rest(ui_url: str | None, conf_dir=None, explicit_ui: bool = False) -> StormRest:
    """The local cluster's client carries its token; another cluster's (--ui) gets $NONSTOP_UI_TOKEN, never the
    local one."""
    if not ui_url:
        raise UserError("no local cluster running: start one with `pycontrol cluster up`, or pass --ui URL")
    if explicit_ui or conf_dir is None:
        return StormRest(ui_url, token=os.environ.get(UI_TOKEN_ENV) or None)
    return StormRest(ui_url, token=ui_token.read(conf_dir))


cluster_options = [
    home_option,
    click.option("--nimbus", default=None, help="HOST:PORT of another cluster's Nimbus (default: the local cluster)."),
    click.option("--ui", default=None, help="Base URL of another cluster's UI REST API."),
]


def with_cluster_options(f):
    for opt in reversed(cluster_options):
        f = opt(f)
    return f


@click.group()
def topology() -> None:
    """Submit, list and kill topologies."""


@topology.command("submit")
@click.argument("workload")
@click.option("--name", default=None, help="Topology name (default: the workload's name).")
@click.option("--set", "settings", multiple=True, metavar="KEY=VALUE",
              help="Topology conf / workload parameter, e.g. --set topology.workers=4 (repeatable).")
@with_cluster_options
def submit_cmd(workload, name, settings, home, nimbus, ui) -> None:
    """Submit a workload as a topology: a Python one (topologies/) or a Java one (storm-plugins/workloads).

    `pycontrol workload list` shows them all."""
    conf_dir, _ = _targets(home, nimbus, ui)
    conf_dir, tmp = submit.client_conf_dir(nimbus, conf_dir)
    try:
        out = submit_workload(workload, name or workload, list(settings), conf_dir)
    finally:
        if tmp:
            tmp.cleanup()
    click.echo(out)


@topology.command("list")
@click.option("--json", "as_json", is_flag=True)
@with_cluster_options
def list_cmd(as_json, home, nimbus, ui) -> None:
    """Topologies running on the cluster."""
    _, ui_url = _targets(home, nimbus, ui)
    tops = _rest(ui_url).topologies()
    if as_json:
        click.echo(json.dumps(tops, indent=2))
        return
    if not tops:
        click.echo("no topologies")
    for t in tops:
        click.echo(f"{t['name']:<24} {t['status']:<10} {t.get('workersTotal')} workers  "
                   f"{t.get('executorsTotal')} executors  up {t.get('uptime')}  id {t['id']}")


@topology.command("kill")
@click.argument("name")
@click.option("--wait", "wait_s", default=0, show_default=True, help="Seconds Storm waits before killing.")
@click.option("--timeout", default=60, show_default=True, help="Seconds to wait until it is gone.")
@with_cluster_options
def kill_cmd(name, wait_s, timeout, home, nimbus, ui) -> None:
    """Kill a topology by name and wait until it is gone."""
    conf_dir, ui_url = _targets(home, nimbus, ui)
    rest = _rest(ui_url, conf_dir, explicit_ui=ui is not None)
    topo_id = rest.topology_id(name)
    if topo_id is None:
        raise UserError(f"no topology named '{name}' (running: {[t['name'] for t in rest.topologies()]})")
    rest.kill(topo_id, wait_s)
    deadline = time.monotonic() + timeout + wait_s
    while rest.topology_id(name) is not None:
        if time.monotonic() > deadline:
            raise UserError(f"{name} still listed {timeout + wait_s} s after the kill")
        time.sleep(1)
    click.echo(f"killed {name}")
