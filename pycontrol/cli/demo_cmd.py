"""`pycontrol demo`: the README's main job."""

from __future__ import annotations

import json
import time
from pathlib import Path

import click

from pycontrol.cli.common import DEFAULT_HOME, resolve_home
from pycontrol.demo import run_demo
from pycontrol.paths import REPO_ROOT


def register(main: click.Group) -> None:
    main.add_command(demo)


@click.command()
@click.option("--home", type=click.Path(file_okay=False), default=None,
              help=f"Cluster directory (default: {DEFAULT_HOME.parent / 'demo'}).")
@click.option("--nodes", default=2, show_default=True)
@click.option("--duration", type=float, default=270, show_default=True,
              help="Seconds the controller runs with policy otd, moving executors.")
@click.option("--baseline", type=float, default=60, show_default=True,
              help="Seconds under Storm's default placement first (the controller only observes).")
@click.option("--rate", type=int, default=2000, show_default=True, help="Sentences/s offered by the spout.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Results directory (default: results/demo/<date-time>).")
@click.option("--port-base", type=int, default=17000, show_default=True, help="Port base of the local cluster.")
@click.option("--metrics-port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="Serve the controller's Prometheus metrics on 127.0.0.1:PORT during the run (0: off; "
                   "pycontrol run uses 9466).")
@click.option("--keep", is_flag=True, help="Leave the cluster running at the end.")
@click.option("--json", "as_json", is_flag=True, help="Print the JSON summary at the end.")
def demo(home, nodes, duration, baseline, rate, out, port_base, metrics_port, keep, as_json) -> None:
    """Bring up a local cluster, run the heavy word count under Storm's default placement, then let the
    controller move executors with OTD; print the summary, write JSON and plots, tear down."""
    h = Path(home).resolve() if home else resolve_home(DEFAULT_HOME.parent / "demo")
    out = out or REPO_ROOT / "results" / "demo" / time.strftime("%Y%m%d-%H%M%S")
    result = run_demo(h, nodes, click.echo, keep=keep, duration_s=duration, baseline_s=baseline, rate=rate,
                      out_dir=out, port_base=port_base, metrics_port=metrics_port)
    if as_json:
        click.echo(json.dumps(result, indent=2))
