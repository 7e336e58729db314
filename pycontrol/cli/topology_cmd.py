"""`pycontrol topology submit|list|kill`: topologies on the local cluster or any Storm cluster."""

from __future__ import annotations

import json
import os
import time

from pathlib import Path

import click

from pycontrol.cli.common import home_option, resolve_home
from pycontrol.cluster import ui_token
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.manager import State
from pycontrol.errors import UserError
from pycontrol.storm import flux_submit, jar_submit, submit
from pycontrol.storm.rest import StormRest
from pycontrol.workloads import sparse_submit
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
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@click.option("--name", default=None, help="Topology name (default: the workload's or the sparse topology's name).")
@click.option("--set", "settings", multiple=True, metavar="KEY=VALUE",
              help="Topology conf / workload parameter, e.g. --set topology.workers=4 (repeatable).")
@click.option("--jar", "jar", default=None, type=click.Path(path_type=Path),
              help="Your topology jar: run --class from it as `storm jar` does (ARGS after -- go to main).")
@click.option("--class", "main_class", default=None, help="With --jar: the main class that submits the topology.")
@click.option("--sparse", "sparse", default=None, type=click.Path(path_type=Path),
              help="A streamparse project directory; ARGS = the topology's name in its topologies/ (if several).")
@click.option("--flux", "flux", default=None, type=click.Path(path_type=Path),
              help="A Flux YAML topology, submitted by Storm's Flux (with --jar: your classes and resources/).")
@click.option("--filter", "filter_file", default=None, type=click.Path(path_type=Path),
              help="With --flux: a properties file for Flux's ${key} substitution.")
@click.option("--python", "python", default=None,
              help="Interpreter the workers run Python components with (an absolute path on the worker hosts; "
                   "default: the one pycontrol runs under, or --sparse's requirements.txt venv).")
@with_cluster_options
def submit_cmd(args, name, settings, jar, main_class, sparse, flux, filter_file, python, home, nimbus, ui) -> None:
    """Submit a topology: a workload by name (`pycontrol workload list`), your own jar, or a streamparse project.

    \b
    pycontrol topology submit wordcount-java --set topology.workers=2
    pycontrol topology submit --jar my.jar --class com.example.Main -- arg1 arg2
    pycontrol topology submit --sparse ~/wordcount [wordcount]
    pycontrol topology submit --flux topology.yaml --filter dev.properties [--jar deps.jar]"""
    if sparse is not None and (jar is not None or flux is not None):
        raise UserError("--sparse goes alone (not with --jar or --flux)")
    if flux is None and (main_class is None) != (jar is None):
        raise UserError("--jar and --class go together")
    if flux is not None and main_class is not None:
        raise UserError("--flux runs Storm's Flux: no --class")
    if filter_file is not None and flux is None:
        raise UserError("--filter is for --flux")
    if python is not None and jar is None and sparse is None and flux is None:
        raise UserError("--python is for --jar, --sparse and --flux (built-in workloads take --set nonstop.python=PATH)")
    # Bad input is reported before any cluster is looked for.
    if flux is not None:
        flux_submit.check_flux(flux, flux_submit.read_properties(filter_file) if filter_file else None)
    elif jar is not None:
        jar_submit.check_jar(jar, main_class)
    if sparse is not None:
        sparse_submit.check_syntax(sparse_submit.topology_file(sparse, args[0] if args else None).parents[1])
        if nimbus is not None and python is None and (sparse / "requirements.txt").is_file():
            raise UserError(f"{sparse / 'requirements.txt'}: the venv made here is not on another cluster's "
                            f"hosts; install the requirements there and pass --python PATH")
    conf_dir, _ = _targets(home, nimbus, ui)
    conf_dir, tmp = submit.client_conf_dir(nimbus, conf_dir)
    try:
        if flux is not None:
            if args or name is not None:
                raise UserError("--flux takes no ARGS or --name: the YAML names the topology")
            out = flux_submit.submit_flux(flux, conf_dir, filter_file, jar, python, list(settings))
        elif jar is not None:
            if name is not None:
                raise UserError("--name does not apply to --jar: the main class names its topology")
            out = jar_submit.submit_jar(jar, main_class, list(args), conf_dir, python, list(settings))
        elif sparse is not None:
            if len(args) > 1:
                raise UserError(f"--sparse takes at most one topology name, got {' '.join(args)}")
            out = sparse_submit.submit_sparse(sparse, args[0] if args else None, name, list(settings), conf_dir,
                                              Layout(resolve_home(home)).home / "venvs", python)
        else:
            if len(args) != 1:
                raise UserError("name one workload (`pycontrol workload list`), or give --jar/--sparse")
            out = submit_workload(args[0], name or args[0], list(settings), conf_dir)
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


def parse_executor_counts(items: tuple[str, ...] | list[str]) -> dict[str, int]:
    """`-e component=N` options as {component: N}; N a positive int."""
    out = {}
    for item in items:
        comp, eq, n = item.partition("=")
        if not eq or not comp.strip() or not n.strip().isdigit() or int(n) < 1:
            raise UserError(f"bad -e '{item}': expected component=N with N >= 1, e.g. -e count=4")
        out[comp.strip()] = int(n)
    return out


@topology.command("rebalance")
@click.argument("name")
@click.option("--workers", "num_workers", type=click.IntRange(min=1), default=None, help="New number of workers.")
@click.option("-e", "--executors", "executors", multiple=True, metavar="COMPONENT=N",
              help="New executor count of a component (repeatable; at most its task count).")
@click.option("--wait", "wait_s", default=0, show_default=True, type=click.IntRange(min=0),
              help="Seconds the topology is deactivated before it is placed again.")
@with_cluster_options
def rebalance_cmd(name, num_workers, executors, wait_s, home, nimbus, ui) -> None:
    """Storm's rebalance (deactivate, then place again; workers restart), optionally with new counts."""
    counts = parse_executor_counts(executors)
    conf_dir, ui_url = _targets(home, nimbus, ui)
    rest = _rest(ui_url, conf_dir, explicit_ui=ui is not None)
    topo_id = rest.topology_id(name)
    if topo_id is None:
        raise UserError(f"no topology named '{name}' (running: {[t['name'] for t in rest.topologies()]})")
    rest.rebalance_to(topo_id, wait_s, num_workers, counts)
    click.echo(f"rebalancing {name}" + (f": {num_workers} workers" if num_workers else "")
               + "".join(f", {c}={n}" for c, n in counts.items()))
