"""`pycontrol cluster up|status|down`: the local multi-node cluster."""

from __future__ import annotations

import json
import os

import click

from pycontrol.cli.common import home_option, resolve_home
from pycontrol.cluster import manager
from pycontrol.cluster.spec import NETWORKS, cpus_per_node, make_spec, parse_conf_settings
from pycontrol.cluster.storm_versions import DEFAULT_STORM_VERSION, STORM_VERSIONS
from pycontrol.errors import UserError


def register(main: click.Group) -> None:
    main.add_command(cluster)


@click.group()
def cluster() -> None:
    """A real Storm cluster on this machine: ZooKeeper, Nimbus, UI REST, N supervisor nodes."""


@cluster.command()
@home_option
@click.option("--nodes", default=2, show_default=True, help="Supervisor nodes.")
@click.option("--slots", default=4, show_default=True, help="Worker slots per node.")
@click.option("--network", type=click.Choice(NETWORKS), default="loopback", show_default=True,
              help="loopback: a 127.0.0.x address per node; netns: a network namespace per node.")
@click.option("--link-bandwidth", default=None, help="netns only: egress rate of each node's link, e.g. 100mbit.")
@click.option("--link-delay", type=float, default=None, help="netns only: one-way delay of each node's link (ms).")
@click.option("--node-cpus", default=None, metavar="LISTS",
              help="Pin each node (its supervisor and workers) to CPUs, one list per node separated by ';', "
                   "e.g. '0;1' or '0-1;2-3': each node then has its own CPUs, like separate machines.")
@click.option("--pin-cpus", is_flag=True,
              help="Give each node CPUs of its own: node i runs on the i-th equal block of the CPUs this process "
                   "may use (2 CPUs, 2 nodes: node1 on CPU 0, node2 on CPU 1). ZooKeeper, Nimbus and the UI stay "
                   "unpinned. Instead of --node-cpus.")
@click.option("--node-slots", default=None, metavar="COUNTS",
              help="A slot count per node, separated by ';', e.g. '1;5', when the nodes differ (this "
                   "replaces --slots).")
@click.option("--port-base", default=17000, show_default=True,
              help="ZooKeeper on this port, Nimbus +1, UI +2, node i at +100+20(i-1).")
@click.option("--timeout", default=240, show_default=True, help="Seconds to wait for the cluster to be ready.")
@click.option("--migration/--no-migration", default=True, show_default=True,
              help="Nonstop executor migration (agent + plan-following scheduler); off = stock Storm.")
@click.option("--storm-version", default=DEFAULT_STORM_VERSION, show_default=True,
              help=f"Storm release the cluster runs, one of {', '.join(STORM_VERSIONS)} (as built under build/dist).")
@click.option("--zk-acl/--no-zk-acl", default=True, show_default=True,
              help="ZooKeeper digest auth with ACLs on Storm's and the suite's znodes (secrets in HOME/secrets.json); "
                   "--no-zk-acl leaves ZooKeeper open to any client: insecure, for stock-Storm comparisons only.")
@click.option("--conf", "conf", multiple=True, metavar="KEY=VALUE",
              help="Extra storm.yaml key for every daemon and worker (YAML value), e.g. "
                   "nonstop.migration.worker.sync.ms=500; repeatable.")
def up(home, nodes, slots, network, link_bandwidth, link_delay, node_cpus, pin_cpus, node_slots, port_base, timeout,
       migration, storm_version, zk_acl, conf) -> None:
    """Start the cluster and wait until every supervisor and slot is registered."""
    if pin_cpus:
        if node_cpus:
            raise UserError("--pin-cpus and --node-cpus both choose the nodes' CPUs: give one of them")
        node_cpus = cpus_per_node(nodes, sorted(os.sched_getaffinity(0)))
    spec = make_spec(resolve_home(home), nodes=nodes, slots=slots, network=network,
                     link_bandwidth=link_bandwidth, link_delay_ms=link_delay, port_base=port_base,
                     migration=migration, extra_conf=parse_conf_settings(conf), node_cpus=node_cpus,
                     node_slots=node_slots, storm_version=storm_version, zk_acl=zk_acl)
    state = manager.up(spec, timeout_s=timeout, echo=click.echo)
    st = manager.status(spec.home)
    per_node = "/".join(str(len(n.slot_ports)) for n in spec.node_specs)
    click.echo(f"cluster ready in {state.ready_after_s} s: {nodes} nodes, {per_node} slots ({network})")
    _print_status(st)


@cluster.command()
@home_option
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def status(home, as_json) -> None:
    """Nodes, slots, topologies and daemon health."""
    st = manager.status(resolve_home(home))
    if as_json:
        click.echo(json.dumps(st, indent=2))
        return
    if "processes" not in st:
        click.echo(f"no cluster running from {st['home']}")
        return
    _print_status(st)


@cluster.command()
@home_option
def down(home) -> None:
    """Stop every process the cluster started and remove its namespaces and links."""
    click.echo(manager.down(resolve_home(home)))


def _print_status(st: dict) -> None:
    reported = sorted({s["version"] for s in st.get("supervisors", []) if s.get("version")})
    click.echo(f"  Storm:     {st['storm_version']}"
               + (f" (supervisors report {', '.join(reported)})" if reported else ""))
    click.echo(f"  UI REST:   {st['ui']}/api/v1/cluster/summary")
    click.echo(f"  Nimbus:    {st['nimbus']}    ZooKeeper: {st['zookeeper']}"
               + (f"    ({', '.join(st['nimbus_status'])})" if st.get("nimbus_status") else ""))
    click.echo(f"  config:    {st['config']}")
    click.echo(f"  logs:      {st['logs']}")
    click.echo(f"  memory:    {st['rss_mb_total']} MB RSS in all")
    for p in st["processes"]:
        click.echo(f"    {p['name']:<18} pid {p['pid']:<8} {'up' if p['alive'] else 'DOWN':<5} {p['rss_mb']} MB")
    sups = {s["host"]: s for s in st.get("supervisors", [])}
    for n in st["nodes"]:
        s = sups.get(n["host"], {})
        where = f" netns {n['netns']}" if n["netns"] else ""
        click.echo(f"    {n['name']:<8} {n['host']:<14}{where} slots {s.get('slotsUsed', '?')}/{s.get('slotsTotal', '?')} used"
                   f" (ports {n['slots'][0]}-{n['slots'][-1]})")
    for t in st.get("topologies", []):
        click.echo(f"    topology {t['name']} [{t['status']}] {t['workers']} workers, {t['executors']} executors")
    if "rest_error" in st:
        click.echo(f"  REST: {st['rest_error']}")
