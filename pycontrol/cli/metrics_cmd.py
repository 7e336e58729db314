"""`pycontrol metrics serve|snapshot`: the metrics plane's Prometheus endpoint and raw recordings."""

from __future__ import annotations

import json
import signal
import threading
from pathlib import Path

import click

from pycontrol.cli.common import home_option, resolve_home, zk_auth
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.manager import State
from pycontrol.errors import UserError
from pycontrol.metrics.collect import Collector, record
from pycontrol.metrics.zk import DEFAULT_ROOT, MetricsZk
from pycontrol.storm.rest import StormRest


def register(main: click.Group) -> None:
    main.add_command(metrics)


def targets(home: Path | None, ui: str | None, zk: str | None) -> tuple[str, str]:
    """(UI REST URL, ZooKeeper host:port) given explicitly, else those of the local cluster."""
    if ui and zk:
        return ui, zk
    state = State.load(Layout(resolve_home(home)))
    if state is None:
        raise UserError("no local cluster running: start one with `pycontrol cluster up`, or pass --ui URL "
                        "and --zk HOST:PORT")
    return ui or state.spec.ui_url, zk or f"{state.spec.control_host}:{state.spec.zk_port}"


metrics_options = [
    home_option,
    click.option("--ui", default=None, help="Base URL of the cluster's UI REST API (default: the local cluster)."),
    click.option("--zk", default=None, help="ZooKeeper HOST:PORT[,...] (default: the local cluster's)."),
    click.option("--zk-root", default=DEFAULT_ROOT, show_default=True, help="Parent znode of the metrics documents."),
    click.option("--cpu-mhz", type=float, default=None,
                 help="Core frequency for Hz figures (default: each node's /proc/cpuinfo as its workers report it)."),
]


def with_metrics_options(f):
    for opt in reversed(metrics_options):
        f = opt(f)
    return f


def open_collector(home, ui, zk, zk_root, cpu_mhz, wait_s: float = 10.0) -> Collector:
    ui_url, zk_hosts = targets(home, ui, zk)
    mz = MetricsZk(zk_hosts, root=zk_root, auth=zk_auth(home))
    if not mz.start(wait_s):
        mz.stop()
        raise UserError(f"cannot reach ZooKeeper at {zk_hosts} within {wait_s:.0f} s")
    return Collector(StormRest(ui_url), mz, cpu_mhz=cpu_mhz)


@click.group()
def metrics() -> None:
    """Per-executor traffic, CPU and queues of running topologies."""


@metrics.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=9465, show_default=True, help="Port of the /metrics endpoint.")
@click.option("--interval", default=5.0, show_default=True, help="Seconds between collection rounds.")
@with_metrics_options
def serve_cmd(host, port, interval, home, ui, zk, zk_root, cpu_mhz) -> None:
    """Expose every running topology's metrics to Prometheus (see pycontrol/metrics/PROMETHEUS.md)."""
    from pycontrol.metrics.prometheus import Refresher, serve
    from pycontrol.storm.rest_info import cluster_totals

    collector = open_collector(home, ui, zk, zk_root, cpu_mhz)
    refresher = Refresher(collector.collect_all, lambda: collector.zk.connected, interval_s=interval,
                          cluster_fn=lambda: cluster_totals(collector.rest.cluster_summary()))
    refresher.refresh()
    server, _ = serve(refresher, host, port)
    refresher.start()
    click.echo(f"serving http://{host}:{port}/metrics (every {interval:g} s); Ctrl-C stops")
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    try:
        done.wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        refresher.stop()
        collector.zk.stop()


@metrics.command("snapshot")
@click.argument("topology")
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write here instead of stdout.")
@with_metrics_options
def snapshot_cmd(topology, out, home, ui, zk, zk_root, cpu_mhz) -> None:
    """Record one round's raw inputs (REST answers and metrics znodes) as JSON, to replay offline."""
    collector = open_collector(home, ui, zk, zk_root, cpu_mhz)
    try:
        data = json.dumps(record(collector.rest, collector.zk, topology), indent=1, sort_keys=True)
    finally:
        collector.zk.stop()
    if out:
        out.write_text(data + "\n")
        click.echo(f"recorded {topology} to {out}")
    else:
        click.echo(data)
