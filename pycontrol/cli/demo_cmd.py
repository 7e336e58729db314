"""`pycontrol demo`: the README's main job."""

from __future__ import annotations

import json

import click

from pycontrol.cli.common import DEFAULT_HOME, resolve_home
from pycontrol.demo import run_demo


def register(main: click.Group) -> None:
    main.add_command(demo)


@click.command()
@click.option("--home", type=click.Path(file_okay=False), default=None,
              help=f"Cluster directory (default: {DEFAULT_HOME.parent / 'demo'}).")
@click.option("--nodes", default=2, show_default=True)
@click.option("--keep", is_flag=True, help="Leave the cluster running at the end.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON summary at the end.")
def demo(home, nodes, keep, as_json) -> None:
    """Bring up a local cluster, run a workload across its nodes, show it, tear down."""
    from pathlib import Path
    h = Path(home).resolve() if home else resolve_home(DEFAULT_HOME.parent / "demo")
    result = run_demo(h, nodes, click.echo, keep=keep)
    if as_json:
        click.echo(json.dumps(result, indent=2))
