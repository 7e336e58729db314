"""`pycontrol inspect TOPOLOGY`: where a topology runs, where its tuples go, and what looks wrong."""

from __future__ import annotations

import json
import time

import click

from pycontrol.cli.metrics_cmd import open_collector, with_metrics_options
from pycontrol.model.diagnose import format_report, report


def register(main: click.Group) -> None:
    main.add_command(inspect_cmd)


@click.command("inspect")
@click.argument("topology")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable report.")
@click.option("--model", "full_model", is_flag=True, help="With --json: the whole live model, not the report.")
@click.option("--top", default=5, show_default=True, help="How many hottest edges and loaded workers to list.")
@click.option("--wait", default=0.0, show_default=True,
              help="Seconds to wait for the first metrics documents of a just-started topology.")
@with_metrics_options
def inspect_cmd(topology, as_json, full_model, top, wait, home, ui, zk, zk_root, cpu_mhz) -> None:
    """Placement per node, inter-node tuple share, hottest edges, most loaded workers, findings."""
    collector = open_collector(home, ui, zk, zk_root, cpu_mhz)
    try:
        model = collector.collect(topology)
        deadline = time.monotonic() + wait
        while not any(a.get("measured") for _, a in model.executors.nodes(data=True)) and time.monotonic() < deadline:
            time.sleep(1)
            model = collector.collect(topology)
    finally:
        collector.zk.stop()
    if as_json:
        click.echo(json.dumps(model.to_dict() if full_model else report(model, top), indent=2))
    else:
        click.echo(format_report(report(model, top)))
